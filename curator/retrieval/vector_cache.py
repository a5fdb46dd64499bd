"""The vectors a store keeps per model: `EmbeddingCache` (one keys file and one matrix file in the
user cache folder, written atomically) over `SavedVectors` (rows taken when asked for)."""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .vector_files import checked, mapped, stamp

CACHE_VERSION = 4  # 4: the vectors checksummed in the keys file
DIM = 384


class SavedVectors(MutableMapping):
    """content key → vector over a saved matrix: a row is taken when asked for, never all of them
    up front (a warm query reads a few rows; building every row's view cost ~28 ms at 10k)."""

    def __init__(self, keys: list[str], matrix) -> None:
        self._rows: dict = dict(zip(keys, range(len(keys)), strict=True))  # a duplicate key: its last row
        self._matrix = matrix

    def __getitem__(self, key: str):
        row = self._rows[key]
        return self._matrix[row] if type(row) is int else row  # an int is a saved row; else a vector put

    def __setitem__(self, key: str, vector) -> None:
        self._rows[key] = vector

    def __delitem__(self, key: str) -> None:
        del self._rows[key]

    def __contains__(self, key) -> bool:
        return key in self._rows

    def __iter__(self):
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def stacked(self, keys: list[str]):
        """These keys' vectors as one matrix: the saved rows taken from the whole file read once
        (row by row, a full passage cache at 10,000 memories took 0.8 s instead of 0.5 s)."""
        import numpy as np

        whole = self._matrix.whole() if hasattr(self._matrix, "whole") else self._matrix
        rows = [self._rows[k] for k in keys]
        out = np.asarray(whole)[np.asarray([r if type(r) is int else 0 for r in rows], dtype=np.int64)]
        for j, r in enumerate(rows):
            if type(r) is not int:  # a vector put since the file was read
                out[j] = r
        return out


@dataclass
class EmbeddingCache:
    """content key → vector, one file pair per (store, model) in the user cache dir."""

    path: Path | None
    vectors: MutableMapping[str, Any]  # content key → its vector (a float32 row)
    dirty: bool = False
    _loaded: tuple = field(default=(), repr=False)  # (keys, matrix) as read, for a warm store's fast path

    @classmethod
    def open(cls, store_root: Path, model_digest: str, dim: int = DIM, rows: bool = False) -> EmbeddingCache:
        """The store's vectors: `<key>.keys` (one content key a line) and `<key>.npy` (the
        matrix, memory-mapped: a warm query reads it in place, never copies it). `rows`: the
        vectors are read a few rows at a time, never as one matrix (`vector_files.mapped`)."""
        from ..base.locations import cache_dir

        key = hashlib.sha256(str(Path(store_root).resolve()).encode()).hexdigest()[:16]
        path = cache_dir() / "embeddings" / f"{key}-{model_digest}-v{CACHE_VERSION}"
        try:
            import numpy as np

            head, *keys = path.with_suffix(".keys").read_text(encoding="utf-8").split("\n")
            name, crc = head.rsplit(" ", 1)
            if "/" in name or "\\" in name or not name.startswith(path.name):
                raise ValueError("not a vectors file of this cache")
            matrix, offset = mapped(path.parent / name, rows)
            if matrix.shape != (len(keys), dim) or matrix.dtype != np.float32:
                raise ValueError("keys and vectors disagree")
            if not checked(path.parent / name, int(crc), offset):  # one damaged byte: embedded again
                raise ValueError("damaged vectors")
            return cls(path, SavedVectors(keys, matrix), _loaded=(keys, matrix))
        except Exception:  # noqa: BLE001 - missing or damaged (of any kind): embedded again
            return cls(path, {})

    def put(self, keys: list[str], vectors) -> None:
        for k, v in zip(keys, vectors, strict=True):
            self.vectors[k] = v
        self.dirty = self.dirty or bool(keys)

    def flush_all(self) -> None:
        """Save every vector held (a cache filled a few at a time, as queries need them)."""
        if self.dirty and self.vectors:
            self.flush(list(self.vectors), self.stacked(list(self.vectors)))

    def stacked(self, keys: list[str]):
        """These keys' vectors as one matrix (the saved ones read in one go: `SavedVectors.stacked`)."""
        import numpy as np

        if isinstance(self.vectors, SavedVectors):
            return self.vectors.stacked(keys)
        return np.stack([self.vectors[k] for k in keys])

    def matrix_for(self, keys: list[str]):
        """The saved matrix itself when it holds exactly these keys in this order (no copy)."""
        return self._loaded[1] if self._loaded and self._loaded[0] == keys else None

    def flush(self, keys: list[str], matrix) -> None:
        if self.path is None or not self.dirty:
            return
        import numpy as np

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # the vectors under a new name, then the keys naming them (one atomic rename): a
            # reader always finds the vectors its keys name; the old vectors are removed after
            import zlib

            name = f"{self.path.name}-{os.getpid()}-{time.time_ns()}.npy"
            vectors = np.ascontiguousarray(matrix, dtype=np.float32)
            with open(self.path.parent / name, "wb") as fh:
                np.save(fh, vectors)
            crc = zlib.crc32(vectors.data)
            stamp(self.path.parent / name, crc)
            tmp = Path(f"{self.path}.{os.getpid()}.tmp")
            tmp.write_text("\n".join([f"{name} {crc}", *keys]), encoding="utf-8")
            tmp.replace(self.path.with_suffix(".keys"))
            for old in self.path.parent.glob(f"{self.path.name}-*.npy*"):  # old vectors and their stamps
                if old.name not in (name, f"{name}.ok"):
                    old.unlink(missing_ok=True)
        except OSError:
            pass  # a cache that cannot be written is only slower next time
        self.dirty = False
