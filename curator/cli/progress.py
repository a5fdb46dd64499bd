"""One line of progress on a terminal, overwritten as work goes and erased when it is done.

A store's first `curator retrieve` reads every memory into an index and has the model read its
candidates: seconds on a large store. On a terminal (stdout and stderr both) a line on stderr
says what is going on ("indexing 1,000 memories… 43%", then "embedding 40/116 texts…"); it
appears only once the work has taken a moment (a quick update prints nothing) and is erased
before the answer is printed. Piped, redirected or `--format json`: nothing at all.
"""

from __future__ import annotations

import sys
import time

DELAY = 0.25  # seconds of work before the line appears (an update of a few memories shows none)
ERASE = "\r\x1b[K"  # to the line's start, then clear to its end


class ProgressLine:
    """Callbacks for `RetrievalEngine(progress=…, indexing=…)` writing one line over itself."""

    def __init__(self, stream=None, clock=time.monotonic) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.started = clock()
        self.shown = ""  # the text on the line now ("" when nothing is)

    def indexing(self, done: int, total: int) -> None:
        self._show(f"indexing {total:,} memories… {100 * done // max(total, 1)}%")

    def embedding(self, done: int, total: int) -> None:
        self._show(f"embedding {done:,}/{total:,} texts… (the first time only; kept after)")

    __call__ = embedding  # the engine's `progress`: the first embedding of new memories

    def _show(self, text: str) -> None:
        if text == self.shown or self.clock() - self.started < DELAY:
            return
        self._write(ERASE + text)
        self.shown = text

    def close(self) -> None:
        """Erase the line (before the answer is printed)."""
        if self.shown:
            self._write(ERASE)
            self.shown = ""

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # a closed or broken terminal: progress is never worth a failure
            pass


def progress_line(fmt: str = "text") -> ProgressLine | None:
    """A ProgressLine when both stdout and stderr are terminals and the output is text; else None."""
    if fmt != "text" or not _tty(sys.stderr) or not _tty(sys.stdout):
        return None
    return ProgressLine()


def _tty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # replaced or closed streams
        return False
