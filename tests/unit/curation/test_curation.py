"""The write path: plans, atomic apply, undo, crash recovery, refusals; and each operation."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from curator.base.tokens import default_counter
from curator.checks import run_checks
from curator.cli import main
from curator.curation import (
    ChangedOnDisk,
    CurationError,
    FileEdit,
    Plan,
    apply_plan,
    history,
    journal,
    plan_fixes,
    plan_keywords,
    plan_promote,
    plan_prune,
    plan_refresh,
    recover,
    undo,
)
from curator.model import load_store


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".curator" not in p.relative_to(root).parts
    }


def on_every_rename(monkeypatch, before_each):
    """Call `before_each(src, dst)` ahead of every rename and every no-overwrite link the write
    path makes (the points where a crash or a full disk can strike)."""
    real_replace, real_link = journal.replace, journal.link_new

    def replace(src, dst):
        before_each(src, dst)
        real_replace(src, dst)

    def link(src, dst):
        before_each(src, dst)
        real_link(src, dst)

    monkeypatch.setattr(journal, "replace", replace)
    monkeypatch.setattr(journal, "link_new", link)


class PowerCut(BaseException):
    """A crash: unlike an OSError, nothing in curator gets to react to it."""


def load(root):
    return load_store(root, token_counter=default_counter())


# -- apply / undo / recover ------------------------------------------------------


def test_apply_then_undo_is_byte_identical(sample_copy):
    before = snapshot(sample_copy)
    store = load(sample_copy)
    jid = apply_plan(sample_copy, plan_fixes(store, run_checks(store), counter=store.counter))
    assert snapshot(sample_copy) != before and history(sample_copy)[-1]["id"] == jid
    undo(sample_copy)
    assert snapshot(sample_copy) == before
    with pytest.raises(CurationError, match="nothing to undo"):
        undo(sample_copy)


def test_changed_on_disk_between_plan_and_apply_is_refused(sample_copy):
    store = load(sample_copy)
    plan = plan_fixes(store, run_checks(store), {"index.missing-target"})
    (sample_copy / "skills-ci-index.md").write_text("edited by someone else\n")
    before = snapshot(sample_copy)
    with pytest.raises(ChangedOnDisk, match="changed on disk"):
        apply_plan(sample_copy, plan)
    assert snapshot(sample_copy) == before and history(sample_copy) == []


def test_undo_refuses_when_files_changed_since(sample_copy):
    store = load(sample_copy)
    apply_plan(sample_copy, plan_prune(store))
    (sample_copy / ".curator/archive/reflection/2026-09-22-session-review.md").write_text("changed\n")
    with pytest.raises(ChangedOnDisk):
        undo(sample_copy)


@pytest.mark.parametrize("fail_at", range(12))
def test_crash_at_any_write_is_rolled_back_on_next_start(sample_copy, monkeypatch, fail_at):
    """Fail the Nth rename or unlink of one operation (journal writes included): the next start
    leaves the store exactly as before, or — if the crash came after the last write — as after."""
    before = snapshot(sample_copy)
    store = load(sample_copy)
    plan = plan_promote(store, "validation/2026-11-18-c0ffee.md", "api/api-webhook-signing.md",
                        "skills-ci-index.md", counter=store.counter)
    real_remove = journal.remove
    calls = {"n": 0}

    def tick():
        calls["n"] += 1
        if calls["n"] == fail_at + 1:
            raise PowerCut()

    def flaky_remove(path):
        tick()
        real_remove(path)

    on_every_rename(monkeypatch, lambda src, dst: tick())
    monkeypatch.setattr(journal, "remove", flaky_remove)
    try:
        apply_plan(sample_copy, plan)
        crashed = False
    except PowerCut:
        crashed = True
    monkeypatch.undo()
    recover(sample_copy)  # what the next start does
    now = snapshot(sample_copy)
    if crashed:
        assert now == before  # all of it rolled back, nothing lost
    else:
        assert (sample_copy / "api/api-webhook-signing.md").exists()
        undo(sample_copy)
        assert snapshot(sample_copy) == before
    assert not [p for p in sample_copy.rglob("*.tmp")]


def test_crash_during_undo_is_finished_on_recovery(sample_copy, monkeypatch):
    before = snapshot(sample_copy)
    store = load(sample_copy)
    apply_plan(sample_copy, plan_prune(store))
    calls = {"n": 0}

    def flaky(src, dst):
        if ".curator" not in str(dst):
            calls["n"] += 1
            if calls["n"] > 1:
                raise PowerCut()

    on_every_rename(monkeypatch, flaky)
    with pytest.raises(PowerCut):
        undo(sample_copy)
    monkeypatch.undo()
    recover(sample_copy)
    assert snapshot(sample_copy) == before


names = st.from_regex(r"[a-z]{1,8}(-[a-z]{1,8}){0,2}", fullmatch=True)
contents = st.binary(max_size=200)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(names, st.tuples(st.none() | contents, st.none() | contents), min_size=1, max_size=5))
def test_property_apply_undo_restores_every_byte(tmp_path_factory, files):
    root = tmp_path_factory.mktemp("store")
    edits = []
    for name, (before, after) in files.items():
        rel = f"notes/{name}.md"
        if before is not None:
            (root / "notes").mkdir(exist_ok=True)
            (root / rel).write_bytes(before)
        edits.append(FileEdit(rel, before, after))
    plan = Plan("test", "property", edits)
    start = snapshot(root)
    if plan.empty:
        with pytest.raises(CurationError):
            apply_plan(root, plan)
        return
    apply_plan(root, plan)
    for e in edits:
        p = root / e.path
        assert (p.read_bytes() if p.exists() else None) == e.after
    undo(root)
    assert snapshot(root) == start


# -- validation -------------------------------------------------------------------


@pytest.mark.parametrize(
    "dest, message",
    [
        ("../outside.md", "leaves the store"),
        ("/etc/passwd.md", "inside the store"),
        ("git/Bad_Name.md", "kebab-case"),
        ("git/skill-thing.md", "skill-"),
        ("git/git-interactive-rebase.md", "already exists"),
        ("top-level.md", "folder"),
    ],
)
def test_bad_names_and_traversal_are_refused(sample_copy, dest, message):
    store = load(sample_copy)
    with pytest.raises(CurationError, match=message):
        plan_promote(store, "validation/2026-11-18-c0ffee.md", dest, "skills-ci-index.md")


def test_only_transient_or_reflexion_records_are_promoted(sample_copy):
    store = load(sample_copy)
    with pytest.raises(CurationError, match="only transient and reflexion"):
        plan_promote(store, "git/git-lfs-fixtures.md", "git/git-lfs-2.md", "skills-git-index.md")


# -- operations ---------------------------------------------------------------------


def test_promote_writes_memory_row_route_and_archives(sample_copy):
    store = load(sample_copy)
    plan = plan_promote(store, "reflexion/2026-09-14-migration-lock-timeout.md", "db/db-migration-lock-timeout.md",
                        "database-index.md", counter=store.counter)
    actions = {e.path: e.action for e in plan.edits}
    assert actions["db/db-migration-lock-timeout.md"] == "create"
    assert actions["database-index.md"] == "modify" and actions["memory-index.md"] == "modify"
    assert actions["reflexion/2026-09-14-migration-lock-timeout.md"] == "delete"
    assert actions[".curator/archive/reflexion/2026-09-14-migration-lock-timeout.md"] == "create"
    apply_plan(sample_copy, plan)
    new = (sample_copy / "db/db-migration-lock-timeout.md").read_text()
    assert "source: reflexion/2026-09-14-migration-lock-timeout.md" in new and "session_id" not in new
    assert "tags:" in new  # non-transient metadata is kept
    after = load(sample_copy)
    assert "db/db-migration-lock-timeout.md" in after.routes_to
    found = {(f.check, f.path) for f in run_checks(after)}
    assert ("orphan.unindexed", "db/db-migration-lock-timeout.md") not in found
    # the L0 row that linked the reflexion record now links the new memory (no dead link left)
    assert ("index.missing-target", "memory-index.md") not in found
    assert "[db-migration-lock-timeout](db/db-migration-lock-timeout.md)" in (sample_copy / "memory-index.md").read_text()
    assert not any(c == "tokens.stale-count" and "database-index" in (f or "") for c, f in found)


def test_fix_reduces_findings_and_adds_none(sample_copy):
    store = load(sample_copy)
    before = run_checks(store)
    apply_plan(sample_copy, plan_fixes(store, before, counter=store.counter))  # the safe fixes only
    after = run_checks(load(sample_copy))
    assert len(after) < len(before)
    assert {(f.check, f.path) for f in after} <= {(f.check, f.path) for f in before}
    assert "tokens.stale-count" not in {f.check for f in after}
    assert {f.check for f in after} >= {"index.unrouted", "orphan.unindexed"}  # opt-in fixes were not applied
    store = load(sample_copy)
    opt_in = {"index.missing-target", "index.unrouted", "orphan.unindexed"}
    apply_plan(sample_copy, plan_fixes(store, run_checks(store), opt_in, counter=store.counter))
    final = run_checks(load(sample_copy))
    assert {(f.check, f.path) for f in final} <= {(f.check, f.path) for f in after}
    for gone in ("index.missing-target", "index.unrouted"):
        assert gone not in {f.check for f in final}


def test_refresh_changes_only_stale_rows(sample_copy):
    store = load(sample_copy)
    text = (sample_copy / "memory-index.md").read_text().splitlines()
    plan = plan_refresh(store, run_checks(store))
    apply_plan(sample_copy, plan)
    new = (sample_copy / "memory-index.md").read_text().splitlines()
    changed = [i + 1 for i, (a, b) in enumerate(zip(text, new, strict=True)) if a != b]
    stale_lines = {f.line for f in run_checks(store) if f.check == "tokens.stale-count"}
    assert set(changed) == stale_lines
    assert not [f for f in run_checks(load(sample_copy)) if f.check == "tokens.stale-count"]


def test_keywords_edit_keeps_the_rest_of_the_line(sample_copy):
    store = load(sample_copy)
    plan = plan_keywords(store, "skills-review-index.md", "review/review-pr-size.md",
                         ["pr", "size", "split", "stacked", "diff-lines", "large-change"])
    assert "uniqueness" in plan.notes[0]
    apply_plan(sample_copy, plan)
    line = next(ln for ln in (sample_copy / "skills-review-index.md").read_text().splitlines() if "review-pr-size" in ln)
    assert line == "| pr size split stacked diff-lines large-change | [review/review-pr-size](review/review-pr-size.md) |"


def test_prune_by_ttl_and_by_count(sample_copy):
    store = load(sample_copy)
    by_ttl = plan_prune(store)
    moved = sorted(e.path for e in by_ttl.edits if e.action == "delete")
    assert moved == ["reflection/2026-09-22-session-review.md", "reflection/2026-10-15-review-bot-noise.md",
                     "validation/2026-09-30-ci-cache-key.md", "validation/2026-10-08-pool-size.md"]
    keep2 = plan_prune(store, keep=2, archive=False)
    assert all(e.after is None for e in keep2.edits) and len(keep2.edits) == 5
    with pytest.raises(CurationError):
        plan_prune(store, tier="semantic")


# -- CLI ------------------------------------------------------------------------------


def test_cli_dry_run_writes_nothing_and_json(capsys, sample_copy):
    before = snapshot(sample_copy)
    code = main(["fix", str(sample_copy), "--dry-run", "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["dry_run"] and not data["applied"] and data["journal"] is None
    assert data["diff"].startswith("--- a/") and snapshot(sample_copy) == before


def test_cli_promote_undo_history(capsys, sample_copy):
    before = snapshot(sample_copy)
    assert main(["promote", "validation/2026-11-18-c0ffee.md", "--to", "api/api-webhook-signing.md",
                 "--index", "skills-ci-index.md", "--store", str(sample_copy), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["applied"] and data["journal"].endswith("-promote")
    assert main(["history", str(sample_copy), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["operations"][0]["state"] == "applied"
    assert main(["undo", str(sample_copy)]) == 0
    assert snapshot(sample_copy) == before


def test_cli_refusals_are_exit_2(capsys, sample_copy):
    assert main(["promote", "validation/2026-11-18-c0ffee.md", "--to", "../x.md", "--index",
                 "skills-ci-index.md", "--store", str(sample_copy)]) == 2
    assert "leaves the store" in capsys.readouterr().err
    # nothing to undo is an answer, not an error (issue 15)
    assert main(["undo", str(sample_copy)]) == 0
    assert "nothing to undo" in capsys.readouterr().out
    assert main(["undo", str(sample_copy), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["undone"] is None
    with pytest.raises(SystemExit) as exc:
        main(["prune", str(sample_copy), "--older-than", "soon"])
    assert exc.value.code == 2 and "not an age" in capsys.readouterr().err


def test_journal_is_ignored_by_the_loader(sample_copy):
    store = load(sample_copy)
    apply_plan(sample_copy, plan_prune(store))
    assert (sample_copy / ".curator/.gitignore").exists()
    after = load(sample_copy)
    assert not any(p.startswith(".curator") for p in after.records)
    assert os.path.exists(sample_copy / ".curator/archive/validation/2026-09-30-ci-cache-key.md")
