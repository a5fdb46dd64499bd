"""Why a memory did not come back (the engine's explainer): the store's verdict, then each source
walked as it ran — the route hop by hop, BM25's counts and rank, the semantic rank, the fused rank."""

from __future__ import annotations

from .meaning import CANDIDATES
from .part import EnginePart
from .results import DEPTH, HEAD_WEIGHT, SearchResult
from .text import terms


class Explainer(EnginePart):
    READS = ("store", "search", "loadable", "_fuse", "sources", "semantic", "keywords", "position", "doc_terms",
             "bm25", "docs")

    def why(self, path: str, query: str, result: SearchResult | None = None) -> str:
        """Why a memory did not come back for this query (or where it did): see `explain`."""
        return "; ".join(text for _, text in self.explain(path, query, result))

    def explain(self, path: str, query: str, result: SearchResult | None = None) -> list[tuple[str, str]]:
        """(hop, evidence) pairs: the store's verdict, then each source walked as it ran.

        The route is walked hop by hop as the agent would (L0 row → domain index → its row) and
        names the first hop that failed, with the words, the row and the rank; the text sources
        say how often the query words occur and where the memory ranked, even below the depth.
        """
        store = self.store
        result = result or self.search(query)
        rec = store.records.get(path)
        if rec is None:
            return [("store", "not in the store")]
        if not rec.readable:
            return [("store", f"curator could not read it ({rec.error})")]
        if rec.level < 2:
            return [("store", "an index, not a memory: indexes are read on the way, never returned")]
        if rec.tier not in self.loadable:
            return [("tier", f"tier not loaded by the agent ({rec.tier}; loadable: {', '.join(sorted(self.loadable))})")]
        for hit in result.hits:
            if hit.path == path:
                return [("fused", f"it was retrieved at rank {hit.rank}")]
        fused, dropped = self._fuse(result.per_source, self.sources)  # the whole list (search stops at k)
        dropped = {**dropped, **result.duplicates}
        if path in dropped:
            kept = dropped[path]
            if self.store.records[path].content_hash == self.store.records[kept].content_hash:
                return [("fused", f"same content as {kept}, which was kept (de-duplicated by SHA-256)")]
            return [("fused", f"a near-copy of {kept} (the same prose; headings and link lists aside), which was kept")]
        out = [("route", self._explain_route(path, result))]
        out.append(("bm25", self._explain_bm25(path, result)))
        if self.semantic is not None:
            sem = result.per_source.get("semantic", [])
            at = next((i for i, (p, _) in enumerate(sem, 1) if p == path), None)
            match = (getattr(result.per_source, "passages", None) or {}).get(path)
            # the same words and numbers as a hit's "meaning:" line (reports.retrieval_report.hit_reasons)
            out.append(("semantic", f"meaning: semantic #{at}, {meaning_text(sem[at - 1][1], match)}" if at
                        else "meaning: not read by the model (neither BM25's nor the static vectors' first "
                        f"{CANDIDATES} memories)"))
        extra = [s for s in ("prf", "graph") if result.per_source.get(s)]  # BM25's feedback list, the graph's
        named = [*self.sources, *extra]
        ranks = {s: [p for p, _ in result.per_source[s]] for s in named}
        fused_rank = next((i for i, (p, _) in enumerate(fused, 1) if p == path), None)
        if fused_rank is not None:
            where = ", ".join(f"{SAID.get(s, s)} #{ranks[s].index(path) + 1}" for s in named if path in ranks[s])
            out.append(("fused", f"below top-k (fused rank {fused_rank} with k={result.k}; {where})"))
        else:
            out.append(("fused", f"no source ranked it within its top {DEPTH}"))
        return out

    def _explain_route(self, path: str, result: SearchResult) -> str:
        store, kindex = self.store, self.keywords
        routes = store.routes_to.get(path, [])
        if not routes:
            return "not in any index"
        route_ranks = [h.path for h in result.route.hits]
        if path in route_ranks:
            hit = result.route.hits[route_ranks.index(path)]
            return f"route #{route_ranks.index(path) + 1} (row matched {', '.join(hit.matched[:6])})"
        l0 = store.l0
        if l0 is None:
            return "no start-up index (memory-index.md, MEMORY.md): the route starts nowhere"
        words = typed_words(result)
        l0_matched = {id(m.row): m for m in result.route.l0_matches}
        opened = {st.path for st in result.route.steps}
        failures = []
        from .route import loaded_index

        loaded, cut = loaded_index(store, l0.path)
        if cut == 1 and not loaded:
            return f"{l0.path} does not load (nothing imports it, and auto memory is off): the route starts nowhere"
        for r in routes:
            if r.index == l0.path and cut is not None and r.row.line >= cut:
                failures.append(f"its row {l0.path}:{r.row.line} is past the agent's load cap (line {cut} on): "
                                "the agent never reads it")
                continue
            if r.index == l0.path:  # a memory linked straight from L0
                failures.append(f"its L0 row ({l0.path}:{r.row.line}, keywords: {_kw(r.row)}) "
                                f"matched none of the query words ({words})")
                continue
            l0_rows = [row for row in l0.rows if any(link.target == r.index for link in row.links)]
            if not l0_rows:
                failures.append(f"its index {r.index} is not routed from {l0.path}, so the agent never opens it")
                continue
            if r.index not in opened:
                row = l0_rows[0]
                failures.append(f"L0 hop failed: {l0.path}:{row.line} (keywords: {_kw(row)}) matched none of "
                                f"the query words ({words}), so {r.index} was never opened")
                continue
            via = next((m for m in l0_matched.values() if any(lk.target == r.index for lk in m.row.links)), None)
            matched = kindex.match(result.terms, r.index, set(terms(result.query)))
            row_no = next((i for i in kindex.rows_of.get(r.index, ()) if kindex.rows[i][1] is r.row), None)
            if row_no is None or row_no not in matched:
                opened_by = f" (opened via {l0.path}:{via.row.line}, matched {', '.join(via.matched[:4])})" if via else ""
                failures.append(f"{r.index} was opened{opened_by}, but its row {r.index}:{r.row.line} "
                                f"(keywords: {_kw(r.row)}) matched none of the query words ({words})")
                continue
            failures.append(f"its row {r.index}:{r.row.line} matched {', '.join(matched[row_no][1][:4])} but the "
                            f"route ranked it below its top {len(result.route.hits)}")
        return failures[0] if len(failures) == 1 else " | ".join(dict.fromkeys(failures))

    def _explain_bm25(self, path: str, result: SearchResult) -> str:
        i = self.position.get(path)
        if i is None:
            return "not searchable"
        doc = self.doc_terms[i]
        counts = {t: doc.count(t) for t in dict.fromkeys(result.terms) if t in doc}
        if not counts:
            return f"no query word appears in its text ({typed_words(result)})"
        # the rank in the list the fusion read (BM25's first memories lifted by their best passage:
        # passage_rank.py), as every other line says it; below that list, by the whole-memory score
        listed = [p for p, _ in result.per_source.get("bm25", [])]
        if path in listed:
            rank = listed.index(path) + 1
        else:
            scores = self.bm25.scores(result.terms)
            mine = float(scores[i])
            rank = max(len(listed), sum(1 for j in range(len(scores)) if float(scores[j]) > mine)) + 1
        found = ", ".join(f"{t}×{n}" for t, n in sorted(counts.items(), key=lambda kv: -kv[1])[:6])
        depth = f" (below the depth of {DEPTH} each source passes to fusion)" if rank > DEPTH else ""
        return f"bm25 #{rank} of {len(self.docs)}{depth}; its text has {found} (head words count {HEAD_WEIGHT}×)"


