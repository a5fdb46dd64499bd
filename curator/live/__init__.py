"""The live state both faces share: the session (every memory source's current snapshot and the
one way it changes), one source's workspace (snapshot + findings + budgets), and the repository
view the CLI reports from. Pure: no Textual, no Rich."""


def semantic_embedder():
    """duplicate.topic's vectors: the static ones distilled from the retrieval source's model
    (retrieval/static.py), imported only when a check asks. The faces hand it to the checks as
    `LoadOptions.meaning` (the checks stand below retrieval and never import it)."""
    try:
        from ..retrieval import static
    except ImportError:
        return None
    return getattr(static, "topic_space", None)

