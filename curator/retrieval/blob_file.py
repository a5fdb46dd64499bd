"""One `<name>-<gen>.bin` of the saved index (`persist._doc_terms_bytes`: n, n + 1 offsets, n
CRC-32s, then each memory's marshalled blob), held open by the engine that reads it.

Its tables are read once; each memory then costs one positioned read. Opening the file and
seeking to three places for every memory was ~1 ms of a 2 ms lexical query at 10,000 memories
(BM25's first twenty memories' passages are read for every new query)."""

from __future__ import annotations

import marshal
import os
import struct
import threading
import weakref
import zlib
from pathlib import Path
from typing import Any

MAX_BLOB = 1 << 30


class BlobFile:
    """Raises OSError or ValueError when the file cannot be opened or does not hold `n` blobs."""

    def __init__(self, path: Path, n: int) -> None:
        fd = open_held(path)
        try:
            (held,) = struct.unpack("<q", read_at(fd, 8, 0))
            if held != n or n < 0:
                raise ValueError(f"{path.name} holds {held} blobs, not {n}")
            self.tables = read_at(fd, 8 * (n + 1) + 4 * n, 8)
        except BaseException:
            os.close(fd)
            raise
        self.fd, self.n, self.base = fd, n, 8 + 8 * (n + 1) + 4 * n
        weakref.finalize(self, os.close, fd)

    def read(self, indices) -> dict[int, Any] | None:
        """Each index's blob, checked by its CRC; None when any is out of range or damaged."""
        out = {}
        n = self.n
        for i in indices:
            if not 0 <= i < n:
                return None
            start, end = struct.unpack_from("<qq", self.tables, 8 * i)
            (crc,) = struct.unpack_from("<I", self.tables, 8 * (n + 1) + 4 * i)
            if not 0 <= start <= end or end - start > MAX_BLOB:
                return None
            try:
                blob = read_at(self.fd, end - start, self.base + start)
            except (OSError, ValueError):
                return None
            if zlib.crc32(blob) != crc:
                return None
            try:
                out[i] = marshal.loads(blob)
            except (EOFError, ValueError, TypeError):
                return None
        return out


_SEEK = threading.Lock()  # where there is no positioned read, a seek and its read go together


def open_held(path: Path) -> int:
    """A descriptor for reading `path` for as long as its reader lives (close it with a
    `weakref.finalize`): a cache file replaced meanwhile stays readable through it."""
    return os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


def read_at(fd: int, size: int, at: int) -> bytes:
    """`size` bytes at `at` (ValueError when the file ends first), safe from several threads."""
    if hasattr(os, "pread"):
        data = os.pread(fd, size, at)
    else:  # no positioned read here (Windows); searches on two threads share the file
        with _SEEK:
            os.lseek(fd, at, os.SEEK_SET)
            data = os.read(fd, size)
    if len(data) != size:
        raise ValueError("the file ends early")
    return data
