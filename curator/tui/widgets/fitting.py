"""Rich renderables that fit the width they are drawn at: a line that says less when narrow, and
a key list wrapped between entries only. At 80 columns a pane is ~46 wide: a number never ends
one line with its unit on the next."""

from __future__ import annotations

from rich.text import Text


class FirstThatFits:
    """The first of these one-line texts that fits the width it is drawn at (else the last, cut):
    a totals line says less in a narrow pane instead of wrapping its last mark."""

    def __init__(self, *lines: Text) -> None:
        self.lines = lines

    def __rich_console__(self, console, options):
        fits = next((t for t in self.lines if t.cell_len <= options.max_width), None)
        if fits is None:  # not even the shortest: cut with an ellipsis, never wrapped
            fits = self.lines[-1].copy()
            fits.no_wrap, fits.overflow = True, "ellipsis"
        yield fits


class KeyLine:
    """Keys and what they do, separated by " · ", wrapped between entries only (never a key
    away from its word, never a line that starts with the separator)."""

    def __init__(self, items: list[tuple[str, str]]) -> None:
        self.items = items

    def __rich_console__(self, console, options):
        line = Text()
        for key, what in self.items:
            entry = Text.assemble((key, "bold"), f" {what}")
            if line.cell_len and line.cell_len + 3 + entry.cell_len > options.max_width:
                yield line
                line = Text()
            if line.cell_len:
                line.append(" · ")
            line.append_text(entry)
        yield line
