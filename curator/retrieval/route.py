"""The ADR-017 walk: query words → L0 keywords → domain index rows → memories, with a trace.

Rarer keywords weigh more (idf over every index row); a match on a hyphenated keyword's part or
on a fuzzy near-form (rapidfuzz) counts less than an exact or same-stem match.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .text import keyword_forms, stem

if TYPE_CHECKING:  # annotations only: a warm `retrieve` answers without the model package (retrieval/fast.py)
    from ..model.indexes import IndexRow
    from ..model.store import Store

EXACT, PART, FUZZY = 1.0, 0.5, 0.6


@dataclass(slots=True)
class RowMatch:
    index: str
    row: IndexRow
    score: float
    matched: list[str]  # the row keywords that matched


@dataclass(slots=True)
class Step:
    path: str
    tokens: int
    cached: bool
    why: str


@dataclass(slots=True)
class RouteHit:
    path: str
    score: float
    matched: list[str]
    via: list[str]


@dataclass(slots=True)
class RouteResult:
    hits: list[RouteHit]
    steps: list[Step] = field(default_factory=list)
    l0_matches: list[RowMatch] = field(default_factory=list)


class KeywordIndex:
    """Index rows' keywords by the forms they answer to, with idf weights over every row.

    The per-index form tables are built on first use: a query reads L0 and the few domain
    indexes it routes to, so a store with hundreds of indexes builds only those.
    """

    def __init__(self, store: Store, fuzzy_cutoff: int = 88,
                 row_keywords: list[tuple[str, ...]] | None = None) -> None:
        """`row_keywords`: each row's keyword set as saved with the retrieval index (same rows,
        same order), which spares lower-casing every keyword of a large store again."""
        self.store = store
        self.fuzzy_cutoff = fuzzy_cutoff
        self.rows: list[tuple[str, IndexRow]] = [(p, r) for p, rows in store.all_indexes() for r in rows]
        if row_keywords is None or len(row_keywords) != len(self.rows):
            row_keywords = [tuple(row.keyword_set) for _, row in self.rows]
        self.row_keywords = row_keywords
        self.rows_of: dict[str, list[int]] = defaultdict(list)
        for i, (path, _row) in enumerate(self.rows):
            self.rows_of[path].append(i)
        df = Counter(kw for kws in row_keywords for kw in kws)
        n = max(1, len(self.rows))
        self.idf = {kw: math.log(1 + n / c) for kw, c in df.items()}
        self._tables: dict[str, dict[str, list[tuple[int, str, bool]]]] = {}
        self._fuzzy_cache: dict[tuple[str, str], list[str]] = {}
        self._forms: dict[str, list[str]] = {}

    def prepare(self) -> None:
        """Build every index's form table now (a long-lived engine: the lab, a benchmark)."""
        for index in self.rows_of:
            self.forms(index)

    def forms(self, index: str) -> list[str]:
        forms = self._forms.get(index)
        if forms is None:
            forms = self._forms[index] = list(self.table(index))
        return forms

    def table(self, index: str) -> dict[str, list[tuple[int, str, bool]]]:
        """form → [(row number, keyword, exact?)] for the rows of one index."""
        table = self._tables.get(index)
        if table is None:
            table = defaultdict(list)
            for i in self.rows_of.get(index, ()):
                for kw in self.row_keywords[i]:
                    k = kw.strip("`*_")
                    exact_forms = {k, stem(k)}
                    for form in keyword_forms(kw):
                        table[form].append((i, kw, form in exact_forms))
            self._tables[index] = table = dict(table)
        return table

    def near_forms(self, term: str, index: str) -> list[str]:
        if len(term) < 5:
            return []
        key = (index, term)
        hit = self._fuzzy_cache.get(key)
        if hit is None:
            from rapidfuzz import fuzz, process  # only when a term matched no form exactly

            # fuzzy matching looks only at the forms of the index being read (as the agent would)
            found = process.extract(term, self.forms(index), scorer=fuzz.ratio,
                                    score_cutoff=self.fuzzy_cutoff, limit=5)
            hit = self._fuzzy_cache[key] = [f for f, _, _ in found if f != term]
        return hit

    def match(self, terms: list[str], index: str, fuzzy: set[str] | None = None) -> dict[int, tuple[float, list[str]]]:
        """Row number → (score, matched keywords) for the rows of one index.

        `fuzzy`: the terms that may match near-forms (default all); the query's synthetic
        adjacent compounds match exactly or not at all.
        """
        best: dict[int, dict[str, float]] = defaultdict(dict)  # row → keyword → weight
        table = self.table(index)
        for term in terms:
            if term in table:
                candidates = [(term, 1.0)]
            elif fuzzy is None or term in fuzzy:
                candidates = [(f, FUZZY) for f in self.near_forms(term, index)]
            else:
                continue
            for form, quality in candidates:
                for i, kw, exact in table.get(form, ()):
                    w = self.idf[kw] * quality * (EXACT if exact else PART)
                    if w > best[i].get(kw, 0.0):
                        best[i][kw] = w
        return {i: (sum(kws.values()), sorted(kws, key=lambda k: -kws[k])) for i, kws in best.items()}


def walk(store: Store, kindex: KeywordIndex, terms: list[str], k: int, loadable: set[str],
         fuzzy: set[str] | None = None) -> RouteResult:
    """The agent's walk for these query terms; memories ranked by how well their rows matched."""
    l0 = store.l0
    steps: list[Step] = []
    if l0 is None:
        return RouteResult([], steps)
    l0_path = l0.path
    l0_tokens = store.records[l0_path].tokens or 0
    steps.append(Step(l0_path, l0_tokens, True, "always loaded at start-up"))
    l0_rows = kindex.match(terms, l0_path, fuzzy)
    l0_matches = sorted(
        (RowMatch(l0_path, kindex.rows[i][1], s, m) for i, (s, m) in l0_rows.items()),
        key=lambda r: (-r.score, r.row.line),
    )
    scores: dict[str, RouteHit] = {}

    def offer(path: str, score: float, matched: list[str], via: list[str]) -> None:
        rec = store.records.get(path)
        if rec is None or rec.level != 2 or not rec.readable or rec.tier not in loadable:
            return
        cur = scores.get(path)
        if cur is None or score > cur.score:
            scores[path] = RouteHit(path, score, matched, via)

    visited: dict[str, RowMatch] = {}
    for m in l0_matches:
        for link in m.row.links:
            target = link.target
            if target in store.domain_indexes:
                if target not in visited:
                    visited[target] = m
            elif target:
                offer(target, m.score, m.matched, [l0_path])
    for index, via_row in visited.items():
        rec = store.records.get(index)
        steps.append(Step(index, (rec.tokens or 0) if rec else 0, False,
                          f"{l0_path}:{via_row.row.line} matched {', '.join(via_row.matched[:6])}"))
        rows = kindex.match(terms, index, fuzzy)
        for i, (s, matched) in rows.items():
            row = kindex.rows[i][1]
            for link in row.links:
                # the L0 match breaks ties between equally good rows of different domains
                offer(link.target, s + 0.25 * via_row.score, matched, [l0_path, index])
    hits = sorted(scores.values(), key=lambda h: (-h.score, h.path))
    for h in hits[:k]:
        rec = store.records[h.path]
        steps.append(Step(h.path, rec.tokens or 0, False,
                          f"row in {h.via[-1]} matched {', '.join(h.matched[:6])}"))
    return RouteResult(hits, steps, l0_matches)
