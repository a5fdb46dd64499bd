"""Two MEMORY.md lines for one topic file merged into one: nothing either says is lost."""

from __future__ import annotations

from curator.model.list_entry import merged_entry, parse_entry

FIRST = "- [Issue 548 testing](project_548.md) — PRs merged: Hypothesis tiers\n"


def test_an_entry_line_is_title_link_and_hook():
    e = parse_entry(FIRST)
    assert (e.title, e.link, e.hook) == ("Issue 548 testing", "project_548.md", "PRs merged: Hypothesis tiers")
    assert parse_entry("- [a](a.md)").hook == ""
    assert parse_entry("See [a](a.md) for the rules") is None  # prose
    assert parse_entry("- [a](a.md) and [b](b.md)") is None  # two links: merged by hand


def test_the_second_line_adds_its_title_and_hook_after_the_first():
    second = "- [Phase 2 shipped](project_548.md) — PR 560 merged and deployed\n"
    assert merged_entry(FIRST, second) == (
        "- [Issue 548 testing](project_548.md) — PRs merged: Hypothesis tiers; "
        "Phase 2 shipped: PR 560 merged and deployed\n")
    # a title that is only the file's name says nothing; a first line without a hook gets one
    assert merged_entry("- [x.md](x.md)", "- [x.md](x.md) — when to read it") == "- [x.md](x.md) — when to read it"


def test_a_repeat_that_adds_nothing_leaves_the_first_line_as_it_is():
    assert merged_entry(FIRST, "* [issue 548 TESTING](project_548.md) - hypothesis tiers") == FIRST
    assert merged_entry(FIRST, "Notes on [it](project_548.md) here") is None
