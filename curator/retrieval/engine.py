"""RetrievalEngine: built once per store, then each query ranks with every source and fuses.

Explanations travel with the results: each hit's rank in every source, the words that matched,
the score parts; `why(path, query)` says why a memory did not come back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..cache import ContentCache, user_cache
from ..config import RetrievalConfig
from ..model.store import Store
from . import prior as priors
from .bm25 import BM25Index
from .fusion import dedupe, rrf
from .route import KeywordIndex, RouteResult, Step, walk
from .text import query_terms, terms

SOURCES = ("route", "bm25", "prior")
DEPTH = 50  # how deep each source ranks before fusion
TERMS_VERSION = 1  # bump when text.terms() changes


@dataclass(slots=True)
class SourceRank:
    rank: int | None = None
    score: float | None = None
    matched: list[str] = field(default_factory=list)
    via: list[str] = field(default_factory=list)
    parts: priors.PriorParts | None = None


@dataclass(slots=True)
class Hit:
    rank: int
    path: str
    tier: str
    tokens: int
    score: float
    sources: dict[str, SourceRank]
    title: str | None = None


@dataclass(slots=True)
class SearchResult:
    query: str
    k: int
    source: str
    terms: list[str]
    hits: list[Hit]
    route: RouteResult
    per_source: dict[str, list[tuple[str, float]]]
    duplicates: dict[str, str] = field(default_factory=dict)

    @property
    def route_steps(self) -> list[Step]:
        return self.route.steps

    @property
    def tokens_loaded(self) -> int:
        return sum(s.tokens for s in self.route.steps)


class RetrievalEngine:
    def __init__(self, store: Store, config: RetrievalConfig | None = None, terms_cache: ContentCache | None = None,
                 reads: Mapping[str, int] | None = None) -> None:
        self.store = store
        self.config = config or store.config.retrieval
        self.loadable = set(self.config.loadable_tiers)
        self.docs = [
            r for r in store.records.values()
            if r.level == 2 and r.readable and r.kind in ("memory", "experience", "experience-summary")
            and r.tier in self.loadable
        ]
        self.position = {r.path: i for i, r in enumerate(self.docs)}
        cache = terms_cache if terms_cache is not None else user_cache("terms.pickle", TERMS_VERSION)
        doc_terms = [
            cache.get(f"{r.path}:{r.content_hash}", lambda r=r: terms(f"{r.stem.replace('-', ' ')} {r.title or ''} {r.body()}"))
            for r in self.docs
        ]
        cache.flush()
        self._doc_terms = doc_terms
        self.bm25 = BM25Index(doc_terms)
        self.keywords = KeywordIndex(store, self.config.fuzzy_cutoff)
        clusters: dict[str, int] = {}
        keys = []
        for r in self.docs:
            key = store.domain_of(r.path) or (r.folder or ".")
            keys.append(key)
            clusters[key] = clusters.get(key, 0) + 1
        # `reads` (memory → reads in the agent's transcripts) replaces cluster size when given
        self.frequency, self.frequency_source = priors.frequency_for(
            [r.path for r in self.docs], [clusters[k] for k in keys], reads)
        self.recency = [
            priors.recency(priors.record_day(r), store.today, self.config.half_life_days) for r in self.docs
        ]
        self._rec_arr = self._freq_arr = None  # numpy copies, made when the numpy path first runs

    # -- sources -------------------------------------------------------------

    def rank_route(self, qterms: list[str], k: int) -> RouteResult:
        return walk(self.store, self.keywords, qterms, k, self.loadable)

    def rank_bm25(self, qterms: list[str], depth: int = DEPTH) -> list[tuple[str, float]]:
        return [(self.docs[i].path, s) for i, s in self.bm25.top(qterms, depth)]

    def prior_parts(self, qterms: list[str], i: int) -> priors.PriorParts:
        qset = set(qterms)
        rel = len(qset & set(self._doc_terms[i])) / len(qset) if qset else 0.0
        c = self.config
        return priors.combine(rel, self.recency[i], self.frequency[i],
                              (c.relevance_weight, c.recency_weight, c.frequency_weight))

    def rank_prior(self, qterms: list[str], depth: int = DEPTH) -> list[tuple[str, float, priors.PriorParts]]:
        qset = list(dict.fromkeys(qterms))
        if not qset:
            return []
        c = self.config
        weights = (c.relevance_weight, c.recency_weight, c.frequency_weight)
        if self.bm25.backend == "python":
            overlap: dict[int, int] = {}
            for t in qset:
                for i in self.bm25.docs_with(t):
                    overlap[i] = overlap.get(i, 0) + 1
            scored = []
            for i, n in overlap.items():  # only memories the query touches at all
                parts = priors.combine(n / len(qset), self.recency[i], self.frequency[i], weights)
                scored.append((-parts.score, -parts.recency, -parts.frequency, i, parts))
            scored.sort(key=lambda x: x[:4])
            return [(self.docs[i].path, parts.score, parts) for *_, i, parts in scored[:depth]]
        return self._rank_prior_numpy(qset, depth, weights)

    def _rank_prior_numpy(self, qset: list[str], depth: int, weights) -> list[tuple[str, float, priors.PriorParts]]:
        import numpy as np

        if self._rec_arr is None:
            self._rec_arr = np.asarray(self.recency, dtype=float)
            self._freq_arr = np.asarray(self.frequency, dtype=float)
        # documents containing each term come from the BM25 index itself (no second posting list)
        hits = [np.asarray(d, dtype=np.int64) for d in (self.bm25.docs_with(t) for t in qset) if len(d)]
        if not hits:
            return []
        overlap = np.bincount(np.concatenate(hits), minlength=len(self.docs))
        touched = np.flatnonzero(overlap)  # only memories the query touches at all
        wr, wc, wf = weights
        rel = overlap[touched] / len(qset)
        score = wr * rel + wc * self._rec_arr[touched] + wf * self._freq_arr[touched]
        # ties: recency, then frequency, then path (lexsort's last key is the primary one)
        order = np.lexsort((np.arange(len(touched)), -self._freq_arr[touched], -self._rec_arr[touched], -score))[:depth]
        out = []
        for j in order.tolist():
            i = int(touched[j])
            parts = priors.PriorParts(float(rel[j]), self.recency[i], self.frequency[i], float(score[j]))
            out.append((self.docs[i].path, parts.score, parts))
        return out

    # -- search -----------------------------------------------------------------

    def search(self, query: str, k: int | None = None, source: str = "fused") -> SearchResult:
        k = k or self.config.k
        qterms = query_terms(query)
        route = self.rank_route(qterms, k)
        per_source: dict[str, list[tuple[str, float]]] = {
            "route": [(h.path, h.score) for h in route.hits[:DEPTH]],
            "bm25": self.rank_bm25(qterms),
        }
        base_terms = terms(query)  # the prior's overlap ignores the synthetic adjacent compounds
        prior_list = self.rank_prior(base_terms)
        per_source["prior"] = [(p, s) for p, s, _ in prior_list]
        prior_parts = {p: parts for p, _, parts in prior_list}
        route_by_path = {h.path: h for h in route.hits}
        duplicates: dict[str, str] = {}
        if source == "fused":
            weights = self.config.source_weights
            fused = rrf({s: [p for p, _ in per_source[s]] for s in SOURCES}, self.config.rrf_k, weights)
            ranked, duplicates = dedupe(fused, lambda p: self.store.records[p].content_hash)
        else:
            ranked = list(per_source[source])
        hits = []
        ranks = {s: {p: i for i, (p, _) in enumerate(per_source[s], 1)} for s in SOURCES}
        scores = {s: dict(per_source[s]) for s in SOURCES}
        for rank, (path, score) in enumerate(ranked[:k], 1):
            rec = self.store.records[path]
            srcs = {}
            for s in SOURCES:
                sr = SourceRank(ranks[s].get(path), scores[s].get(path))
                if s == "route" and path in route_by_path:
                    sr.matched = route_by_path[path].matched
                    sr.via = route_by_path[path].via
                if s == "prior":
                    sr.parts = prior_parts.get(path) or (
                        self.prior_parts(base_terms, self.position[path]) if path in self.position else None
                    )
                if s == "bm25" and path in self.position:
                    sr.matched = sorted(set(qterms) & set(self._doc_terms[self.position[path]]))
                srcs[s] = sr
            hits.append(Hit(rank, path, rec.tier, rec.tokens or 0, float(score), srcs, rec.title))
        return SearchResult(query, k, source, qterms, hits, route, per_source, duplicates)

    # -- why not? -------------------------------------------------------------------

    def why(self, path: str, query: str, result: SearchResult | None = None) -> str:
        """Why a memory did not come back for this query (or where it did)."""
        store = self.store
        result = result or self.search(query)
        rec = store.records.get(path)
        if rec is None:
            return "not in the store"
        if not rec.readable:
            return f"curator could not read it ({rec.error})"
        if rec.level < 2:
            return "an index, not a memory: indexes are read on the way, never returned"
        if rec.tier not in self.loadable:
            return f"tier not loaded by the agent ({rec.tier}; loadable: {', '.join(sorted(self.loadable))})"
        for hit in result.hits:
            if hit.path == path:
                return f"it was retrieved at rank {hit.rank}"
        if path in result.duplicates:
            return f"same content as {result.duplicates[path]}, which was kept (de-duplicated by SHA-256)"
        ranks = {s: [p for p, _ in result.per_source[s]] for s in SOURCES}
        placed = {s: ranks[s].index(path) + 1 for s in SOURCES if path in ranks[s]}
        routes = store.routes_to.get(path, [])
        reachable = [r for r in routes if r.index == (store.l0.path if store.l0 else None)
                     or any(link.target == r.index for _, link in (store.l0.links() if store.l0 else []))]
        parts = []
        if not routes:
            parts.append("not in any index")
        elif not reachable:
            parts.append(f"its index {routes[0].index} is not routed from memory-index.md")
        elif "route" not in placed:
            kws = sorted({k for r in routes for k in r.row.keyword_set})
            parts.append(f"no keyword matched (its row has: {' '.join(kws[:12])}; the query has: {' '.join(result.terms)})")
        if "bm25" not in placed:
            parts.append("no query word appears in its text")
        if placed:
            fused = rrf(ranks, self.config.rrf_k, self.config.source_weights)
            fused_rank = next((i for i, (p, _) in enumerate(fused, 1) if p == path), None)
            where = ", ".join(f"{s} #{n}" for s, n in placed.items())
            parts.append(f"below top-k (fused rank {fused_rank} with k={result.k}; {where})")
        return "; ".join(parts) or "no source ranked it"
