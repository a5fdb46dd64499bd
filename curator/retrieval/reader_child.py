"""The reader process's side (reader_process.py): groups of word-piece ids in on stdin, their
vectors out on stdout, until a group of 0 rows or the end of its input.

    python -m curator.retrieval.reader_child MODEL.onnx [SHA256]
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

from ..base.children import give_way
from .reader_process import receive_rows
from .semantic import Encoder, EncoderUnavailable


def main(argv: list[str]) -> int:
    give_way()  # a person typing in the lab meanwhile: the app's words-first answer comes first
    try:
        encoder = Encoder(Path(argv[0]), (argv[1] if len(argv) > 1 else "") or None)
    except (EncoderUnavailable, OSError, IndexError):
        return 2  # the parent reads a closed pipe and reads in its own process
    encoder.one_run = True  # the app's memory: this process's peak is what it adds while it reads
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    while True:
        try:
            rows = receive_rows(inp)
        except (EOFError, struct.error):
            return 0
        if not rows:
            return 0
        try:
            out.write(encoder.encode_ids(rows).astype("<f4", copy=False).tobytes())
            out.flush()
        except BrokenPipeError:  # the parent stopped listening (a superseded search)
            return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
