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
    from .persist import Saved as SavedRoute

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
                 row_keywords: list[tuple[str, ...]] | None = None, saved: SavedRoute | None = None) -> None:
        """`row_keywords`: each row's keyword set as saved with the retrieval index (same rows,
        same order), which spares lower-casing every keyword of a large store again; `saved`:
        the keyword counts and form tables saved beside them (used only with them, and checked)."""
        self.store = store
        self.fuzzy_cutoff = fuzzy_cutoff
        self.rows: list[tuple[str, IndexRow]] = [(p, r) for p, rows in store.all_indexes() for r in rows]
        if row_keywords is None or len(row_keywords) != len(self.rows):
            row_keywords = [tuple(row.keyword_set) for _, row in self.rows]
            saved = None
        self.row_keywords = row_keywords
        self.rows_of: dict[str, list[int]] = defaultdict(list)
        for i, (path, _row) in enumerate(self.rows):
            self.rows_of[path].append(i)
        self._saved = saved
        self._n = max(1, len(self.rows))
        self._df = saved.route_df if saved is not None and self._df_fits(saved.route_df) else None
        self._idf: dict[str, float] = {}
        self._positions: dict[str, int] | None = None
        self._tables: dict[str, dict[str, list[tuple[int, str, bool]]]] = {}
        self._fuzzy_cache: dict[tuple[str, str], list[str]] = {}
        self._forms: dict[str, list[str]] = {}

    def _df_fits(self, df) -> bool:
        """Saved keyword counts that add up to this index's rows (else they are counted again)."""
        return (isinstance(df, dict) and all(type(c) is int and c > 0 for c in df.values())
                and sum(df.values()) == sum(map(len, self.row_keywords)))

    def document_frequency(self) -> dict[str, int]:
        """keyword → how many rows carry it."""
        if self._df is None:
            self._df = dict(Counter(kw for kws in self.row_keywords for kw in kws))
        return self._df

    def weight(self, kw: str) -> float:
        """The keyword's idf over every index row (rarer weighs more)."""
        w = self._idf.get(kw)
        if w is None:
            c = self.document_frequency().get(kw)
            if c is None:  # saved counts that lack a keyword of these rows: all counted again
                self._df, self._idf = None, {}
                c = self.document_frequency()[kw]
            w = self._idf[kw] = math.log(1 + self._n / c)
        return w

    def all_tables(self) -> list[dict[str, list[tuple[int, str, bool]]]]:
        """Every index's form table, in `rows_of` order (saved with the retrieval index)."""
        return [self.table(index) for index in self.rows_of]

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
        if table is None and self._saved is not None:
            table = self._saved_table(index)
            if table is not None:
                self._tables[index] = table
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

    def _saved_table(self, index: str) -> dict[str, list[tuple[int, str, bool]]] | None:
        """The saved table of one index when it is well-formed and names only this index's rows
        and their keywords (anything else: built again)."""
        assert self._saved is not None
        position = self._position().get(index)
        table = self._saved.route_table(position) if position is not None else None
        if not isinstance(table, dict):
            return None
        rows = set(self.rows_of[index])
        for form, entries in table.items():
            if type(form) is not str or type(entries) is not list:
                return None
            for entry in entries:
                if (type(entry) is not tuple or len(entry) != 3 or entry[0] not in rows
                        or entry[1] not in self.row_keywords[entry[0]] or type(entry[2]) is not bool):
                    return None
        return table

    def _position(self) -> dict[str, int]:
        if self._positions is None:
            self._positions = {p: n for n, p in enumerate(self.rows_of)}
        return self._positions

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
                    w = self.weight(kw) * quality * (EXACT if exact else PART)
                    if w > best[i].get(kw, 0.0):
                        best[i][kw] = w
        return {i: (sum(kws.values()), sorted(kws, key=lambda k: -kws[k])) for i, kws in best.items()}


def loaded_index(store: Store, path: str) -> tuple[int, int | None]:
    """What of the always-loaded index is in context, and the first line the agent never sees:
    of a Claude Code MEMORY.md its first 200 lines or 25 KB, as the start-up load counts them (one
    number on both screens, and no route through a row past the cap), else the whole file. A kept
    state (fast.LiteStore) carries both."""
    kept = getattr(store, "kept_l0", None)
    if kept is not None:  # the fast path: it never imports the formats' rule tables
        return kept[0], kept[1]
    whole = store.records[path].tokens or 0
    from ..model import formats as fmts

    if store.format != fmts.CLAUDE:
        return whole, None

    def build() -> tuple[int, int | None]:
        from ..budgets.startup import claude_as_auto

        st = claude_as_auto(store)  # the store as its owner's agent loads it, committed or not
        files = dict(st.files)
        if path not in files:  # auto memory off and nothing imports it: the walk starts nowhere
            return 0, 1
        return files[path], min((c.line for c in st.past_cap if c.path == path), default=None)

    from ..model.store import INDEXES

    return store.view(f"route.loaded_index:{path}", build, reads={INDEXES})


def walk(store: Store, kindex: KeywordIndex, terms: list[str], k: int, loadable: set[str],
         fuzzy: set[str] | None = None) -> RouteResult:
    """The agent's walk for these query terms; memories ranked by how well their rows matched."""
    l0 = store.l0
    steps: list[Step] = []
    if l0 is None:
        return RouteResult([], steps)
    l0_path = l0.path
    l0_tokens, cut = loaded_index(store, l0_path)
    steps.append(Step(l0_path, l0_tokens, True, "always loaded at start-up"))
    l0_rows = kindex.match(terms, l0_path, fuzzy)
    l0_matches = sorted(
        (RowMatch(l0_path, kindex.rows[i][1], s, m) for i, (s, m) in l0_rows.items()
         if cut is None or kindex.rows[i][1].line < cut),  # a row past the cap is never read
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
