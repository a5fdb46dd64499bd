"""Retrieval across a repository's memory systems (ADR-037): each source is ranked on its own and
the lists are fused by `fusion.fuse_sources` — reciprocal rank fusion, knowledge kept in two
systems counted once by the SHA-256 of its content, the copy of the source that comes first in
the precedence kept (Serena first by default). Every result keeps its source in its path."""

from __future__ import annotations

from dataclasses import dataclass, replace

from .engine import RetrievalEngine, SearchResult
from .fusion import fuse_sources

DEPTH = 50


@dataclass(slots=True)
class Engine:
    name: str  # the source as shown (".serena/memories")
    kind: str  # serena | claude | experience
    prefix: str  # what its store paths are prefixed with to be repository-relative
    engine: RetrievalEngine


def search_sources(engines: list[Engine], query: str, k: int = 5, ranker: str = "fused",
                   precedence: tuple[str, ...] = ("serena", "claude", "experience"),
                   rrf_k: int = 60, words_only: bool = False) -> SearchResult:
    """One fused list over every source; `ranker` picks route, bm25, prior or fused within each
    (`words_only`: each as its engine without meaning would)."""
    order = {kind: i for i, kind in enumerate(precedence)}
    engines = sorted(engines, key=lambda e: order.get(e.kind, len(order)))  # stable: found order within a kind
    results = [(e, e.engine.search(query, DEPTH, ranker, words_only)) for e in engines]
    hits_by_path = {}
    ranked = []
    for e, res in results:
        records = e.engine.store.records
        items = []
        for hit in res.hits:
            hits_by_path[e.prefix + hit.path] = hit
            items.append((e.prefix + hit.path, records[hit.path].content_hash))
        ranked.append((e.name, items))
    fused = fuse_sources(ranked, rrf_k)  # RRF; the same content once, the first source's copy kept
    duplicates = {path: kept.path for kept in fused for _source, path in kept.copies}
    hits = [replace(hits_by_path[f.path], rank=rank, path=f.path, score=f.score)
            for rank, f in enumerate(fused[:k], 1)]
    first = results[0][1]
    steps = []
    for e, res in results:
        steps += [replace(s, path=e.prefix + s.path) for s in res.route.steps]
    route = replace(first.route, steps=steps)
    per_source: dict[str, list[tuple[str, float]]] = {}
    linked_from: dict[str, list[str]] = {}  # the graph's evidence, in repository paths ("linked from #2")
    for e, res in results:
        for name, lst in res.per_source.items():
            per_source.setdefault(name, []).extend((e.prefix + p, sc) for p, sc in lst)
        for p, via in res.linked_from.items():
            linked_from[e.prefix + p] = [e.prefix + v for v in via]
    return SearchResult(query, k, ranker, first.terms, hits, route, per_source, duplicates, linked_from)


def source_of(engines: list[Engine], path: str) -> Engine | None:
    best = None
    for e in engines:
        if path.startswith(e.prefix) and (best is None or len(e.prefix) > len(best.prefix)):
            best = e
    return best


def locate(engines: list[Engine], path: str) -> tuple[Engine | None, str]:
    """(the source, its store path) of a path typed with the source's folder first or as one
    source shows it (as the app completes it)."""
    path = path.strip().removeprefix("./")
    e = source_of(engines, path)
    if e is not None and path[len(e.prefix):] in e.engine.store.records:
        return e, path[len(e.prefix):]
    return next((x for x in engines if path in x.engine.store.records), None), path


def explain(engines: list[Engine], path: str, result: SearchResult) -> list[tuple[str, str]]:
    """Why a memory of any source came back or not: the fused list first, then its own source
    walked as it ran (`RetrievalEngine.explain`)."""
    e, rel = locate(engines, path)
    if e is None:
        return [("store", "not in any memory system here")]
    shown = e.prefix + rel
    for hit in result.hits:
        if hit.path == shown:
            return [("fused", f"it was retrieved at rank {hit.rank}")]
    if shown in result.duplicates:
        return [("fused", f"same content as {result.duplicates[shown]}, which was kept (de-duplicated by SHA-256)")]
    return [(hop, f"{e.name}: {why}") for hop, why in e.engine.explain(rel, result.query)]
