"""Fusion of one store's sources — a convex combination of normalised scores (default) or
reciprocal rank fusion (k = 60) — and ADR-037's de-duplication by SHA-256 of content.

Why scores and not ranks: RRF sees only ranks, so a source that is sure (BM25 on a query that
names the memory: its first hit scores far above the second) counts the same as one that is
guessing, and two weak lists can outvote it. A convex combination keeps each source's margin:
BM25 is divided by its best score (1.0 = the best lexical match), the semantic source's cosines
are taken as they are, above the lowest of its list (cosines of unrelated texts do not start at
0), the prior is already in [0, 1]. A memory missing from a source's list gets that list's
lowest value (it ranked no better than the last one shown).

Why raw cosines and not min-max: min-max stretches every semantic list to a full 0..1, so a
query the model does not understand (its best cosine 0.25, its 50th 0.10) weighs as much as one
it does (0.75 over 0.20) and buries BM25's sure first. Raw, the spread itself is the semantic
source's confidence: held out on the golden queries it raised every metric (golden README).

`rrf`/`dedupe` fuse the sources of one store; `fuse_sources` fuses several stores' ranked lists
(Serena + Claude memory + experience: `multi.search_sources`), tagging each result with its source.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


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


SCALES = {"bm25": "max", "route": "max", "semantic": "raw", "prior": "raw"}


def normalise(items: Sequence[tuple[str, float]], how: str) -> dict[str, float]:
    """A source's scores on a common 0..1 scale: `max` (÷ best), `minmax`, or `raw`."""
    if not items:
        return {}
    vals = [s for _, s in items]
    hi, lo = max(vals), min(vals)
    if how == "max":
        return {p: (s / hi if hi > 0 else 0.0) for p, s in items}
    if how == "minmax":
        return {p: ((s - lo) / (hi - lo) if hi > lo else 1.0) for p, s in items}
    return dict(items)


def _normalised(lists: Mapping[str, Sequence[tuple[str, float]]], scales: dict[str, str] | None,
                ) -> tuple[dict[str, dict[str, float]], dict[str, float]]:
    scales = {**SCALES, **(scales or {})}
    norm = {s: normalise(items, scales.get(s, "max")) for s, items in lists.items() if items}
    return norm, {s: min(v.values()) for s, v in norm.items()}


def combine(lists: Mapping[str, Sequence[tuple[str, float]]], weights: dict[str, float] | None = None,
            scales: dict[str, str] | None = None) -> list[tuple[str, float]]:
    """Score fusion: Σ weight · normalised score over the sources, a memory missing from a list
    counted at that list's lowest value. Ties: best rank in any list, then id."""
    norm, floor = _normalised(lists, scales)
    best: dict[str, int] = {}
    for items in lists.values():
        for rank, (p, _) in enumerate(items, 1):
            best[p] = min(best.get(p, rank), rank)
    w = weights or {}
    order = sorted(norm)  # sources summed in one order, so a float near-tie never depends on the caller's
    base = sum(w.get(s, 1.0) * floor[s] for s in order)  # every memory starts at every list's floor
    scores = dict.fromkeys(best, base)
    for s in order:
        v, ws, lo = norm[s], w.get(s, 1.0), floor[s]
        for p, x in v.items():
            scores[p] += ws * (x - lo)
    return sorted(scores.items(), key=lambda kv: (-kv[1], best[kv[0]], kv[0]))


AGREE_FROM = ("route", "bm25", "semantic")
AGREE_K = 10


def agreement(lists: Mapping[str, Sequence[tuple[str, float]]], k: int = AGREE_K) -> list[tuple[str, float]]:
    """Where the sources agree, as a list of its own: reciprocal ranks summed over the route,
    BM25 and the semantic source (k small, so two firsts count far above two tenths). A memory
    the route and the model both put first stays near the top however the scores compare."""
    ranked = rrf({s: [p for p, _ in lists[s]] for s in AGREE_FROM if lists.get(s)}, k)
    return ranked[:50]


