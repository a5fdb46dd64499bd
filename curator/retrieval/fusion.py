"""Reciprocal rank fusion (k = 60) and ADR-037's de-duplication by SHA-256 of content."""

from __future__ import annotations


def rrf(rankings: dict[str, list[str]], k: int = 60, weights: dict[str, float] | None = None) -> list[tuple[str, float]]:
    """Fuse ranked lists of ids: score = Σ weight / (k + rank). Ties broken by best rank, then id."""
    scores: dict[str, float] = {}
    best: dict[str, int] = {}
    for source, ids in rankings.items():
        w = 1.0 if weights is None else weights.get(source, 1.0)
        for rank, item in enumerate(ids, 1):
            scores[item] = scores.get(item, 0.0) + w / (k + rank)
            best[item] = min(best.get(item, rank), rank)
    return sorted(scores.items(), key=lambda kv: (-kv[1], best[kv[0]], kv[0]))


def dedupe(items: list[tuple[str, float]], content_hash) -> tuple[list[tuple[str, float]], dict[str, str]]:
    """Keep the first of items with equal content; returns (kept, dropped id → the id kept)."""
    seen: dict[str, str] = {}
    kept, dropped = [], {}
    for item, score in items:
        h = content_hash(item)
        if h and h in seen:
            dropped[item] = seen[h]
            continue
        if h:
            seen[h] = item
        kept.append((item, score))
    return kept, dropped