def cosine_text(x: float) -> str:
    """A cosine as people read it: two places, never "-0.00"."""
    text = f"{x:.2f}"
    return "0.00" if text == "-0.00" else text


def meaning_text(score: float, match=None) -> str:
    """The semantic source's score of a memory, and which passage the model matched best
    (meaning.Match): "cosine 0.64 (head 0.58, passage 0.70: Setup › Docker, line 12 “Run the…”)"."""
    if match is None:
        return f"cosine {cosine_text(score)}"
    if not match.read:
        return f"cosine {cosine_text(score)} (its head alone: far under the best head, its passages not read)"
    where = " › ".join(match.heading.split(" › ")[-2:]) or "its opening"  # the section, and the one it is in
    excerpt = match.excerpt if len(match.excerpt) <= 64 else match.excerpt[:64].rsplit(" ", 1)[0] + " …"
    excerpt = f" “{excerpt}”" if excerpt else ""
    return (f"cosine {cosine_text(score)} (head {cosine_text(match.head)}, passage {cosine_text(match.passage)}: "
            f"{where}, line {match.line}{excerpt})")


SAID = {"prf": "bm25 with feedback words"}  # what an internal list is called where people read it


def typed_words(result: SearchResult) -> str:
    """The query's words once each, without the pairs the engine adds (`session-handoff`): the
    faces write each term as typed, and a pair would read as its two words again."""
    return " ".join(dict.fromkeys(terms(result.query))) or " ".join(result.terms)


def _kw(row) -> str:
    kws = sorted(row.keyword_set)
    return " ".join(kws[:10]) + (" …" if len(kws) > 10 else "")