def sure_first(ranked: list[str], lists: Mapping[str, Sequence[tuple[str, float]]], margin: float) -> list[str]:
    """BM25's first stays first when it is sure of itself: its second scores at most `margin` ×
    its first (a query that names one memory). 0 turns the rule off."""
    bm25 = lists.get("bm25") or []
    if margin <= 0 or not bm25 or bm25[0][1] <= 0 or not ranked:
        return ranked
    second = bm25[1][1] if len(bm25) > 1 else 0.0
    if second > margin * bm25[0][1] or not ranked or ranked[0] == bm25[0][0]:
        return ranked
    top = bm25[0][0]
    return [top, *(p for p in ranked if p != top)]


def covered_first(ranked: list[str], lists: Mapping[str, Sequence[tuple[str, float]]], cover: dict[str, float]) -> list[str]:
    """BM25's first stays first when it holds every word of the query (`cover`: the IDF-weighted
    share of the query's terms a memory holds) and the fused first holds fewer: a query that
    names what it wants in the memory's own words is answered by words, whatever meaning adds."""
    bm25 = lists.get("bm25") or []
    if not bm25 or not ranked or ranked[0] == bm25[0][0]:
        return ranked
    top = bm25[0][0]
    if cover.get(top, 0.0) >= 1.0 - 1e-9 and cover.get(ranked[0], 0.0) < cover[top] - 1e-9:
        return [top, *(p for p in ranked if p != top)]
    return ranked


def meaning_first(ranked: list[str], lists: Mapping[str, Sequence[tuple[str, float]]], margin: float,
                  unsure: float = 0.0) -> list[str]:
    """The semantic source's first goes first when meaning is sure of it: its cosine is at least
    `margin` above its second's (a query the model reads one way only). Left out one store at a
    time over 21 stores every fold chose 0.1; asking BM25 to be unsure too (its second at least
    0.8 of its first) was never chosen. 0 turns it off.

    `unsure`: except over a BM25 first whose second scores under `unsure` × it — a query whose
    words pick one memory by far (twice its second at 0.5). On five stores first measured in
    issue 32's last round meaning overruled two such firsts, and BM25's were the right ones
    ("does this project use ESLint or Prettier", BM25's second at 0.15 of its first); over all 26 golden stores the gate changes no other
    first place, and 26 of 27 folds chose 0.5 (golden README)."""
    sem = lists.get("semantic") or []
    if margin <= 0 or len(sem) < 2 or not ranked or ranked[0] == sem[0][0] or sem[0][1] - sem[1][1] < margin:
        return ranked
    bm25 = lists.get("bm25") or []
    second = bm25[1][1] if len(bm25) > 1 else 0.0
    if unsure > 0 and bm25 and bm25[0][1] > 0 and second < unsure * bm25[0][1]:
        return ranked  # the words pick their first by far: meaning's lead does not overrule it
    top = sem[0][0]
    return [top, *(p for p in ranked if p != top)]


def fuse(lists: Mapping[str, Sequence[tuple[str, float]]], weights: dict[str, float], sure_margin: float = 0.0,
         cover: dict[str, float] | None = None) -> list[tuple[str, float]]:
    """The fusion the engine runs and the golden tables score (one function, so the two never
    differ): `combine` over the lists with a weight above 0 — plus, with the semantic source and
    an `agree` weight, the `agreement` list — then who is first (`firsts`). Without the semantic
    source the lexical lists are combined as they are."""
    fused = blend(lists, weights)
    if "semantic" not in lists or not fused:  # an empty store fuses nothing
        return fused
    order = firsts([p for p, _ in fused], lists, weights, sure_margin, cover)
    if order[0] != fused[0][0]:
        score = dict(fused)
        fused = [(p, score[p]) for p in order]
    return fused


def blend(lists: Mapping[str, Sequence[tuple[str, float]]], weights: dict[str, float]) -> list[tuple[str, float]]:
    """The weighted sum of `fuse` (with the agreement list when the semantic source runs)."""
    if "semantic" in lists and weights.get("agree", 0) > 0:
        lists = {**lists, "agree": agreement(lists)}
    return combine({s: v for s, v in lists.items() if weights.get(s, 1.0) > 0}, weights)


