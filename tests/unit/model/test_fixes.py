"""Typed fix variants: each kind its own frozen dataclass, as plain rows for the cache and back."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from curator.base.tokens import FakeTokenCounter
from curator.checks import run_checks
from curator.curation import plan_fixes
from curator.model import load_store
from curator.model.findings import (
    FIX_KINDS,
    AddImport,
    DropRow,
    Fix,
    Frontmatter,
    IndexOrphan,
    ListEntry,
    MergeEntry,
    Move,
    Prune,
    PruneMany,
    RefreshCount,
    Reimport,
    Relink,
    Repath,
    RepointRow,
    RouteIndex,
    RuleKeys,
    Unimport,
    Unlink,
    fix_from_row,
)

text = st.text(min_size=1, max_size=30)
lines = st.integers(min_value=1, max_value=10_000)
words = st.lists(text, max_size=5).map(tuple)
fixes = st.one_of(
    st.builds(RepointRow, text, lines, text, text),
    st.builds(DropRow, text, lines, text, st.sampled_from(["unsafe", "dead", "repeated"])),
    st.builds(IndexOrphan, text, text, words),
    st.builds(RouteIndex, text, words),
    st.builds(RefreshCount, text, lines, text, st.integers(min_value=0, max_value=10**6)),
    st.builds(Prune, text),
)


@given(fixes)
def test_a_fix_survives_its_plain_row(fix):
    row = fix.to_row()
    assert row[0] == fix.kind and FIX_KINDS[fix.kind] is type(fix)
    back = fix_from_row(row)
    assert back == fix and type(back) is type(fix) and back.description == fix.description


@given(fixes)
def test_a_fix_is_immutable_and_hashable(fix):
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(fix, fix.__match_args__[0], "x")
    assert {fix, fix} == {fix}


@pytest.mark.parametrize("row", [
    ("rename-file", "a.md"),  # no such kind
    ("prune",),  # too few fields
    ("repoint-row", "i.md", 3, "old.md"),
    ("drop-row", "i.md", 3, "t.md", "dead", "extra"),  # too many
])
def test_a_row_of_no_known_shape_is_refused(row):
    with pytest.raises(ValueError, match="not a fix row"):
        fix_from_row(row)


def test_each_variant_says_what_it_does():
    assert RepointRow("i.md", 3, "a.md", "b.md").description == "re-point to b.md"
    assert [DropRow("i.md", 1, "t.md", r).description for r in ("unsafe", "dead", "repeated")] == [
        "drop this row", "drop the dead row", "move its keywords to the first row, drop it"]
    assert IndexOrphan("x.md", "skills-x-index.md").description == "add a row to skills-x-index.md"
    assert RefreshCount("memory-index.md", 4, "x.md", 120).description == "set the count to 120"
    assert Prune("reflection/old.md").description.startswith("prune")
    assert PruneMany(("s/a.md", "s/b.md")).description == "prune (archive) these 2 records"
    assert RouteIndex("x-index.md", ("x",)).description == "add a route to memory-index.md"
    assert Relink("a.md", 3, "b.md", "c/b.md").description == "link it as c/b.md"
    assert ListEntry("x.md", "MEMORY.md").description == "add a line to MEMORY.md"
    assert Frontmatter("x.md", "quote").description.startswith("quote")
    assert Reimport("CLAUDE.md", 3, "@a.md", "@docs/a.md").description == "import @docs/a.md instead"
    assert RuleKeys("r.md", "paths").description == "translate globs: to paths:"
    assert Repath("CLAUDE.md", 3, "src/a.ts", "src/b/a.ts").description == "name src/b/a.ts instead"
    assert MergeEntry("MEMORY.md", 4, "t.md", 2).description == "merge into line 2"
    assert Move(".cursor/rules/a.md", ".cursor/rules/a.mdc").description == "move it to .cursor/rules/a.mdc"
    assert Unimport("CLAUDE.md", 4, "@.claude/rules/a.md").description == "drop @.claude/rules/a.md"
    assert AddImport("CLAUDE.md", 3, "@AGENTS.md").description == "import it: @AGENTS.md"
    assert Unlink("a/x.md", 7, "y.md", "b/y.md").description == "drop it (the page links b/y.md already)"
    assert all(issubclass(c, Fix) for c in FIX_KINDS.values()) and len(FIX_KINDS) == 19


def test_the_checks_build_typed_fixes_and_the_plan_dispatches_on_them(sample_copy):
    store = load_store(sample_copy)
    findings = run_checks(store)
    by_check = {(f.check, type(f.fix)) for f in findings if f.fix is not None}
    assert ("index.missing-target", RepointRow) in by_check
    assert ("index.duplicate-entry", DropRow) in by_check
    assert ("orphan.unindexed", IndexOrphan) in by_check
    assert ("index.unrouted", RouteIndex) in by_check
    assert ("transient.expired", Prune) in by_check
    repeated = [f for f in findings if isinstance(f.fix, DropRow) and f.fix.reason == "repeated"]
    assert repeated and all(f.check == "index.duplicate-entry" for f in repeated)
    # a re-point is planned by its typed fields: the row's link changes from old to new
    repoint = next(f for f in findings if isinstance(f.fix, RepointRow))
    plan = plan_fixes(store, [repoint], {"index.missing-target"}, counter=store.counter)
    (edit,) = [e for e in plan.edits if e.path == repoint.fix.index]
    after = edit.after.decode()
    assert repoint.fix.new in after and repoint.fix.old not in after


def test_a_stale_count_is_refreshed_through_its_typed_fix(make_store):
    root = make_store({
        "memory-index.md": "[Notes]\n|alpha beta: [notes-index](notes-index.md) (3)\n",
        "notes-index.md": "| Keywords | File |\n|---|---|\n| alpha beta gamma delta epsilon | [notes/a](notes/a.md) |\n",
        "notes/a.md": "# A\n\nwords and more words\n",
    })
    store = load_store(root, token_counter=FakeTokenCounter())
    stale = [f for f in run_checks(store) if isinstance(f.fix, RefreshCount)]
    assert len(stale) == 1
    fix = stale[0].fix
    assert (fix.index, fix.line, fix.target) == ("memory-index.md", 2, "notes-index.md") and fix.count != 3
    plan = plan_fixes(store, stale, counter=store.counter)
    (edit,) = plan.edits
    assert f"(notes-index.md) ({fix.count})" in edit.after.decode()
