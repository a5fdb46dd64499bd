"""Retrieval across a repository's memory systems (ADR-037): each source is ranked on its own,
the per-source lists are fused with reciprocal rank fusion, and knowledge kept in two systems is
de-duplicated by the SHA-256 of its content, keeping the copy of the source that comes first in
the precedence (Serena first by default). Every result keeps its source in its path."""

from __future__ import annotations

from dataclasses import dataclass, replace

from .engine import RetrievalEngine, SearchResult

DEPTH = 50


@dataclass(slots=True)
class Engine:
    name: str  # the source as shown (".serena/memories")
    kind: str  # serena | claude | experience
    prefix: str  # what its store paths are prefixed with to be repository-relative
    engine: RetrievalEngine


def search_sources(engines: list[Engine], query: str, k: int = 5, ranker: str = "fused",
                   precedence: tuple[str, ...] = ("serena", "claude", "experience"),
                   rrf_k: int = 60) -> SearchResult:
    """One fused list over every source; `ranker` picks route, bm25, prior or fused within each."""
    results = [(e, e.engine.search(query, DEPTH, ranker)) for e in engines]
    order = {kind: i for i, kind in enumerate(precedence)}
    scores: dict[str, float] = {}
    hits_by_path = {}
    for e, res in results:
        for hit in res.hits:
            path = e.prefix + hit.path
            scores[path] = scores.get(path, 0.0) + 1.0 / (rrf_k + hit.rank)
            hits_by_path[path] = (e, hit)
    ranked = sorted(scores, key=lambda p: (-scores[p], p))
    kept: list[str] = []
    duplicates: dict[str, str] = {}
    by_hash: dict[str, str] = {}
    for path in ranked:
        e, hit = hits_by_path[path]
        digest = e.engine.store.records[hit.path].content_hash
        if digest in by_hash:
            other = by_hash[digest]
            oe, _ = hits_by_path[other]
            if order.get(e.kind, 99) < order.get(oe.kind, 99):  # this source takes precedence
                kept[kept.index(other)] = path
                by_hash[digest] = path
                duplicates[other] = path
            else:
                duplicates[path] = other
            continue
        by_hash[digest] = path
        kept.append(path)
    hits = []
    for rank, path in enumerate(kept[:k], 1):
        _, hit = hits_by_path[path]
        hits.append(replace(hit, rank=rank, path=path, score=scores[path]))
    first = results[0][1]
    steps = []
    for e, res in results:
        steps += [replace(s, path=e.prefix + s.path) for s in res.route.steps]
    route = replace(first.route, steps=steps)
    per_source: dict[str, list[tuple[str, float]]] = {}
    for e, res in results:
        for name, lst in res.per_source.items():
            per_source.setdefault(name, []).extend((e.prefix + p, s) for p, s in lst)
    return SearchResult(query, k, ranker, first.terms, hits, route, per_source, duplicates)


def source_of(engines: list[Engine], path: str) -> Engine | None:
    best = None
    for e in engines:
        if path.startswith(e.prefix) and (best is None or len(e.prefix) > len(best.prefix)):
            best = e
    return best
