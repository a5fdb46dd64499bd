"""Full-text BM25 over the memories an agent can load.

Lucene's IDF, log(1 + (N - df + 0.5) / (df + 0.5)), which is never negative, so a term found in
most files of a small store still scores above zero (k1 1.5, b 0.75). (BM25+ adds δ·idf to
*every* document, matching or not, which would blur "matched" and "not matched", so it is not
used.) Two backends with the same formula:

- `python`: postings in dicts, for stores of up to 2,000 memories (faster there than importing
  numpy);
- `numpy`: every (term, document) weight computed once into a column-compressed matrix
  (`data`, `indices`, `indptr`: the documents of term id t are `indices[indptr[t]:indptr[t+1]]`)
  — a query sums a few slices. The three arrays are what `persist` saves and memory-maps, so a
  warm process scores without rebuilding anything;
- `mmap`: the same saved arrays (saved for stores of any size) read as memory views with no
  numpy at all, summed in Python. A one-shot `curator retrieve` asks one query: importing numpy
  would cost more than the query, so a warm process starts here, and the engine's `prepare()`
  moves a long-lived engine over a large store to the numpy backend.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

PYTHON_UP_TO = 2000  # documents; below this, scoring in Python beats importing numpy


WEIGHT_STEP = 1 << 20  # (term, document) pairs weighed at a time in an index build


class BM25Index:
    # term → its id (numpy, mmap); the python backend's postings stand here, asked only `in`
    vocab: dict[str, Any]
    _csc: tuple[Any, Any, Any] | None  # (data, indices, indptr) of the numpy backend

    def __init__(self, docs: list[list[str]], k1: float = 1.5, b: float = 0.75, backend: str = "auto") -> None:
        self.n = len(docs)
        self.k1, self.b = k1, b
        self._csc = None
        if backend == "python" or (backend == "auto" and self.n <= PYTHON_UP_TO) or not docs:
            self._fallback(docs)
            return
        try:
            self._build_numpy(docs)
        except ImportError:  # no numpy: the pure-Python scorer serves any size
            self._fallback(docs)

    @classmethod
    def from_arrays(cls, n: int, vocab: dict[str, int], data, indices, indptr, k1: float = 1.5,
                    b: float = 0.75) -> BM25Index:
        """The numpy backend over saved (possibly memory-mapped) arrays: nothing is rebuilt."""
        self = cls.__new__(cls)
        self.n, self.k1, self.b = n, k1, b
        self.vocab = vocab
        self._csc = (data, indices, indptr)
        return self

    @classmethod
    def from_views(cls, n: int, vocab: dict[str, int], data, indices, indptr, k1: float = 1.5,
                   b: float = 0.75) -> BM25Index:
        """The `mmap` backend: the saved arrays as memoryviews (no numpy), scored in Python."""
        self = cls.__new__(cls)
        self.n, self.k1, self.b = n, k1, b
        self.vocab = vocab
        self._csc = None
        self._views = (data, indices, indptr)
        return self

    _views: tuple[Any, Any, Any] | None = None

    @property
    def backend(self) -> str:
        if self._csc is not None:
            return "numpy"
        return "mmap" if self._views is not None else "python"

    @property
    def uses_numpy(self) -> bool:
        return self._csc is not None

    def csc(self):
        """(vocab term → id, data, indices, indptr) of any backend, to save: numpy arrays, or
        `array.array`s made from the Python postings (no numpy needed)."""
        if self._csc is not None:
            return (self.vocab, *self._csc)
        if self._views is not None:
            return (self.vocab, *self._views)
        from array import array

        vocab: dict[str, int] = {}
        data, indices, indptr = array("f"), array("i"), array("q", [0])
        k1, b, avg = self.k1, self.b, self._avg or 1.0
        for t, postings in self._postings.items():  # each term's documents in document order
            vocab[t] = len(vocab)
            idf = self._idf[t]
            for i, f in postings:
                indices.append(i)
                data.append(idf * f / (f + k1 * (1 - b + b * self._len[i] / avg)))
            indptr.append(len(indices))
        return vocab, data, indices, indptr

    def _fallback(self, docs: list[list[str]]) -> None:
        self._len = [len(d) for d in docs]
        self._avg = sum(self._len) / max(1, self.n)
        self._postings: dict[str, list[tuple[int, int]]] = {}
        for i, d in enumerate(docs):
            for t, f in Counter(d).items():
                self._postings.setdefault(t, []).append((i, f))
        self.vocab = self._postings
        self._idf = {t: math.log(1 + (self.n - len(p) + 0.5) / (len(p) + 0.5)) for t, p in self._postings.items()}

    def _build_numpy(self, docs: list[list[str]]) -> None:
        """The column-compressed weights. Each (term, document) pair goes into C arrays as it is
        counted and the weights are made in place: Python lists of the pairs and a chain of
        temporaries held ~100 MB at 10,000 memories at the top of an index build."""
        from array import array

        import numpy as np

        vocab: dict[str, int] = {}
        tids, tfs, sizes = array("i"), array("i"), array("i")
        new_id = vocab.setdefault
        for d in docs:
            counts = Counter(d)
            tids.extend([new_id(t, len(vocab)) for t in counts])
            tfs.extend(counts.values())
            sizes.append(len(counts))
        tid_a = np.frombuffer(tids, dtype=np.int32) if len(tids) else np.zeros(0, dtype=np.int32)
        tf_a = np.frombuffer(tfs, dtype=np.int32) if len(tfs) else np.zeros(0, dtype=np.int32)
        doc_a = np.repeat(np.arange(self.n, dtype=np.int32), np.frombuffer(sizes, dtype=np.int32))
        lengths = np.asarray([len(d) for d in docs], dtype=np.float64)
        avg = float(lengths.mean()) or 1.0
        df = np.bincount(tid_a, minlength=len(vocab)).astype(np.float64)
        idf = np.log(1 + (self.n - df + 0.5) / (df + 0.5))
        # idf·tf / (tf + k1·(1 − b + b·len/avg)) (Lucene: no (k1 + 1)), in the same order of
        # operations, a million pairs at a time (the float64 steps of 10 M pairs were 80 MB each)
        weight = np.empty(len(tid_a), dtype=np.float32)
        for s in range(0, len(tid_a), WEIGHT_STEP):
            e = s + WEIGHT_STEP
            den = lengths[doc_a[s:e]]
            den *= self.b
            den /= avg
            den += 1 - self.b
            den *= self.k1
            den += tf_a[s:e]
            part = idf[tid_a[s:e]]
            part *= tf_a[s:e]
            part /= den
            weight[s:e] = part
        del tf_a, tfs
        # by term, then document: the pairs came document by document, so a stable sort by term
        order = np.argsort(tid_a, kind="stable")
        del tid_a, tids
        data = weight[order]
        del weight
        indices = doc_a[order]
        del doc_a, order
        indptr = np.zeros(len(vocab) + 1, dtype=np.int64)
        np.cumsum(df.astype(np.int64), out=indptr[1:])
        self.vocab = vocab
        self._csc = (data, indices, indptr)

    def docs_with(self, term: str):
        """Document numbers containing a term (a sorted int array with numpy, else a list)."""
        if self._csc is not None:
            tid = self.vocab.get(term)
            if tid is None:
                return []
            _, indices, indptr = self._csc
            return indices[indptr[tid] : indptr[tid + 1]]
        if self._views is not None:
            tid = self.vocab.get(term)
            if tid is None:
                return []
            _, indices, indptr = self._views
            return indices[indptr[tid] : indptr[tid + 1]]
        return [i for i, _ in self._postings.get(term, ())]

    def contains(self, term: str, doc: int) -> bool:
        """Whether document `doc` holds `term` (a lookup in the term's postings, not a scan of the doc)."""
        if term not in self.vocab:
            return False
        if self._csc is not None:
            import numpy as np

            docs = self.docs_with(term)  # sorted document numbers (the index is column-compressed)
            j = int(np.searchsorted(docs, doc))
            return j < len(docs) and int(docs[j]) == doc
        if self._views is not None:
            import bisect

            docs = self.docs_with(term)
            j = bisect.bisect_left(docs, doc)
            return j < len(docs) and docs[j] == doc
        return any(i == doc for i, _ in self._postings.get(term, ()))

    def scores(self, terms: list[str]):
        """Score of every document (a list or array of length n; 0 where nothing matched)."""
        known = [t for t in terms if t in self.vocab]
        if not known or not self.n:
            return [0.0] * self.n
        if self._csc is not None:
            import numpy as np

            data, indices, indptr = self._csc
            summed = np.zeros(self.n, dtype=np.float64)
            for t in known:  # a repeated query word counts again, as in the Python scorer
                tid = self.vocab[t]
                s, e = int(indptr[tid]), int(indptr[tid + 1])
                summed[indices[s:e]] += data[s:e]  # a term's documents are distinct: no np.add.at needed
            return summed
        if self._views is not None:
            data, indices, indptr = self._views
            out = [0.0] * self.n
            for t in known:
                tid = self.vocab[t]
                s, e = indptr[tid], indptr[tid + 1]
                for i, w in zip(indices[s:e], data[s:e], strict=True):
                    out[i] += w
            return out
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
        if self._csc is not None:
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
