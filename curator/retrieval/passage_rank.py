"""Words over a memory's passages (passages.py), for BM25 and for the passages the model reads.

A memory of thousands of words matches a query's words here and there; BM25 over the whole
memory weighs that against its length, so a long memory whose one section answers the query
ranks under short ones that merely mention its words. BM25's first LIFT_DEPTH memories are
therefore ranked again by their score plus their best passage's, each as a share of the best
of the query (one passage that holds the query's words counts as much as the whole memory):
held out over the 21 golden stores this raised BM25's hit@1 and MRR (golden README).

Passage scores are BM25 with the memories' IDF (the words' weight in the store) and the length
of the passages scored, so nothing is indexed twice. Each memory's passages are kept with the
saved index (`persist`) as rows: (heading path, line, excerpt, key of the text, terms).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterator

from .part import EnginePart

LIFT_DEPTH = 20  # BM25's first memories whose passages are scored
ROWS_KEPT = 2000  # memories whose passage rows an engine keeps once read (a query reads up to ~60)
K1, B = 1.5, 0.75
OPEN, SHUT = "\x1e", "\x1f"  # record and unit separators around each term of a packed passage

Row = tuple  # (heading, line, excerpt, key, terms packed, how many): one passage of a memory


def rows_of(head: str, body: str, tokenizer) -> list[Row]:
    """A memory's passages as rows (the text itself is not kept: its key finds its vector)."""
    from .passages import split
    from .text import terms

    return [(p.heading, p.line, p.excerpt, text_key(p.text), *packed(terms(p.text), p.text))
            for p in split(head, body, tokenizer)]


def packed(terms: list[str], text: str = "") -> tuple:
    """(the terms as one string, how many): each term between OPEN and SHUT, so that a term's
    count is one `str.count` and reading a memory's rows back makes one string a passage, not one
    a term (4 µs a memory against 18 µs: BM25's first twenty are read for every new query). A
    text holding either mark keeps the list."""
    if OPEN in text or SHUT in text:
        return terms, len(terms)
    return (f"{OPEN}{(SHUT + OPEN).join(terms)}{SHUT}" if terms else ""), len(terms)


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:20]


def passage_scores(rows: list[Row], qterms: list[str], idf: dict[str, float], avg: float) -> list[float]:
    """BM25 of each passage for the query's terms (Lucene's form, as bm25.py; `idf` by term)."""
    # a term of weight 0 (in no memory) adds 0.0 wherever it is: not counted
    weighted = [(t, w, f"{OPEN}{t}{SHUT}") for t in qterms if (w := idf.get(t, 0.0))]
    wanted = {t for t, _, _ in weighted}
    out = []
    for row in rows:
        terms, n = row[4], row_length(row)
        if type(terms) is not str and wanted.isdisjoint(terms):  # most passages hold no query word
            out.append(0.0)
            continue
        s = 0.0
        for t, w, marked in weighted:  # a few query terms counted in C: no Counter of every passage
            f = terms.count(marked) if type(terms) is str else terms.count(t)
            if f:
                s += w * f / (f + K1 * (1 - B + B * n / avg))
        out.append(s)
    return out


def row_length(row: Row) -> int:
    """How many terms a passage has (rows of a list of terms carry no count)."""
    return row[5] if len(row) > 5 else len(row[4])


def lift(bm25_list: list[tuple[str, float]], rows_for, qterms: list[str], idf,
         depth: int = LIFT_DEPTH) -> tuple[list[tuple[str, float]], dict[str, int]]:
    """BM25's list with its first `depth` memories ranked by score ÷ best + best passage ÷ best
    passage of the query; the rest keep their score ÷ best (never above those). Also each lifted
    memory's best passage (its index in the memory's rows), where one holds a query word."""
    if not bm25_list or bm25_list[0][1] <= 0:
        return bm25_list, {}
    top = bm25_list[:depth]
    rows = rows_for([p for p, _ in top])
    lengths = [row_length(r) for p, _ in top for r in rows.get(p, ())]
    avg = sum(lengths) / len(lengths) if lengths else 1.0
    best: dict[str, tuple[float, int]] = {}
    for p, _ in top:
        scores = passage_scores(rows.get(p, []), qterms, idf, avg or 1.0)
        if scores:
            i = max(range(len(scores)), key=lambda k: (scores[k], -k))
            best[p] = (scores[i], i)
    first = bm25_list[0][1]
    most = max((s for s, _ in best.values()), default=0.0) or 1.0
    lifted = [(p, s / first + best.get(p, (0.0, 0))[0] / most) for p, s in top]
    lifted.sort(key=lambda x: -x[1])  # stable: BM25's order among equals
    rest = [(p, s / first) for p, s in bm25_list[depth:]]
    return lifted + rest, {p: i for p, (s, i) in best.items() if s > 0}


