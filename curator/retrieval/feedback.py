"""Pseudo-relevance feedback (RM3-style, a part of the engine): the words that weigh most in
BM25's first memories, scored by BM25 as a second query; fused with the semantic source only
(engine.PRF_DOCS has the why and the numbers)."""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Iterable

from .part import EnginePart
from .results import DEPTH

PRF_DOCS = 5
PRF_TERMS = 5


def heaviest(weight: dict[str, float], n: int) -> list[tuple[str, float]]:
    """The `n` heaviest (word, weight), heaviest first, equal weights by word: what sorting all of
    them would give, from the few at or above the n-th weight (a query's expansion weighs ~700)."""
    items: Iterable[tuple[str, float]] = weight.items()
    if 0 < n < len(weight):
        cut = heapq.nlargest(n, weight.values())[-1]
        items = [(t, w) for t, w in items if w >= cut]
    return sorted(items, key=lambda kv: (-kv[1], kv[0]))[:n]


class Feedback(EnginePart):
    READS = ("position", "docs", "bm25", "doc_terms", "_doc_terms", "_saved")

    def prf_terms(self, qterms: list[str], bm25_list: list[tuple[str, float]], docs: int = PRF_DOCS,
                  n_terms: int = PRF_TERMS) -> list[tuple[str, float]]:
        """(word, weight) of the expansion: the words that weigh most in BM25's first `docs`
        memories, each memory's term shares weighted by its score ÷ the best; query words excluded."""
        top = [(self.position[p], s) for p, s in bm25_list[:docs] if p in self.position]
        if not top or top[0][1] <= 0:
            return []
        asked, best = set(qterms), top[0][1]
        weight: dict[str, float] = {}
        some = None
        if self._doc_terms is None and self._saved is not None:  # five memories, not every one
            some = self._saved.terms_of([i for i, _ in top])
        get = weight.get
        for i, score in top:
            doc = some[i] if some is not None else self.doc_terms[i]
            size = len(doc)
            for t, n in Counter(doc).items():
                if t not in asked:
                    weight[t] = get(t, 0.0) + n / size * score / best
        return heaviest(weight, n_terms)

    def rank_prf(self, qterms: list[str], bm25_list: list[tuple[str, float]], depth: int = DEPTH,
                 docs: int = PRF_DOCS, n_terms: int = PRF_TERMS) -> list[tuple[str, float]]:
        """BM25 of the expansion words (`prf_terms`), each weighted by its share of the expansion."""
        import numpy as np

        expansion = self.prf_terms(qterms, bm25_list, docs, n_terms)
        total = sum(w for _, w in expansion)
        if not expansion or total <= 0:
            return []
        scores = np.zeros(len(self.docs))
        for t, w in expansion:
            scores += (w / total) * np.asarray(self.bm25.scores([t]), dtype=float)
        positive = np.flatnonzero(scores > 0)
        if len(positive) > depth:
            positive = positive[np.argpartition(-scores[positive], depth - 1)[:depth]]
        order = sorted(positive.tolist(), key=lambda i: (-float(scores[i]), i))
        return [(self.docs[i].path, float(scores[i])) for i in order]
