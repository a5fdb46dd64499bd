"""The live state both faces share: the session (every memory source's current snapshot and the
one way it changes), one source's workspace (snapshot + findings + budgets), and the repository
view the CLI reports from. Pure: no Textual, no Rich."""


def semantic_embedder():
    """duplicate.topic's vectors: the static ones distilled from the retrieval source's model
    (retrieval/static.py), imported only when a check asks."""
    try:
        from ..retrieval import static
    except ImportError:
        return None
    return getattr(static, "topic_space", None)


def use_meaning() -> None:
    """Hand duplicate.topic its vectors (the checks stand below retrieval and never import it).
    Each face calls this once at its start — `curator` (cli.main: every command, and the app it
    opens), the benchmarks that run checks in their own process; importing nothing plugs it in."""
    from ..checks.topical_checks import provide_embedder

    provide_embedder(semantic_embedder)
