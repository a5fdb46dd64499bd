"""Each shown memory of a search as a `Hit`: its rank and score in every source, the words that
matched, the prior's parts, the passage the model matched, and why a first is kept first."""

from __future__ import annotations

from .results import Hit, SourceRank


def make_hits(engine, ranked, per_source, k: int, qterms, base_terms, route, prior_list) -> list[Hit]:
    # each hit's rank in every source that ranked (an engine with meaning searched for words only: not its)
    shown = (*(s for s in engine.sources if s in per_source), *(("graph",) if "graph" in per_source else ()))
    ranks = {s: {p: i for i, (p, _) in enumerate(per_source[s], 1)} for s in shown}
    scores = {s: dict(per_source[s]) for s in shown}
    prior_parts = {p: parts for p, _, parts in prior_list}
    route_by_path = {h.path: h for h in route.hits}
    passages = getattr(per_source, "passages", {}) or {}
    hits = []
    for rank, (path, score) in enumerate(ranked[:k], 1):
        rec = engine.store.records[path]
        srcs = {}
        for s in shown:
            sr = SourceRank(ranks[s].get(path), scores[s].get(path))
            if s == "route" and path in route_by_path:
                sr.matched = route_by_path[path].matched
                sr.via = route_by_path[path].via
            if s == "prior":
                sr.parts = prior_parts.get(path) or (
                    engine.prior_parts(base_terms, engine.position[path]) if path in engine.position else None
                )
            if s == "bm25" and path in engine.position:
                i = engine.position[path]
                sr.matched = sorted(t for t in set(qterms) if engine.bm25.contains(t, i))
            srcs[s] = sr
        sure = kept_first(engine, per_source, ranked, rank, score)
        hits.append(Hit(rank, path, rec.tier, rec.tokens or 0, float(score), srcs, rec.title,
                        tuple(engine.copies(path)), sure, passages.get(path)))
    return hits


def kept_first(engine, per_source, ranked, rank: int, score: float) -> str:
    """Why the first is first although another memory's fused score is higher ("" otherwise)."""
    if rank != 1 or len(ranked) < 2 or score >= ranked[1][1]:
        return ""
    sem = per_source.get("semantic") or []
    lead = engine.weights().get("lead", 0)
    if lead > 0 and len(sem) > 1 and ranked[0][0] == sem[0][0] and sem[0][1] - sem[1][1] >= lead:
        return (f"put first: the model is sure of it (cosine {sem[0][1]:.2f}, its second "
                f"{sem[1][1]:.2f})")
    b = per_source["bm25"]
    ratio = b[1][1] / b[0][1] if len(b) > 1 and b[0][1] > 0 else 0.0
    margin = engine.config.sure_margin
    if margin > 0 and ratio <= margin:
        return f"kept first: BM25 is sure of it (its second scores {ratio:.2f} of it)"
    return "kept first: it holds every word of the query, the memory that outscores it does not"
