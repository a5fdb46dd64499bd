"""Retrieval preview: what would the agent load for a query? (route, bm25, prior, fused).

The golden-query evaluation (`eval`, which needs yaml) is imported on first use, so a one-shot
`curator retrieve` does not pay for it."""

from .engine import Hit, RetrievalEngine, SearchResult

__all__ = ["EvalReport", "GoldenError", "Hit", "RetrievalEngine", "SearchResult", "load_golden", "run_eval"]

_EVAL = ("EvalReport", "GoldenError", "load_golden", "run_eval")


def __getattr__(name: str):
    if name in _EVAL:
        from . import eval as _eval

        return getattr(_eval, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
