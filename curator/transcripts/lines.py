"""A transcript's lines, read with a size cap: a line longer than `LINE_CAP` bytes (a 500 MB
line in a hostile or broken transcript) is skipped — read through in 1 MB pieces, never held —
and reported as None, so every reader counts it and goes on with the next line."""

from __future__ import annotations

from collections.abc import Iterator

LINE_CAP = 16 << 20  # Claude Code's longest real lines (a pasted image, a big tool result) are a few MB
PIECE = 1 << 20


def capped_lines(fh, cap: int = LINE_CAP) -> Iterator[tuple[bytes | None, int]]:
    """(line, its size in bytes) for each line of the binary file `fh` from where it stands; the
    line is None when it is longer than `cap` (its bytes were skipped)."""
    while True:
        raw = fh.readline(cap + 1)
        if not raw:
            return
        if len(raw) <= cap or raw.endswith(b"\n"):
            yield raw, len(raw)
            continue
        size = len(raw)
        del raw
        while True:
            piece = fh.readline(PIECE)
            size += len(piece)
            if not piece or piece.endswith(b"\n"):
                break
        yield None, size
