"""80 columns (issue 33): a name cut in its middle keeps what tells it from its neighbours, a
count is never cut, a diff line shows its change."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.text import Text

from curator.reports.diff_report import fit_line
from curator.tui.widgets.fitting import cut_column, distinct_cut, shown
from curator.tui.widgets.table import _distinct_rows, middle_cut
from curator.tui.widgets.tree_labels import TAIL, fit_label

INNOVATION = [f"project_innovation_{s}.md" for s in (
    "action_states", "artifact_meld_action", "candidate_invariant", "card_dom", "cities_images", "deck_order",
    "id_keyed_maps", "opponent_merge")]


def test_names_sharing_their_start_stay_told_apart():
    for width in (12, 14, 18, 22):
        cuts = [shown(v, distinct_cut(v, width, [o for o in INNOVATION if o != v])) for v in INNOVATION]
        assert len(set(cuts)) == len(INNOVATION), (width, cuts)  # not `project_innovatio…` eight times
        assert all(len(c) <= width for c in cuts)


def test_names_sharing_their_end_stay_told_apart():
    a, b = "git-worktree-parallel", "git-workflow-parallel"
    assert shown(a, distinct_cut(a, 15, [b])) != shown(b, distinct_cut(b, 15, [a]))
    assert middle_cut(a, 15) == middle_cut(b, 15)  # (what a plain middle cut did: `git-w…-parallel` twice)
    assert len(set(cut_column([a, b], 15, middle_cut))) == 2


def test_a_column_keeps_its_middle_cut_where_it_tells_rows_apart():
    paths = [".serena/memories/knowledge/architecture.md", ".serena/memories/db/db-runbook-incident.md"]
    assert cut_column(paths, 30, middle_cut) == [middle_cut(p, 30) for p in paths]


def test_table_rows_whose_paths_differ_only_in_the_middle_stay_told_apart():
    rows = [["good-experience/entries/2026-11-05-webhook-secret-dual-signing.md  semantic  +12 −0"],
            ["good-experience/summary/entries/2026-11-05-webhook-secret-dual-signing.md  semantic  +8 −0"]]
    a, b = (r[0].plain for r in _distinct_rows(rows, [58]))
    assert a.split()[0] != b.split()[0] and "summary" in b  # the part that differs is shown
    assert len(a) <= 58 and len(b) <= 58


@given(st.lists(st.text("abcdefghijklmnopqrstuvwxyz_-/", min_size=1, max_size=40).map(lambda s: s + ".md"),
                min_size=2, max_size=12, unique=True),  # (not from_regex: too slow to draw on a busy machine)
       st.integers(min_value=6, max_value=40))
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])  # (two cores shared by many runs)
def test_distinct_cuts_fit_and_only_cut_what_is_long(values, width):
    for v in values:
        c = shown(v, distinct_cut(v, width, [o for o in values if o != v]))
        assert len(c) <= width or len(v) <= width
        assert c == v or len(v) > width


def test_a_tree_label_never_cuts_its_token_count():
    label = Text("memory-index.md ✖1 ▲5 737")
    for room in range(6, 30):
        out = fit_label(label, room).plain
        assert out.endswith(" 737"), (room, out)  # never `73`
        assert TAIL.search(out).group("count") == " 737"
    source = Text(".serena/memories ✖19 ▲18 16.6k  Serena, tiered index (ADR-017)")
    assert fit_label(source, 30).plain.endswith("16.6k")  # the format in words goes first
    assert fit_label(Text("semantic (36) ✖3 ▲9 12.6k"), 16).plain.startswith("sema… (36)")  # a group's count too


def test_a_group_label_keeps_some_of_its_word_before_its_badges():
    """`reflexion (5) ✖1 1,374` narrowed: the badges go before the word does (it read `… (5) ✖1 1,374`,
    a row of no name)."""
    for room in (14, 15, 16):
        out = fit_label(Text("reflexion (5) ✖1 1,374"), room).plain
        assert out.startswith("ref") and out.endswith(" (5) 1,374") and len(out) <= room, (room, out)
    assert fit_label(Text("reflexion (5) ✖1 1,374"), 18).plain == "refl… (5) ✖1 1,374"  # room for both: both


def test_a_tree_label_cut_keeps_what_tells_it_from_its_neighbours():
    near = ["project_innovation_cities_images.md", "project_innovation_id_keyed_maps.md"]
    out = fit_label(Text("project_innovation_deck_order.md 544"), 18, near).plain
    assert "deck" in out and out.endswith(" 544")


def test_a_long_diff_line_shows_where_it_changed():
    before = "-|git worktree parallel: [skills-git-index](skills-git-index.md) (200), [w](git/w.md) (253)"
    after = "+|git worktree parallel: [skills-git-index](skills-git-index.md) (175), [w](git/w.md) (253)"
    cut = fit_line(after, 40, before)
    assert len(cut) <= 40 and "(175)" in cut and cut.startswith("+…")
    assert fit_line("+short", 40, "-shirt") == "+short"
    start = fit_line("-|changed at the start of a very long line that goes on and on and on", 30,
                     "+|CHANGED at the start of a very long line that goes on and on and on")
    assert start.startswith("-|changed") and start.endswith("…") and len(start) == 30
