"""The live state both faces share: the session (every memory source's current snapshot and the
one way it changes), one source's workspace (snapshot + findings + budgets), and the repository
view the CLI reports from. Pure: no Textual, no Rich."""


def _semantic_embedder():
    """duplicate.topic's vectors: the static ones distilled from the retrieval source's model
    (retrieval/static.py), imported only when a check asks."""
    try:
        from ..retrieval import static
    except ImportError:
        return None
    return getattr(static, "topic_space", None)


def _provide() -> None:
    from ..checks.topical_checks import provide_embedder

    provide_embedder(_semantic_embedder)


_provide()
