"""Retrieval preview: what would the agent load for a query? (route, bm25, prior, fused)."""

from .engine import Hit, RetrievalEngine, SearchResult
from .eval import EvalReport, GoldenError, load_golden, run_eval

__all__ = ["EvalReport", "GoldenError", "Hit", "RetrievalEngine", "SearchResult", "load_golden", "run_eval"]
