"""The prior as a ranked source (a part of the engine): every memory the query touches, or only
the candidates the other sources found (a boost inside search, far cheaper at 10k)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import prior as priors
from .part import EnginePart
from .results import DEPTH

if TYPE_CHECKING:  # numpy is imported when the numpy path first runs
    import numpy as np


class PriorRanker(EnginePart):
    READS = ("bm25", "config", "recency", "frequency", "docs", "position")
    # numpy copies of recency and frequency, made when the numpy path first runs (or by prepare)
    _rec_arr: np.ndarray | None = None
    _freq_arr: np.ndarray | None = None

    def prepare(self) -> None:
        if self.bm25.uses_numpy and self._rec_arr is None:
            import numpy as np

            self._rec_arr = np.asarray(self.recency, dtype=float)
            self._freq_arr = np.asarray(self.frequency, dtype=float)

    def prior_parts(self, qterms: list[str], i: int) -> priors.PriorParts:
        qset = set(qterms)
        # the index says which query words the memory holds (its terms are not loaded for this)
        rel = sum(1 for t in qset if self.bm25.contains(t, i)) / len(qset) if qset else 0.0
        c = self.config
        return priors.combine(rel, self.recency[i], self.frequency[i],
                              (c.relevance_weight, c.recency_weight, c.frequency_weight))

    def rank_prior(self, qterms: list[str], depth: int = DEPTH, candidates: list[str] | None = None,
                   ) -> list[tuple[str, float, priors.PriorParts]]:
        """Memories ranked by the plan's prior: every memory the query touches, or — as a boost
        inside search — only the candidates the other sources found (far cheaper at 10k)."""
        qset = list(dict.fromkeys(qterms))
        if not qset:
            return []
        c = self.config
        weights = (c.relevance_weight, c.recency_weight, c.frequency_weight)
        if candidates is not None:
            return self._rank_prior_among(qset, depth, weights, candidates)
        if not self.bm25.uses_numpy:
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

    def _rank_prior_among(self, qset: list[str], depth: int, weights, candidates: list[str],
                          ) -> list[tuple[str, float, priors.PriorParts]]:
        idx = [self.position[p] for p in dict.fromkeys(candidates) if p in self.position]
        postings = [d for d in (self.bm25.docs_with(t) for t in qset) if len(d)]
        # each candidate looked up in each term's sorted postings (a few hundred binary searches,
        # never a pass over a common term's thousands of documents)
        if self.bm25.uses_numpy and idx:
            import numpy as np

            want = np.asarray(idx, dtype=np.int64)
            hits = np.zeros(len(idx), dtype=np.int64)
            for d in postings:
                pos = np.minimum(np.searchsorted(d, want), len(d) - 1)
                hits += d[pos] == want
            overlap = dict(zip(idx, hits.tolist(), strict=True))
        elif self.bm25.backend == "mmap":
            from bisect import bisect_left

            def has(d, i: int) -> bool:
                j = bisect_left(d, i)
                return j < len(d) and d[j] == i

            overlap = {i: sum(has(d, i) for d in postings) for i in idx}
        else:  # python postings are in document order too, but short: a set is simpler
            sets = [set(d) for d in postings]
            overlap = {i: sum(i in d for d in sets) for i in idx}
        wr, wc, wf = weights
        rec, freq, nq = self.recency, self.frequency, len(qset)
        scored = sorted((-(wr * (n / nq) + wc * rec[i] + wf * freq[i]), -rec[i], -freq[i], self.docs[i].path, i, n)
                        for i, n in overlap.items() if n)
        out = []
        for _, _, _, path, i, n in scored[:depth]:  # parts only for what is returned
            parts = priors.combine(n / nq, rec[i], freq[i], weights)
            out.append((path, parts.score, parts))
        return out

    def _rank_prior_numpy(self, qset: list[str], depth: int, weights) -> list[tuple[str, float, priors.PriorParts]]:
        import numpy as np

        rec_arr, freq_arr = self._rec_arr, self._freq_arr
        if rec_arr is None or freq_arr is None:
            rec_arr = self._rec_arr = np.asarray(self.recency, dtype=float)
            freq_arr = self._freq_arr = np.asarray(self.frequency, dtype=float)
        # documents containing each term come from the BM25 index itself (no second posting list)
        hits = [np.asarray(d, dtype=np.int64) for d in (self.bm25.docs_with(t) for t in qset) if len(d)]
        if not hits:
            return []
        overlap = np.bincount(np.concatenate(hits), minlength=len(self.docs))
        touched = np.flatnonzero(overlap)  # only memories the query touches at all
        wr, wc, wf = weights
        rel = overlap[touched] / len(qset)
        score = wr * rel + wc * rec_arr[touched] + wf * freq_arr[touched]
        # ties: recency, then frequency, then path (lexsort's last key is the primary one)
        order = np.lexsort((np.arange(len(touched)), -freq_arr[touched], -rec_arr[touched], -score))[:depth]
        out = []
        for j in order.tolist():
            i = int(touched[j])
            parts = priors.PriorParts(float(rel[j]), self.recency[i], self.frequency[i], float(score[j]))
            out.append((self.docs[i].path, parts.score, parts))
        return out
