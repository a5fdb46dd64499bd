"""Full-text BM25 over the memories an agent can load.

bm25s with Lucene's IDF, log(1 + (N - df + 0.5) / (df + 0.5)), which is never negative, so a
term found in most files of a small store still scores above zero (k1 1.5, b 0.75). bm25s
scores 10,000 documents in well under a millisecond; a small pure-Python scorer with the same
formula stands in if it cannot be imported. (bm25s' BM25+ adds δ·idf to *every* document,
matching or not, which would blur "matched" and "not matched", so it is not used.)
"""

from __future__ import annotations

import math
from collections import Counter


class BM25Index:
    def __init__(self, docs: list[list[str]], k1: float = 1.5, b: float = 0.75) -> None:
        self.n = len(docs)
        self.k1, self.b = k1, b
        self._bm = None
        self.vocab: set[str] = set()
        for d in docs:
            self.vocab.update(d)
        if not docs:
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
        self._tf = [Counter(d) for d in docs]
        self._len = [len(d) for d in docs]
        self._avg = sum(self._len) / max(1, self.n)
        df = Counter(t for tf in self._tf for t in tf)
        self._idf = {t: math.log(1 + (self.n - c + 0.5) / (c + 0.5)) for t, c in df.items()}

    def docs_with(self, term: str):
        """Document numbers containing a term (an int array with bm25s, else a list)."""
        if self._bm is not None:
            tid = self._bm.vocab_dict.get(term)
            if tid is None:
                return []
            sc = self._bm.scores
            return sc["indices"][sc["indptr"][tid] : sc["indptr"][tid + 1]]
        return [i for i, tf in enumerate(self._tf) if term in tf]

    def scores(self, terms: list[str]):
        """Score of every document (a list or array of length n; 0 where nothing matched)."""
        known = [t for t in terms if t in self.vocab]
        if not known or not self.n:
            return [0.0] * self.n
        if self._bm is not None:
            return self._bm.get_scores(known)
        out = [0.0] * self.n
        for t in known:
            idf = self._idf[t]
            for i, tf in enumerate(self._tf):
                f = tf.get(t)
                if f:
                    norm = f * (self.k1 + 1) / (f + self.k1 * (1 - self.b + self.b * self._len[i] / self._avg))
                    out[i] += idf * norm
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
