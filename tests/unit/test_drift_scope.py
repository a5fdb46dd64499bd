"""Drift's kinds and start-up history, and the scope's counts (pure, no app)."""

from __future__ import annotations

import shutil

import pytest

from curator.base.tokens import FakeTokenCounter
from curator.demo.repository import build_history
from curator.live.drift import COPY_KIND, LoadHistory, LoadPoint, drift_kind, startup_history
from curator.live.scope import (
    INSTRUCTIONS,
    next_scope,
    scope_name,
    scope_totals,
    scoped_findings,
    short_name,
)
from curator.live.workbench import open_workbench
from curator.model.loader import LoadOptions
from curator.model.sources import discover


def test_what_is_out_of_step_is_named_by_what_disagrees():
    assert drift_kind("index.missing-target", "claude") == "MEMORY.md ↔ topic file"
    assert drift_kind("index.missing-target", "serena-tiered") == "index row → no file"
    assert drift_kind("orphan.unindexed", "serena") == "file → no index row"
    assert drift_kind("instructions.copy-diverged") == COPY_KIND  # the instruction-file checks, by prefix
    assert drift_kind("keywords.collision") is None and drift_kind("size.chars") is None


def test_the_commits_that_grew_it_most_come_first():
    pts = [LoadPoint("d1", "a", "first", 100), LoadPoint("d2", "b", "small", 140),
           LoadPoint("d3", "c", "big", 900), LoadPoint("d4", "d", "shrink", 500), LoadPoint("d5", None, "now", 500)]
    grew = LoadHistory("x", tuple(pts)).grew_most()
    assert [(p.subject, d) for p, d in grew] == [("big", 190), ("small", 10)]  # ≈ tokens; a shrink is never growth


def test_no_git_history_is_a_reason_never_an_error(sample_repo_copy):
    session = open_workbench(discover(sample_repo_copy), LoadOptions(token_counter=FakeTokenCounter()))
    for _, src in session.loaded():
        h = startup_history(src.workspace.store)
        assert not h.points and h.reason


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_the_start_up_load_grows_over_the_demo_history(sample_repo_copy):
    build_history(sample_repo_copy)
    session = open_workbench(discover(sample_repo_copy), LoadOptions(token_counter=FakeTokenCounter()))
    serena = next(s for _, s in session.loaded() if s.name == ".serena/memories")
    h = startup_history(serena.workspace.store)
    sizes = [p.bytes for p in h.points]
    assert len(sizes) >= 5 and sizes == sorted(sizes) and sizes[0] < sizes[-1]


def test_the_whole_repository_is_every_source_plus_what_is_across_them(sample_repo_copy):
    session = open_workbench(discover(sample_repo_copy), LoadOptions(token_counter=FakeTokenCounter()))
    whole = scoped_findings(session, None)
    per_source = sum(len(s.workspace.findings) for _, s in session.loaded())
    assert len(whole) == per_source + len(session.cross) + len(session.instruction_findings)
    assert any(x.finding.check == "instructions.drifted-copy" for x in whole)  # CLAUDE.md and AGENTS.md beside the memory
    assert scope_totals(session, None)["files"] == sum(len(s.workspace.store.records) for _, s in session.loaded())
    order = [None]
    while (nxt := next_scope(session, order[-1])) is not None:
        order.append(nxt)
    # whole → each source → the instruction files → whole
    assert order == [None, *(i for i, _ in session.loaded()), INSTRUCTIONS]
    # the parts sum to the whole: each source (with the findings across sources in its folder)
    # and the instruction files, as `curator check` totals them
    parts = [scoped_findings(session, scope) for scope in order[1:]]
    assert sum(len(p) for p in parts) == len(whole)
    assert sorted(id(x.finding) for p in parts for x in p) == sorted(id(x.finding) for x in whole)
    assert scope_name(session, INSTRUCTIONS).startswith("instruction files")
    assert {x.finding for x in parts[-1]} == {*session.cross, *session.instruction_findings} and parts[-1]
    assert scope_name(session, None).startswith("whole repository") and scope_name(session, order[1]) == ".serena/memories"


def test_a_store_opened_as_the_folder_itself_is_named_by_its_path_never_dot(sample_repo_copy, tmp_path):
    def name_of(root):
        bench = open_workbench(discover(root), LoadOptions(given=str(root), token_counter=FakeTokenCounter()))
        names = scope_name(bench, None), scope_name(bench, bench.current)
        short = short_name(bench.sources[bench.current].spec)  # the lab's and the tables' few letters
        assert short == names[0].split("/")[0].lstrip("."), short
        return names

    # `curator .serena/memories`: the store's path in its repository, as the repository view names it
    assert name_of(sample_repo_copy / ".serena" / "memories") == (".serena/memories", ".serena/memories")
    whole = open_workbench(discover(sample_repo_copy), LoadOptions(given="r", token_counter=FakeTokenCounter()))
    assert ".serena/memories" in {scope_name(whole, i) for i, _ in whole.loaded()}
    # a store folder in no repository: its folder's name
    alone = tmp_path / "notes"
    shutil.copytree(sample_repo_copy / ".serena" / "memories", alone)
    assert name_of(alone) == ("notes", "notes")
