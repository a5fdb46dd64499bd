"""Static word-piece vectors distilled from the bundled all-MiniLM-L6-v2 (`bench/distill_static.py`,
Model2Vec's recipe): a text's vector is a weighted sum of table rows, no model run — a memory in
microseconds where the model takes 20 ms a passage. What they serve:

- `duplicate.topic` (checks/topical_checks.py): every memory of the store compared by meaning in a
  cold `curator check` at the cost of words;
- the semantic source's first stage (retrieval/meaning.py): the memories worth the model's time.

Each text is a bag of word pieces (the model's own tokenizer, cached per word); its vector weighs
each piece by (1 + log tf) × the store's IDF of it (`idf`), so words every memory holds weigh
little, and is centred on the store's mean where pairs are compared (a static vector of any text
leans the same way). The table ships with curator (int8 rows and a scale each, 7.9 MB), its
sha256 pinned here and checked once per file version, like the model's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import Path

DATA = Path(__file__).parent / "data"
FILES = ("minilm-static-256.npy", "minilm-static-256-scale.npy")
SHA256 = {
    FILES[0]: "0ef72ebfb7aefde00d8abe7e2bbe299594bdfe902d99e091716306890750b975",
    FILES[1]: "804f4eefc6d8d5203055df7ee41a7e69e95adaf7d5ad1de081689303c143ceb3",
}
DIM = 256

_TABLE = None


class StaticUnavailable(Exception):
    """numpy or the table is missing or not the pinned one (a reason, never a traceback)."""


class StaticTable:
    """The distilled table and the tokenizer that indexes it."""

    def __init__(self, data: Path = DATA) -> None:
        try:
            import numpy as np
        except ImportError as exc:
            raise StaticUnavailable(f"numpy is not installed ({exc.name})") from None
        from .semantic import EncoderUnavailable, _verified
        from .wordpiece import shared

        self.np = np
        try:
            for name in FILES:
                _verified(data / name, SHA256[name])
            self.rows = np.load(data / FILES[0], mmap_mode="r")  # pages read as rows are used
            self.scale = np.load(data / FILES[1])
        except (OSError, ValueError, EncoderUnavailable) as exc:
            raise StaticUnavailable(f"the static vectors cannot be read: {exc}") from None
        self.tokenizer = shared()
        self.vocab = len(self.scale)

    def bag(self, text: str, limit: int | None = None) -> tuple[list[int], list[float]]:
        """(piece ids, counts) of a text; with `limit`, of its first `limit` pieces only."""
        pieces = self.tokenizer.pieces
        counts: dict[int, float] = {}
        if limit is None:
            for chunk, n in Counter(text.split()).items():
                for i in pieces(chunk):
                    counts[i] = counts.get(i, 0.0) + n
        else:
            left = limit
            for chunk in _words(text):
                for i in pieces(chunk)[:left]:
                    counts[i] = counts.get(i, 0.0) + 1
                    left -= 1
                if left <= 0:
                    break
        return list(counts), list(counts.values())

    def idf(self, bags) -> object:
        """The IDF of every piece over these bags (Lucene's, never negative): one array."""
        np = self.np
        df = np.zeros(self.vocab, dtype=np.float32)
        for ids, _ in bags:
            df[ids] += 1
        n = len(bags)
        return np.log1p((n - df + 0.5) / (df + 0.5)).astype(np.float32)

    def embed(self, bags, idf, centre=None):
        """Unit vectors (len(bags) × DIM, float32) of the bags, weighted (1 + log tf) × idf, less
        `centre` when given."""
        np = self.np
        out = np.zeros((len(bags), DIM), dtype=np.float32)
        for k, (ids, counts) in enumerate(bags):
            if not len(ids):
                continue
            idx = np.asarray(ids, dtype=np.int64)
            w = (1.0 + np.log(np.asarray(counts, dtype=np.float32))) * idf[idx] * self.scale[idx]
            out[k] = w @ self.rows[idx]
        return unit(np, out, centre, in_place=True)


def _words(text: str, step: int = 256):
    """`text.split()` a few words at a time: a bag of the first pieces never splits a whole
    long memory into a list of all its words."""
    while True:
        parts = text.split(None, step)
        if len(parts) <= step:
            yield from parts
            return
        yield from parts[:step]
        text = parts[step]


def unit(np, matrix, centre=None, in_place: bool = False):
    """Rows scaled to length 1 (after `centre` is taken off each); a zero row stays zero.
    `in_place`: the caller's float32 matrix is scaled where it is (a 10k store's matrix is 10 MB)."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    if in_place and matrix.dtype == np.float32:
        matrix /= np.maximum(norms, 1e-12)
    else:
        matrix = matrix / np.maximum(norms, 1e-12)
    if centre is not None:
        matrix -= centre
        matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
    return matrix.astype(np.float32, copy=False)


def load_table() -> tuple[StaticTable | None, str]:
    """(table, "") or (None, why not). One load per process."""
    global _TABLE
    if _TABLE is None:
        try:
            _TABLE = StaticTable()
        except StaticUnavailable as exc:
            return None, str(exc)
    return _TABLE, ""


OPENING = 126  # pieces of a memory's name and body that say what it is about (the model's window)


class TopicSpace:
    """Memories' openings as static vectors in one store's space (its IDF and centre), so that an
    edited memory is placed among the others without recomputing them (a re-check)."""

    def __init__(self, table: StaticTable, texts: Iterable[str]) -> None:
        """`texts`: read one at a time (a generator keeps one opening alive, not 10,000)."""
        self.table = table
        bags = [_packed(table.np, table.bag(t, OPENING)) for t in texts]
        self.idf = table.idf(bags)
        raw = table.embed(bags, self.idf)
        del bags
        self.centre = raw.mean(0) if len(raw) else None
        self.matrix = unit(table.np, raw, self.centre, in_place=True)

    def vector(self, text: str):
        return unit(self.table.np, self.table.embed([self.table.bag(text, OPENING)], self.idf), self.centre)[0]

    def vector_of(self, record):
        return self.vector(opening(record))


def _packed(np, bag: tuple[list[int], list[float]]):
    """A bag as two small arrays (a list of Python ints and floats is 4× their size)."""
    ids, counts = bag
    return np.asarray(ids, dtype=np.int64), np.asarray(counts, dtype=np.float32)


def opening(record) -> str:
    """What duplicate.topic compares: the memory's name, then its body."""
    return f"{record.stem.replace('_', ' ').replace('-', ' ')}\n{record.body()}"


def topic_space(store, records) -> TopicSpace | None:
    """duplicate.topic's vectors of `records` (None when meaning is off or the table is missing)."""
    from ..base.config import meaning_off

    if meaning_off(getattr(store.config, "retrieval", None)):
        return None
    table, _why = load_table()
    if table is None:
        return None
    return TopicSpace(table, (opening(r) for r in records))
