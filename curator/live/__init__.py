"""The live state both faces share: the session (every memory source's current snapshot and the
one way it changes), one source's workspace (snapshot + findings + budgets), and the repository
view the CLI reports from. Pure: no Textual, no Rich."""