def chosen(rows: list[Row], qterms: list[str], idf, avg: float, m: int) -> list[int]:
    """The `m` passages of a memory the model reads for a query: those its words reach best,
    else (a query in other words) the first ones."""
    scores = passage_scores(rows, qterms, idf, avg or 1.0)
    return sorted(range(len(rows)), key=lambda k: (-scores[k], k))[:m]


def idf_of(bm25, qterms: list[str]) -> dict[str, float]:
    """The memories' IDF of each query term, from a BM25Index (any backend)."""
    n, out = bm25.n, {}
    for t in set(qterms):
        df = len(bm25.docs_with(t))
        out[t] = math.log(1 + (n - df + 0.5) / (df + 0.5)) if df else 0.0
    return out


class PassageRanker(EnginePart):
    """The engine's part that holds each memory's passage rows (made as the index is saved and
    written away with it, read back a few at a time, or made from the text for an engine that
    keeps no index) and lifts BM25's list with them."""

    READS = ("position", "docs", "heads", "bm25", "_saved")

    def rows_for(self, paths) -> dict[str, list[Row]]:
        idx = [self.position[p] for p in paths if p in self.position]
        cache = self.__dict__.setdefault("_rows_read", {})
        if len(cache) > ROWS_KEPT:  # a long session would keep every memory's (10 KB each at 10,000);
            cache = self.__dict__["_rows_read"] = {}  # a new dict: a search on another thread reads the old
        missing = [i for i in idx if i not in cache]
        if missing and self._saved is not None:
            cache.update(self._saved.passages_of(missing) or {})
        for i in idx:
            if i not in cache:  # no saved rows (an engine without a saved index): from the text
                from .wordpiece import shared

                cache[i] = rows_of(self.heads[i], self.docs[i].body(), shared())
        return {self.docs[i].path: cache[i] for i in idx}

    def make_rows(self, reuse: dict[str, list[Row]] | None, progress=None) -> Iterator[list[Row]]:
        """Every memory's rows in turn, unchanged memories' from `reuse` (path:hash → rows): made
        as the saved index writes them away, never all at once (~10 KB a memory: 100 MB at 10,000
        memories, 500 MB at 50,000, held at the top of an index build when they were a list).
        `progress(done, total)` hears how it goes (the most of building an index)."""
        from .wordpiece import shared

        tokenizer = shared()
        total = len(self.docs)
        step = max(1, total // 100)
        for done, (r, head) in enumerate(zip(self.docs, self.heads, strict=True), 1):
            got = reuse.get(f"{r.path}:{r.content_hash}") if reuse is not None else None
            yield got if got is not None else rows_of(head, r.body(), tokenizer)
            if progress is not None and (done % step == 0 or done == total):
                progress(done, total)

    def lift_bm25(self, qterms: list[str], docs_list: list[tuple[str, float]]):
        """(BM25's list with its first memories ranked with their best passage, path → best passage)."""
        return lift(docs_list, self.rows_for, qterms, idf_of(self.bm25, qterms))


class Cover:
    """The IDF-weighted share of a query's words each memory holds (fusion.covered_first), found
    in BM25's postings when asked and kept for the query."""

    def __init__(self, engine, words: list[str]) -> None:
        self.engine = engine
        self.weights = idf_of(engine.bm25, list(dict.fromkeys(words)))
        self.total = sum(self.weights.values())
        self.memo: dict[str, float] = {}

    def get(self, path: str, default: float = 0.0) -> float:
        got = self.memo.get(path)
        if got is None:
            i = self.engine.position.get(path)
            if i is None or self.total <= 0:
                return default
            held = sum(w for t, w in self.weights.items() if self.engine.bm25.contains(t, i))
            got = self.memo[path] = held / self.total
        return got

    def __getitem__(self, path: str) -> float:
        return self.get(path)
