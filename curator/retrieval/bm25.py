"""Full-text BM25 over the memories an agent can load.

bm25s with Lucene's IDF, log(1 + (N - df + 0.5) / (df + 0.5)), which is never negative, so a
term found in most files of a small store still scores above zero (k1 1.5, b 0.75). bm25s
scores 10,000 documents in well under a millisecond; a small pure-Python scorer with the same
formula serves stores of up to 2,000 memories (faster there than importing numpy and bm25s) and
stands in if bm25s cannot be imported. (bm25s' BM25+ adds δ·idf to *every* document,
matching or not, which would blur "matched" and "not matched", so it is not used.)
"""

from __future__ import annotations

import math
from collections import Counter

PYTHON_UP_TO = 2000  # documents; below this, scoring in Python beats importing numpy and bm25s


class BM25Index:
    def __init__(self, docs: list[list[str]], k1: float = 1.5, b: float = 0.75, backend: str = "auto") -> None:
        self.n = len(docs)
        self.k1, self.b = k1, b
        self._bm = None
        self.vocab: set[str] = set()
        for d in docs:
            self.vocab.update(d)
        if not docs:  # a store with indexes but no memories: an empty index that answers nothing
            self._fallback(docs)
            return
        if backend == "python" or (backend == "auto" and self.n <= PYTHON_UP_TO):
            self._fallback(docs)
            return
        try:
            import bm25s

            bm = bm25s.BM25(k1=k1, b=b, method="lucene")
            bm.index([d if d else [""] for d in docs], show_progress=False)
            self._bm = bm
        except Exception:  # noqa: BLE001 - any failure falls back to the pure-Python scorer
            self._fallback(docs)

    @property
    def backend(self) -> str:
        return "bm25s" if self._bm is not None else "python"

    def _fallback(self, docs: list[list[str]]) -> None:
        self._len = [len(d) for d in docs]
        self._avg = sum(self._len) / max(1, self.n)
        self._postings: dict[str, list[tuple[int, int]]] = {}
        for i, d in enumerate(docs):
            for t, f in Counter(d).items():
                self._postings.setdefault(t, []).append((i, f))
        self._idf = {t: math.log(1 + (self.n - len(p) + 0.5) / (len(p) + 0.5)) for t, p in self._postings.items()}

    def docs_with(self, term: str):
        """Document numbers containing a term (an int array with bm25s, else a list)."""
        if self._bm is not None:
            tid = self._bm.vocab_dict.get(term)
            if tid is None:
                return []
            sc = self._bm.scores
            return sc["indices"][sc["indptr"][tid] : sc["indptr"][tid + 1]]
        return [i for i, _ in self._postings.get(term, ())]

    def contains(self, term: str, doc: int) -> bool:
        """Whether document `doc` holds `term` (a lookup in the term's postings, not a scan of the doc)."""
        if term not in self.vocab:
            return False
        if self._bm is not None:
            import numpy as np

            docs = self.docs_with(term)  # sorted document numbers (the index is column-compressed)
            j = int(np.searchsorted(docs, doc))
            return j < len(docs) and int(docs[j]) == doc
        return any(i == doc for i, _ in self._postings.get(term, ()))

    def scores(self, terms: list[str]):
        """Score of every document (a list or array of length n; 0 where nothing matched)."""
        known = [t for t in terms if t in self.vocab]
        if not known or not self.n:
            return [0.0] * self.n
        if self._bm is not None:
            return self._bm.get_scores(known)
        out = [0.0] * self.n
        k1, b, avg = self.k1, self.b, self._avg or 1.0
        for t in known:
            idf = self._idf[t]
            for i, f in self._postings[t]:
                out[i] += idf * f / (f + k1 * (1 - b + b * self._len[i] / avg))  # Lucene: no (k1 + 1)
        return out

    def top(self, terms: list[str], k: int) -> list[tuple[int, float]]:
        """(document number, score) of the best k documents with a positive score."""
        s = self.scores(terms)
        if self._bm is not None:
            import numpy as np

            arr = np.asarray(s)
            positive = np.flatnonzero(arr > 0)
            if not len(positive):
                return []
            if len(positive) > k:
                part = np.argpartition(-arr[positive], k - 1)[:k]
                positive = positive[part]
            order = sorted(positive.tolist(), key=lambda i: (-float(arr[i]), i))
            return [(i, float(arr[i])) for i in order[:k]]
        ranked = sorted((i for i in range(self.n) if s[i] > 0), key=lambda i: (-s[i], i))
        return [(i, s[i]) for i in ranked[:k]]
