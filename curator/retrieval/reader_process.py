"""The model read in a process of its own, for a long-lived process (the app's lean encoder).

Why: onnxruntime's session costs ~170 MB, ~220 MB while it is made, and what it frees stays with
the allocator. In the app at 10,000 memories the first queries whose passages the model reads
took it from 270 MB to 600 MB. A child process holds the session only while it reads and gives
all of it back when it exits; the app stays at its own size (issue 32: ≤ 300 MB).

The parent splits the texts into word-piece ids (the same tokenizer), sorted by length, and sends
them in groups; the child runs them through `Encoder.encode_ids` (one batch at a time on every
core: `Encoder.one_run`) and sends the vectors back. Between groups the parent reports progress, where a
superseded search stops it. Frames on the pipes: a group is its row count (u32), then each row as
its length (u32) and its ids (u32 each); the answer is rows × DIM float32. A count of 0 ends it.
Anything that goes wrong in the child (it cannot start, load the model or answer) raises
`ReaderFailed`: the encoder then reads in its own process, as it did before.
"""

from __future__ import annotations

import struct
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from ..base import children
from ..base.children import Stopped, stop, stopped
from .vector_cache import DIM

CHILD = "curator.retrieval.reader_child"  # the child's side (it imports the encoder; this does not)

GROUP = 16  # texts a round trip: four batches of four, progress heard between groups
_U32 = struct.Struct("<I")


class ReaderFailed(Exception):
    """The child process could not read (it is gone or said nothing): read in this process."""


class ReaderClosed(Exception):
    """This reader was closed while a read waited for it (a superseded search's): take a new one."""


def _send(out: IO[bytes], rows: list[list[int]]) -> None:
    parts = [_U32.pack(len(rows))]
    for r in rows:
        parts.append(_U32.pack(len(r)))
        parts.append(struct.pack(f"<{len(r)}I", *r))
    out.write(b"".join(parts))
    out.flush()


def _exactly(inp: IO[bytes], n: int) -> bytes:
    data = inp.read(n)
    if data is None or len(data) != n:
        raise EOFError
    return data


def receive_rows(inp: IO[bytes]) -> list[list[int]]:
    (count,) = _U32.unpack(_exactly(inp, 4))
    rows = []
    for _ in range(count):
        (length,) = _U32.unpack(_exactly(inp, 4))
        rows.append(list(struct.unpack(f"<{length}I", _exactly(inp, 4 * length))))
    return rows


_PEAK_KIB = [0]  # the largest reader's own peak resident memory, where /proc says (bench/app.py)


def _note_peak(pid: int) -> None:
    try:  # the child's own high-water mark (getrusage's for children also counts the parent's pages)
        with open(f"/proc/{pid}/status", encoding="ascii") as fh:
            hwm = next((int(line.split()[1]) for line in fh if line.startswith("VmHWM:")), 0)
    except (OSError, ValueError, IndexError):
        return
    _PEAK_KIB[0] = max(_PEAK_KIB[0], hwm)


def peak_mb() -> float:
    """The largest reader process's peak resident memory so far in MB (0: none, or not known)."""
    return _PEAK_KIB[0] / 1024


class Reader:
    """One child process reading for an encoder: made when the model must first read, kept while
    the encoder holds it (one query's heads, then its passages), closed after."""

    def __init__(self, np: Any, model: Path, pinned: str | None) -> None:
        self.np = np
        try:
            self.proc = children.start(CHILD, str(model), pinned or "")
        except OSError as exc:
            raise ReaderFailed(f"cannot start the reader: {exc}") from None
        self.alive = True
        self.lock = threading.Lock()  # one read at a time on the pipes

    def read(self, ids: list[list[int]], progress: Callable[[int, int], None] | None = None):
        """Unit vectors of the id rows (rows × DIM float32), sorted by length into groups."""
        with self.lock:
            if not self.alive:
                raise ReaderClosed
            if progress is not None:  # a search superseded while it waited stops here, the reader left as it is
                progress(0, len(ids))
            return self._read(ids, progress)

    def _read(self, ids: list[list[int]], progress: Callable[[int, int], None] | None):
        np = self.np
        out = np.zeros((len(ids), DIM), dtype=np.float32)
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        stdin, stdout = self.proc.stdin, self.proc.stdout
        assert stdin is not None and stdout is not None
        for start in range(0, len(order), GROUP):
            chunk = order[start:start + GROUP]
            try:
                _send(stdin, [ids[i] for i in chunk])
                data = _exactly(stdout, len(chunk) * DIM * 4)
            except (OSError, EOFError, ValueError):
                self.close()
                if stopped(self.proc):
                    raise Stopped from None  # the app is leaving: not read in its own process instead
                raise ReaderFailed("the reader stopped before it answered") from None
            except BaseException:
                self.close()  # stopped mid-frame: the pipe cannot be used again
                raise
            out[chunk] = np.frombuffer(data, dtype=np.float32).reshape(len(chunk), DIM)
            if progress is not None:  # between frames: a newer search taking over leaves the reader usable
                progress(start + len(chunk), len(order))
        return out

    def close(self) -> None:
        """End the child: a 0 group, the pipes closed, waited for (killed if still in a batch)."""
        if not self.alive:
            return
        self.alive = False
        proc = self.proc
        _note_peak(proc.pid)
        try:
            if proc.stdin is not None:
                _send(proc.stdin, [])
        except OSError:
            pass  # it ended on its own
        stop(proc, grace=5)  # still in a batch (a superseded search) after that: killed