def firsts(order: list[str], lists: Mapping[str, Sequence[tuple[str, float]]], weights: dict[str, float],
           sure_margin: float = 0.0, cover=None) -> list[str]:
    """Who is first, once the scores are summed: BM25's first when it is sure (`sure_first`);
    meaning's first when meaning is sure of it (`lead`: `meaning_first`, over BM25's sure first);
    with a `cover` weight, BM25's first when it holds every word of the query (`covered_first`)."""
    if sure_margin > 0:
        order = sure_first(order, lists, sure_margin)
    if weights.get("lead", 0) > 0:
        order = meaning_first(order, lists, weights["lead"], weights.get("unsure", 0.0))
    if cover is not None and weights.get("cover", 0) > 0:
        order = covered_first(order, lists, cover)
    return order


def shares(lists: Mapping[str, Sequence[tuple[str, float]]], paths: Sequence[str],
           weights: dict[str, float] | None = None, scales: dict[str, str] | None = None,
           ) -> dict[str, dict[str, float]]:
    """What each source adds to each memory's fused score above the common base (weight ×
    (normalised score − the list's floor); 0 where the list does not hold it): why `combine`
    put one memory above another."""
    norm, floor = _normalised(lists, scales)
    w = weights or {}
    return {p: {s: w.get(s, 1.0) * (norm[s].get(p, floor[s]) - floor[s]) for s in sorted(norm)} for p in paths}


def dedupe(items: list[tuple[str, float]], content_hash, limit: int | None = None,
           ) -> tuple[list[tuple[str, float]], dict[str, str]]:
    """Keep the first of items with equal content; returns (kept, dropped id → the id kept).
    With `limit`, stop once that many are kept (the rest of the list is not looked at)."""
    seen: dict[str, str] = {}
    kept: list[tuple[str, float]] = []
    dropped: dict[str, str] = {}
    for item, score in items:
        if limit is not None and len(kept) >= limit:
            break
        h = content_hash(item)
        if h and h in seen:
            dropped[item] = seen[h]
            continue
        if h:
            seen[h] = item
        kept.append((item, score))
    return kept, dropped


@dataclass(frozen=True, slots=True)
class SourcedHit:
    """One memory of a multi-source result, tagged with the source (store) it came from."""

    source: str
    path: str
    score: float
    copies: tuple[tuple[str, str], ...] = ()  # identical content elsewhere: (source, path)


def fuse_sources(ranked: Sequence[tuple[str, Sequence[tuple[str, str | None]]]], k: int = 60,
                 weights: dict[str, float] | None = None) -> list[SourcedHit]:
    """Fuse several sources' ranked lists — [(source name, [(path, sha256 of content), …])] given in
    precedence order — by RRF. Identical content (same SHA-256) counts once: its RRF terms add up
    and the copy from the source listed first is kept, the others named in `copies`. Ties go to
    the earlier source, then the better rank, then the path.
    """
    score: dict[tuple, float] = {}
    best: dict[tuple, tuple[int, int]] = {}  # key → (precedence, rank) of the kept copy
    kept: dict[tuple, tuple[str, str]] = {}
    copies: dict[tuple, list[tuple[str, str]]] = {}
    for precedence, (source, items) in enumerate(ranked):
        w = 1.0 if weights is None else weights.get(source, 1.0)
        seen_here: set[tuple] = set()
        for rank, (path, digest) in enumerate(items, 1):
            key = ("sha", digest) if digest else ("path", source, path)
            if key in seen_here:  # a source listing the same content twice counts it once
                copies[key].append((source, path))
                continue
            seen_here.add(key)
            score[key] = score.get(key, 0.0) + w / (k + rank)
            if key not in kept:
                kept[key], best[key], copies[key] = (source, path), (precedence, rank), []
            else:
                copies[key].append((source, path))
    order = sorted(score, key=lambda key: (-score[key], best[key], kept[key][1]))
    return [SourcedHit(kept[key][0], kept[key][1], score[key], tuple(copies[key])) for key in order]

