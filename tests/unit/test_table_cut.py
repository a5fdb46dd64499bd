"""Cells cut to a column: a path loses its middle (the file name stays), prose its end, each
with an ellipsis; the wide fitted columns give way first, narrow ones (numbers) never."""

from __future__ import annotations

from rich.text import Text

from curator.tui.widgets.table import _share, cut


def test_a_path_is_cut_in_its_middle_and_prose_at_its_end():
    assert cut(".serena/memories/knowledge/conventions.md", 17).plain == ".seren…entions.md"
    assert cut("indexes route to 3 of its 3 records", 17).plain == "indexes route to…"
    assert cut("short", 17) == "short"  # what fits is given back as it was


def test_a_path_then_words_loses_the_path_s_middle_first_and_keeps_its_style():
    out = cut(Text("reflection/2026-11-19-a11y-audit-prep.md  transient  +120 tok", style="bold"), 30)
    assert out.plain == "reflect…udit-prep.md  transie…" and len(out.plain) == 30
    assert {str(span.style) for span in out.spans} == {"bold"} and out.spans[0].start == 0


def test_a_bare_file_name_keeps_its_start():
    assert cut("skills-review-index.md", 12).plain == "skills-revi…"


def test_the_wide_columns_share_what_the_narrow_ones_leave():
    assert _share(100, [10, 20, 30], [True, True, True]) == [10, 20, 30]  # all fit: as they are
    assert _share(40, [5, 60, 30], [False, True, True]) == [5, 18, 17]
    assert _share(20, [5, 60, 30], [False, True, True]) == [5, 8, 8]  # never below 8: past the edge


def test_a_path_then_a_number_keeps_the_number_whole_where_the_path_can_give_way():
    """Review's `validation/2026-11-18-c0ffee.md  transient  +30 tok` at 80 columns: it read
    `…  transient  +30…` — a number is never cut while the path beside it can lose its middle."""
    cell = "validation/2026-11-18-c0ffee.md  transient  +30 tok"
    out = cut(cell, 45).plain
    assert out.endswith("c0ffee.md  transient  +30 tok") and len(out) == 45 and "…" in out
    out = cut("good-experience/summary/entries/2026-11-18-webhook-secret-dual-signing.md  semantic  +86 tok", 47).plain
    assert out.endswith("signing.md  semantic  +86 tok") and len(out) == 47
