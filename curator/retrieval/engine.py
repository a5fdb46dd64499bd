"""RetrievalEngine: built once per store, then each query ranks with every source and fuses.

The engine holds the index (BM25 saved per store, the route's keywords, near-copies, the priors)
and composes its parts, each a class of its own: the passage ranker (`passage_rank`), the prior
ranker (`prior_rank`), pseudo-relevance feedback (`feedback`) and the explainer (`explain`).
Explanations travel with the results (each hit's rank in every source, the words, the score
parts); `why(path, query)` says why a memory did not come back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..base.cache import ContentCache
from ..base.config import RetrievalConfig
from . import prior as priors
from .bm25 import PYTHON_UP_TO, BM25Index
from .copies import copy_key, groups
from .explain import Explainer
from .feedback import PRF_DOCS, PRF_TERMS, Feedback
from .fusion import dedupe, fuse, rrf
from .hits import make_hits
from .hooks import frontmatter_text, index_keywords, memory_hooks
from .passage_rank import Cover, PassageRanker
from .prior_rank import PriorRanker
from .results import DEPTH, HEAD_WEIGHT, Hit, Lists, SearchResult, SourceRank
from .route import KeywordIndex, RouteResult, walk
from .text import query_terms, terms

SOURCES = ("route", "bm25", "prior")  # the lexical sources, always available
EXTRA_SOURCES = ("semantic",)  # optional: the semantic extra
TERMS_VERSION = 9  # bump when text.terms(), the fields or the passages change (8: text.ABBREVIATIONS; 9: without authz)
# Fusion (fusion.fuse): a convex combination of each source's normalised scores (`fusion: rrf` in
# .curator.yaml restores weighted reciprocal rank fusion), plus where route, BM25 and meaning agree;
# then BM25's sure first kept first, and meaning's first put first where the model is sure of it
# (unless BM25's first is twice its second). Weights fitted leaving one store out over the 26
# golden stores' queries (golden.loso): BM25 1, semantic 5 (raw cosines above its list's lowest:
# fusion.SCALES), BM25's expansion (PRF below) 0.5, agreement 1, route 0.05, sure margin 0.8,
# meaning's lead 0.1, unsure 0.5. The defaults live in
# RetrievalConfig.source_weights and sure_margin; `source_weights` in .curator.yaml overrides them.
FUSION_WEIGHTS = RetrievalConfig().source_weights
# Pseudo-relevance feedback (RM3-style, feedback.py), run with the semantic source only: the
# PRF_TERMS words that weigh most in BM25's first PRF_DOCS memories make a second BM25 list, fused
# at weight `prf`. Held out it raised hit@5 and MRR@10; in the lexical fusion alone it lowered
# hit@1, so there it does not run (golden README).
__all__ = ["DEPTH", "HEAD_WEIGHT", "PRF_DOCS", "PRF_TERMS", "Hit", "RetrievalEngine", "SearchResult", "SourceRank"]

if TYPE_CHECKING:  # annotations only: a warm `retrieve` answers without the model package (retrieval/fast.py)
    from ..model.store import Store
    from .meaning import Meaning


def document_head(store: Store, rec, hooks: dict[str, str]) -> str:
    """The fields people wrote to say what a memory is about: weighed above its body."""
    name = rec.stem.replace("-", " ").replace("_", " ")
    return " ".join(x for x in (name, rec.title or "", frontmatter_text(rec), index_keywords(store, rec.path),
                                hooks.get(rec.path, "")) if x)


class RetrievalEngine:
    def __init__(self, store: Store, config: RetrievalConfig | None = None, terms_cache: ContentCache | None = None,
                 reads: Mapping[str, int] | None = None, semantic: bool | None = False, persist: bool | None = None,
                 progress=None, indexing=None) -> None:
        """`semantic`: True runs the semantic source, None runs it unless the config or
        CURATOR_NO_SEMANTIC turns it off (what the faces do), False never. `progress(done,
        total)` is told how the first embedding of new memories goes, `indexing(done, total)`
        how the memories are read into a new index (neither is told anything when all is saved). `persist`: keep the BM25 index in the user cache dir, one folder per store
        (`retrieval.persist`), so the next process with the same store builds nothing. Default:
        on, unless a `terms_cache` is given; the faces pass False when token counts are only
        estimated in memory (`base.tokens.estimating`)."""
        self.store = store
        self.passages, self.prior = PassageRanker(self), PriorRanker(self)  # the parts (see the module's words)
        self.feedback, self.explainer = Feedback(self), Explainer(self)
        self.config = config or store.config.retrieval
        self.loadable = set(self.config.loadable_tiers)
        self.docs = [
            r for r in store.records.values()
            if r.level == 2 and r.readable and r.kind in ("memory", "experience", "experience-summary")
            and r.tier in self.loadable
        ]
        self.position = {r.path: i for i, r in enumerate(self.docs)}
        persist = terms_cache is None if persist is None else persist
        self._indexing = indexing
        self._heads: list[str] | None = None
        self._semantic_keys: list[str] | None = None
        self._doc_terms: list[list[str]] | None = None
        self.index_state = "built"  # built | reused | updated: what this engine did with the saved index
        self.copy_of: dict[str, str] = {}  # near-copies (copies.py): path → prose digest, groups of 2+ only
        self.keywords: KeywordIndex
        self.bm25 = self._open_index(terms_cache, persist)  # and self.keywords
        clusters: dict[str, int] = {}
        keys = []
        for r in self.docs:
            key = store.domain_of(r.path) or (r.folder or ".")
            keys.append(key)
            clusters[key] = clusters.get(key, 0) + 1
        # `reads` (memory → reads in the agent's transcripts) replaces cluster size when given
        self.frequency, self.frequency_source = priors.frequency_for(
            [r.path for r in self.docs], [clusters[k] for k in keys], reads)
        self.recency = [priors.recency(priors.record_day(r), store.today, self.config.half_life_days)
                        for r in self.docs]
        self._graph: dict[str, list[str]] | None = None  # graph.edges, made on first use
        self.unavailable: dict[str, str] = {}  # optional source → why it is not running
        self.semantic: Meaning | None = None
        self._last_bm25: tuple | None = None  # (words, BM25's list): `rank_bm25`
        if semantic is None:  # turned off by choice is not "unavailable": nothing to warn about
            from ..base.config import meaning_off

            semantic = not meaning_off(self.config)
        if semantic:
            self.start_semantic(progress)

    # -- the BM25 index: saved per store, reused when nothing it depends on changed -----------

    @property
    def heads(self) -> list[str]:
        """Each memory's head (name, title, description, index keywords, MEMORY.md hook)."""
        if self._heads is None:
            hooks = memory_hooks(self.store)
            self._heads = [document_head(self.store, r, hooks) for r in self.docs]
        return self._heads

    @property
    def doc_terms(self) -> list[list[str]]:
        """Each memory's terms (the head counted HEAD_WEIGHT times, then the body)."""
        if self._doc_terms is None:
            saved = self._saved.terms() if self._saved is not None else None
            self._doc_terms = saved if saved is not None else self._make_terms(None, None)
        return self._doc_terms

    def _make_terms(self, reuse: dict[str, list[str]] | None, cache: ContentCache | None) -> list[list[str]]:
        out = []
        for r, head in zip(self.docs, self.heads, strict=True):
            key = f"{r.path}:{r.content_hash}"
            if reuse is not None and key in reuse:
                out.append(reuse[key])
            elif cache is not None:
                out.append(cache.get(f"{key}:{head}", lambda r=r, head=head: terms(head) * HEAD_WEIGHT + terms(r.body())))
            else:
                out.append(terms(head) * HEAD_WEIGHT + terms(r.body()))
        return out

    def _copy_keys(self, reuse: dict[str, str] | None) -> list[str]:
        """Each memory's prose digest (copies.copy_key); unchanged memories' come from `reuse`."""
        out = []
        for r in self.docs:
            key = f"{r.path}:{r.content_hash}"
            out.append(reuse[key] if reuse is not None and key in reuse else copy_key(r.body()))
        return out

    def copies(self, path: str) -> list[str]:
        """The other memories with the same prose as `path` (near-copies; identical ones included)."""
        key = self.copy_of.get(path)
        return [p for p, k in self.copy_of.items() if k == key and p != path] if key else []

    def _same(self, path: str) -> str | None:
        """What de-duplication compares: the prose digest of a near-copy, else the content hash."""
        return self.copy_of.get(path) or self.store.records[path].content_hash

    def _open_index(self, terms_cache: ContentCache | None, persist: bool) -> BM25Index:
        from . import persist as saved_index

        self._saved = None
        cutoff = self.config.fuzzy_cutoff
        if not persist:
            self.keywords = KeywordIndex(self.store, cutoff)
            self.copy_of = groups(self.position, self._copy_keys(None))
            self._doc_terms = self._make_terms(None, terms_cache)
            if terms_cache is not None:
                terms_cache.flush()
            return BM25Index(self._doc_terms)
        keys = [(r.path, r.content_hash or "") for r in self.docs]
        extra = f"{TERMS_VERSION}:{HEAD_WEIGHT}:{sorted(self.loadable)}"
        context = saved_index.context_signature(self.store, self.docs, extra)
        saved = saved_index.load(self.store.root)
        same = saved if saved is not None and saved.context == context else None  # built with the same heads
        self.keywords = (KeywordIndex(self.store, cutoff, same.route_keywords, same) if same is not None
                         else KeywordIndex(self.store, cutoff))
        if same is not None and same.keys == keys:
            views = same.views()
            if views is not None and same.groups is not None and same.vocab is not None:  # scored in Python until prepare()
                self._saved, self.index_state = same, "reused"
                self.copy_of = same.groups
                return BM25Index.from_views(len(keys), same.vocab, *views)
        reuse = reuse_copies = old_rows = None
        if same is not None:  # the same heads: memories whose bytes did not change keep their terms
            old = same.terms()
            if old is not None:
                reuse = {f"{p}:{h}": t for (p, h), t in zip(same.keys, old, strict=True)}
                self.index_state = "updated"
                if (rows_kept := same.passages()) is not None:
                    old_rows = {f"{p}:{h}": r for (p, h), r in zip(same.keys, rows_kept, strict=True)}
        if saved is not None and (old_copies := saved.copies()) is not None:  # a digest depends on the bytes alone
            reuse_copies = {f"{p}:{h}": c for (p, h), c in zip(saved.keys, old_copies, strict=True)}
        self._doc_terms = self._make_terms(reuse, None)
        rows = self.passages.make_rows(old_rows, self._indexing)  # made as they are saved
        copies = self._copy_keys(reuse_copies)
        self.copy_of = groups(self.position, copies)
        bm25 = BM25Index(self._doc_terms)
        saved_index.save(self.store.root, context, keys, self._doc_terms, bm25, self.keywords.row_keywords, copies,
                         rows, self.keywords.document_frequency(), self.keywords.all_tables())
        mine = saved_index.load(self.store.root)  # another process may have saved since: only ours is used
        self._saved = mine if mine is not None and mine.context == context and mine.keys == keys else None
        return bm25

    def prepare(self, lean: bool = False) -> RetrievalEngine:
        """Do now what the first queries would do lazily (`lean`: semantic.Encoder.prepare)."""
        self.keywords.prepare()
        if self.bm25.backend == "mmap" and self._saved is not None and self.bm25.n > PYTHON_UP_TO:
            arrays = self._saved.arrays()
            if arrays is not None:
                self.bm25 = BM25Index.from_arrays(self.bm25.n, self.bm25.vocab, *arrays)
        if self.semantic is not None:  # the session, and the static vectors in memory (no page faults)
            self.semantic.encoder.prepare(lean)
            self.semantic._static = self.semantic.table.np.ascontiguousarray(self.semantic.static_matrix())
        self.prior.prepare()  # its numpy copies of the priors
        return self

    def semantic_keys(self) -> list[str]:
        """What each memory's vector depends on: its bytes and its head (index rows, hooks)."""
        saved = getattr(self.store, "semantic_keys", None)  # a kept fast-path state has them
        if saved is None and self._semantic_keys is None:  # made once: every query asks (20 ms at 10,000)
            self._semantic_keys = [f"{r.content_hash}:{hash_text(head)}" for r, head in zip(self.docs, self.heads, strict=True)]
        return saved if saved is not None else self._semantic_keys or []

    def semantic_texts(self, idx: list[int]) -> list[str]:
        """What the model reads of a memory as a whole: its head, then its body (128 pieces)."""
        return [f"{self.heads[i]}\n{self.docs[i].body()}" for i in idx]

    def start_semantic(self, progress=None) -> None:
        """The semantic source on this engine, its words' index kept (the lab's words engine gains it)."""
        from .meaning import Meaning
        from .semantic import load_encoder
        from .static import load_table

        encoder, why = load_encoder()
        table, why_static = load_table() if encoder is not None else (None, "")
        if encoder is None or table is None:
            self.unavailable["semantic"] = why or why_static
            return
        self.semantic = Meaning(self, encoder, table, progress)

    @property
    def graph_edges(self) -> dict[str, list[str]]:
        """Each memory's neighbours (links, mem: refs, shared index rows): graph.py."""
        if self._graph is None:
            saved = getattr(self.store, "graph_edges", None)  # a kept fast-path state has them
            if saved is not None:
                self._graph = saved
            else:
                from .graph import edges

                self._graph = edges(self.store, self.docs)
        return self._graph

    @property
    def extra_sources(self) -> tuple[str, ...]:
        return ("semantic",) if self.semantic is not None else ()

    @property
    def lexical_sources(self) -> tuple[str, ...]:
        return SOURCES

    @property
    def sources(self) -> tuple[str, ...]:
        return (*SOURCES, *self.extra_sources)

    def weights(self) -> dict[str, float]:
        return {**FUSION_WEIGHTS, **self.config.source_weights}

    def fuse(self, per_source: dict[str, list[tuple[str, float]]], sources: tuple[str, ...] | None = None,
             ) -> list[tuple[str, float]]:
        """The given sources' lists (default: every running source) fused, de-duplicated."""
        return self._fuse(per_source, sources or self.sources)[0]

    def fusion_lists(self, per_source: dict[str, list[tuple[str, float]]], sources: tuple[str, ...] | None = None,
                     ) -> dict[str, list[tuple[str, float]]]:
        """The lists the fusion sums: the given sources', and with the semantic one BM25's feedback list."""
        lists = {s: per_source[s] for s in sources or self.sources if s in per_source}
        if "semantic" in lists:  # the expansion and the graph join the semantic fusion
            for extra in ("prf", "graph"):
                if per_source.get(extra) and self.weights().get(extra, 0) > 0:
                    lists[extra] = per_source[extra]
        return lists

    def _fuse(self, per_source: dict[str, list[tuple[str, float]]], sources: tuple[str, ...],
              limit: int | None = None) -> tuple[list[tuple[str, float]], dict[str, str]]:
        lists = self.fusion_lists(per_source, sources)
        if self.config.fusion == "rrf":
            fused = rrf({s: [p for p, _ in items] for s, items in lists.items()}, self.config.rrf_k, self.weights())
        else:  # BM25's first survives it when it is sure, or holds every word of the query
            fused = fuse(lists, self.weights(), self.config.sure_margin, getattr(per_source, "cover", None))
        return dedupe(fused, self._same, limit)

    # -- sources -------------------------------------------------------------

    def rank_route(self, qterms: list[str], k: int, fuzzy: set[str] | None = None) -> RouteResult:
        return walk(self.store, self.keywords, qterms, k, self.loadable, fuzzy)

    def rank_bm25(self, qterms: list[str], depth: int = DEPTH) -> list[tuple[str, float]]:
        """BM25 over the memories, its first ones ranked again with their best passage (passage_rank)."""
        key = (tuple(qterms), depth)
        last = self._last_bm25  # the lab asks `unread`, then `search`, of the same words (one tuple: thread-safe)
        if last is None or last[0] != key:
            last = self._last_bm25 = (key, self.passages.lift_bm25(qterms, [(self.docs[i].path, s) for i, s in self.bm25.top(qterms, depth)])[0])
        return list(last[1])

    def rank_semantic(self, query: str, qterms: list[str] | None = None,
                      bm25_list: list[tuple[str, float]] | None = None) -> list[tuple[str, float]]:
        """The semantic source's list (meaning.py): BM25's and the static vectors' candidates,
        read by the model; `self.semantic.matches` says which passage matched."""
        if self.semantic is None:
            return []
        qterms = query_terms(query) if qterms is None else qterms
        return self.semantic.rank(query, qterms, self.rank_bm25(qterms) if bm25_list is None else bm25_list)

    def unread(self, query: str) -> int:
        """Texts the model must read before `search(query)` ranks by meaning (0: milliseconds)."""
        if self.semantic is None:
            return 0
        self.semantic.begin(query)  # the model reads the query while the words are scored (as `search`)
        qterms = query_terms(query)
        return self.semantic.unread(query, qterms, self.rank_bm25(qterms))

    def also_load(self, query: str) -> list:
        """The skills and agent-requested rules of the store's repository an agent would pick
        for `query` by their descriptions (`requested.Pick`s; kept while their files are unchanged)."""
        from ..base.paths import described_repository
        from .requested import Described, would_also_load

        if getattr(self, "_described", None) is None:
            self._described = Described(described_repository(self.store.root))
        items = self._described.current()
        encoder = self.semantic.encoder if self.semantic is not None else None
        return would_also_load(self._described.root, query, items, encoder) if items else []

    # -- search -----------------------------------------------------------------

    def search(self, query: str, k: int | None = None, source: str = "fused", words_only: bool = False) -> SearchResult:
        k = k or self.config.k
        meaning = None if words_only else self.semantic  # words only: as the engine without meaning
        if meaning is not None:
            meaning.begin(query)  # the model reads the query while the words are scored
        qterms = query_terms(query)
        base_terms = terms(query)  # without the synthetic adjacent compounds
        route = self.rank_route(qterms, k, set(base_terms))
        linked_from: dict[str, list[str]] = {}
        per_source = Lists(route=[(h.path, h.score) for h in route.hits[:DEPTH]], bm25=self.rank_bm25(qterms))
        # BM25's feedback (fused with the semantic source only: PRF_DOCS) while the model reads the query
        prf = self.feedback.rank_prf(qterms, per_source["bm25"]) if meaning is not None else []
        if meaning is not None:
            per_source["semantic"] = self.rank_semantic(query, qterms, per_source["bm25"])
            per_source.passages = dict(meaning.matches)
            per_source.cover = Cover(self, base_terms)
        # the prior re-ranks what the other sources found (a boost, not a list of its own)
        candidates = [p for lst in per_source.values() for p, _ in lst]
        prior_list = self.prior.rank_prior(base_terms, candidates=candidates)
        per_source["prior"] = [(p, s) for p, s, _ in prior_list]
        if meaning is not None:
            per_source["prf"] = prf  # listed after the prior, as it always was
            if self.weights().get("graph", 0) > 0 and self.graph_edges:
                from .graph import spread

                per_source["graph"], linked_from = spread(self.graph_edges, [per_source["bm25"], per_source["semantic"]])
        ranked, duplicates = list(per_source.get(source, [])), dict[str, str]()
        if source in ("fused", "fused-lexical"):  # de-duplicated as far as the k shown (`explain`: all)
            ranked, duplicates = self._fuse(per_source, self.sources if source == "fused" and meaning is not None else SOURCES, k)
        hits = make_hits(self, ranked, per_source, k, qterms, base_terms, route, prior_list)
        return SearchResult(query, k, source, qterms, hits, route, per_source, duplicates, linked_from)

    # -- the parts' answers, asked of the engine -------------------------------------------------

    def why(self, path: str, query: str, result: SearchResult | None = None) -> str:
        return self.explainer.why(path, query, result)

    def explain(self, path: str, query: str, result: SearchResult | None = None) -> list[tuple[str, str]]:
        return self.explainer.explain(path, query, result)

    def rows_for(self, paths):
        return self.passages.rows_for(paths)

    def prior_parts(self, qterms: list[str], i: int):
        return self.prior.prior_parts(qterms, i)

    def rank_prior(self, qterms: list[str], depth: int = DEPTH, candidates: list[str] | None = None):
        return self.prior.rank_prior(qterms, depth, candidates)

    def prf_terms(self, qterms: list[str], bm25_list: list[tuple[str, float]], docs: int = PRF_DOCS,
                  n_terms: int = PRF_TERMS) -> list[tuple[str, float]]:
        return self.feedback.prf_terms(qterms, bm25_list, docs, n_terms)

    def rank_prf(self, qterms: list[str], bm25_list: list[tuple[str, float]], depth: int = DEPTH,
                 docs: int = PRF_DOCS, n_terms: int = PRF_TERMS) -> list[tuple[str, float]]:
        return self.feedback.rank_prf(qterms, bm25_list, depth, docs, n_terms)


def hash_text(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
