"""Lines that fit the pane they are drawn in (80×24 leaves the overview ~46 columns): the totals
say less instead of wrapping their last mark; the key list wraps between entries only."""

from __future__ import annotations

from io import StringIO

from rich.console import Console
from rich.text import Text

from curator.model.findings import Severity
from curator.tui.widgets.fitting import FirstThatFits, KeyLine
from curator.tui.widgets.overview import totals_line


def _lines(renderable, width: int) -> list[str]:
    out = StringIO()
    Console(file=out, width=width, color_system=None).print(renderable)
    return out.getvalue().rstrip("\n").split("\n")


def test_the_totals_line_drops_words_before_it_wraps():
    counts = {Severity.ERROR: 21, Severity.WARNING: 28, Severity.INFO: 5}
    line = totals_line("", 96, 81, 30_217, counts)
    assert _lines(line, 80) == ["96 files (81 memories) · 30.2k tok · ✖21 ▲28 ●5"]
    assert _lines(line, 46) == ["96 files (81 mem) · 30.2k tok · ✖21 ▲28 ●5"]
    assert _lines(line, 36) == ["96 files · 30.2k tok · ✖21 ▲28 ●5"]
    assert _lines(line, 20) == ["96 files · 30.2k to…"]  # never two lines


def test_first_that_fits_picks_the_longest_that_fits():
    fit = FirstThatFits(Text("a b c d e f"), Text("a b c"), Text("a"))
    assert [_lines(fit, w) for w in (20, 8, 3)] == [["a b c d e f"], ["a b c"], ["a"]]


def test_the_key_line_wraps_between_entries():
    keys = KeyLine([("↑↓", "walk the tree"), ("Enter", "unfolds"), ("2", "problems"), ("3", "budgets"),
                    ("ctrl+p", "commands"), ("f1", "help")])
    lines = _lines(keys, 46)
    assert lines == ["↑↓ walk the tree · Enter unfolds · 2 problems", "3 budgets · ctrl+p commands · f1 help"]
    assert all(len(line) <= 46 and not line.startswith("·") and not line.endswith("·") for line in lines)
