"""Write-path edge cases: recovery never overwrites a later edit, removed files leave no dead
routes, promoted records keep working links and sensible keywords, "nothing to do" is exit 0,
and the sample store's check → fix → promote → prune leaves fewer findings and no new ones."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from curator.base.tokens import default_counter
from curator.checks import run_checks
from curator.cli import main
from curator.curation import (
    CurationError,
    NothingToDo,
    apply_plan,
    journal,
    plan_fixes,
    plan_promote,
    plan_prune,
    plan_refresh,
    recover,
)
from curator.curation.draft import rebase_links, remove_link
from curator.curation.lock import locked
from curator.curation.meters import suggest
from curator.curation.quarantine import entries
from curator.model import load_store


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".curator" not in p.relative_to(root).parts
    }


from test_curation import on_every_rename  # noqa: E402


class PowerCut(BaseException):
    """A crash: unlike an OSError, nothing in curator gets to react to it."""


def load(root):
    return load_store(root, token_counter=default_counter())


def counts(findings) -> Counter:
    return Counter(f.check for f in findings)


def keys(findings) -> set:
    """What a finding is about; messages carry numbers (token totals) that legitimately move."""
    return {(f.check, f.path) for f in findings}


# -- recovery -----------------------------------------------------------------------


def test_recovery_keeps_a_file_edited_after_the_crash(sample_copy, monkeypatch):
    """Crash after the first file of a prune was written; the user then edits that file's
    new home by hand. Recovery rolls back the rest and keeps the user's bytes."""
    store = load(sample_copy)
    plan = plan_prune(store)
    created = [sample_copy / e.path for e in plan.edits if e.before is None]

    def flaky(src, dst):  # the power goes at the first rename after one file got its new home
        if any(p.exists() for p in created):
            raise PowerCut()

    on_every_rename(monkeypatch, flaky)
    with pytest.raises(PowerCut):
        apply_plan(sample_copy, plan)
    monkeypatch.undo()
    written = next(e for e in plan.edits if e.after is not None and (sample_copy / e.path).exists())
    (sample_copy / written.path).write_bytes(b"edited by hand after the crash\n")
    done = recover(sample_copy)
    assert len(done) == 1
    assert (sample_copy / written.path).read_bytes() == b"edited by hand after the crash\n"
    entry = entries(sample_copy)[-1]
    assert entry.state == "rolled-back" and entry.meta["kept_external_edits"] == [written.path]
    for e in plan.edits:  # every other file is back to its before state
        if e.path != written.path:
            p = sample_copy / e.path
            assert (p.read_bytes() if p.exists() else None) == e.before


# -- removed files leave no dead routes -----------------------------------------------


def test_prune_of_a_routed_record_drops_its_link_and_adds_no_finding(sample_copy):
    store = load(sample_copy)
    before = run_checks(store)
    plan = plan_prune(store, tier="reflexion", keep=3)
    gone = sorted(e.path for e in plan.edits if e.after is None)
    assert gone == ["reflexion/2026-09-14-migration-lock-timeout.md", "reflexion/2026-10-03-flaky-time-freeze.md"]
    apply_plan(sample_copy, plan)
    l0 = (sample_copy / "memory-index.md").read_text()
    assert "2026-09-14-migration-lock-timeout" not in l0 and "flaky-time-freeze" not in l0
    assert "lock timeout flaky midnight idempotency race worktree venv redis eviction: [2026-10-21-idem" in l0
    after = run_checks(load(sample_copy))
    assert keys(after) - keys(before) == set()


def test_remove_link_keeps_the_other_links_and_commas():
    line = "|kw a b: [x](d/x.md) (10), [y](d/y.md) (20), [z](d/z.md)"
    assert remove_link(line, "d/x.md") == "|kw a b: [y](d/y.md) (20), [z](d/z.md)"
    assert remove_link(line, "d/y.md") == "|kw a b: [x](d/x.md) (10), [z](d/z.md)"
    assert remove_link(line, "d/z.md") == "|kw a b: [x](d/x.md) (10), [y](d/y.md) (20)"


# -- promote ----------------------------------------------------------------------------


def test_promote_rebases_relative_links_to_the_new_folder(make_store):
    root = make_store({
        "memory-index.md": "[Notes]\n|notes: [notes-index](notes-index.md) (0)\n",
        "notes-index.md": "| Keywords | File |\n|---|---|\n| alpha beta | [notes/deep/alpha](notes/deep/alpha.md) |\n",
        "notes/deep/alpha.md": "# Alpha\n",
        "validation/2026-11-10-check.md": "---\ndate: 2026-11-10\nstatus: done\n---\n\n# Check\n\n"
                                         "See [alpha](../notes/deep/alpha.md#usage) and [web](https://x.y/z).\n",
    })
    store = load(root)
    plan = plan_promote(store, "validation/2026-11-10-check.md", "notes/check-alpha.md", "notes-index.md",
                        keywords=["check", "alpha", "gamma", "delta", "epsilon"])
    apply_plan(root, plan)
    text = (root / "notes/check-alpha.md").read_text()
    assert "[alpha](deep/alpha.md#usage)" in text and "[web](https://x.y/z)" in text
    assert "status:" not in text and "source: validation/2026-11-10-check.md" in text
    assert not [f for f in run_checks(load(root)) if f.check == "links.broken"]


def test_rebase_links_is_identity_in_the_same_folder():
    text = "[a](../x.md) [b](y.md)"
    assert rebase_links(text, "git/one.md", "git/two.md") == text
    assert rebase_links(text, "git/one.md", "knowledge/sub/two.md") == "[a](../../x.md) [b](../../git/y.md)"


def test_suggested_keywords_skip_dates_hashes_and_frontmatter(sample_copy):
    store = load(sample_copy)
    rec = store.records["reflexion/2026-11-05-worktree-venv-confusion.md"]
    words = suggest(store, rec.body(), "skills-git-index.md")
    assert words and not [w for w in words if any(ch.isdigit() for ch in w)]
    assert not {"symptoms", "solution", "prevention", "root", "cause", "issue"} & set(words)
    assert {"editable", "imported"} <= set(words)  # what tells this record apart
    plan = plan_promote(store, rec.path, "git/git-worktree-venv.md", "skills-git-index.md", counter=store.counter)
    row = next(e for e in plan.edits if e.path == "skills-git-index.md").after.decode().splitlines()[-1]
    assert "2026" not in row and "c41d77e2" not in row


@pytest.mark.parametrize(
    "dest, message",
    [
        ("validation/still-transient.md", "transient tier"),
        ("git/.hidden/topic.md", "hidden"),
        ("git/../../escape.md", "leaves the store"),
        ("git/sub/../../../escape.md", "leaves the store"),
    ],
)
def test_promote_refuses_non_semantic_hidden_and_escaping_targets(sample_copy, dest, message):
    store = load(sample_copy)
    before = snapshot(sample_copy)
    with pytest.raises(CurationError, match=message):
        plan_promote(store, "validation/2026-11-18-c0ffee.md", dest, "skills-ci-index.md")
    assert snapshot(sample_copy) == before


# -- nothing to do ------------------------------------------------------------------------


def test_nothing_to_do_is_exit_0_not_a_usage_error(capsys, sample_copy):
    store = load(sample_copy)
    apply_plan(sample_copy, plan_refresh(store, run_checks(store)))
    with pytest.raises(NothingToDo):
        plan_refresh(load(sample_copy), run_checks(load(sample_copy)))
    assert main(["refresh", str(sample_copy), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["operation"] == "refresh" and data["files"] == [] and data["applied"] is False
    assert main(["prune", str(sample_copy), "--older-than", "999d"]) == 0
    assert "nothing to do" in capsys.readouterr().out


def test_cli_spellings_of_the_brief(capsys, sample_copy):
    before = snapshot(sample_copy)
    assert main(["promote", "validation/2026-11-14-lint-rollout.md", "--to", "ci/ci-dtz-rules.md", "--index",
                 "skills-ci-index.md", "--source-action", "keep", "--store", str(sample_copy), "--dry-run",
                 "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [f["action"] for f in data["files"] if f["path"] == "ci/ci-dtz-rules.md"] == ["create"]
    assert "validation/2026-11-14-lint-rollout.md" not in {f["path"] for f in data["files"]}
    assert main(["prune", str(sample_copy), "--archive", "--dry-run"]) == 0
    with pytest.raises(SystemExit) as exc:
        main(["prune", str(sample_copy), "--archive", "--delete"])
    assert exc.value.code == 2
    assert snapshot(sample_copy) == before


# -- the whole session on the sample store -------------------------------------------------


def test_sample_check_fix_promote_prune_leaves_fewer_findings_and_no_new_ones(sample_copy):
    store = load(sample_copy)
    before = run_checks(store)
    apply_plan(sample_copy, plan_fixes(store, before, counter=store.counter))
    store = load(sample_copy)
    apply_plan(sample_copy, plan_promote(store, "reflexion/2026-11-05-worktree-venv-confusion.md",
                                         "git/git-worktree-venv.md", "skills-git-index.md", counter=store.counter))
    store = load(sample_copy)
    apply_plan(sample_copy, plan_prune(store, tier="reflexion", keep=3))
    after = run_checks(load(sample_copy))
    assert len(after) < len(before)
    assert keys(after) - keys(before) == set()
    assert all(counts(after)[c] <= n for c, n in counts(before).items())


# -- write failures and concurrent writers --------------------------------------------------


def test_a_failed_write_is_rolled_back_at_once(sample_copy, monkeypatch):
    from curator.curation import WriteFailed

    before = snapshot(sample_copy)
    store = load(sample_copy)
    plan = plan_promote(store, "validation/2026-11-18-c0ffee.md", "api/api-webhook-signing.md",
                        "skills-ci-index.md", counter=store.counter)
    calls = {"n": 0}

    def full(src, dst):
        if ".curator/" not in str(dst).replace("\\", "/"):
            calls["n"] += 1
            if calls["n"] == 2:
                raise OSError(28, "No space left on device")

    on_every_rename(monkeypatch, full)
    with pytest.raises(WriteFailed, match="No space left on device.*rolled back"):
        apply_plan(sample_copy, plan)
    assert snapshot(sample_copy) == before  # no restart needed
    assert entries(sample_copy)[-1].state == "rolled-back"
    assert not list(sample_copy.rglob("*.tmp"))


def test_crash_leftover_temp_files_are_swept_on_recovery(sample_copy, monkeypatch):
    before = snapshot(sample_copy)
    store = load(sample_copy)
    plan = plan_prune(store)
    def crash_keeping_tmp(src, dst):
        if ".curator/journal" not in str(dst).replace("\\", "/") and not str(dst).endswith((".gitignore", ".aside")):
            raise PowerCut()

    on_every_rename(monkeypatch, crash_keeping_tmp)
    monkeypatch.setattr(journal.os, "unlink", lambda p: None)  # the crash leaves the temp file
    with pytest.raises(PowerCut):
        apply_plan(sample_copy, plan)
    monkeypatch.undo()
    assert list(sample_copy.rglob(".*.tmp"))
    recover(sample_copy)
    assert not list(sample_copy.rglob(".*.tmp"))
    assert not list(sample_copy.rglob(".*.aside"))
    assert snapshot(sample_copy) == before  # the file moved aside when the power went is back


def test_a_second_writer_waits_then_is_told_the_store_is_busy(sample_copy):
    from curator.curation import Busy

    store = load(sample_copy)
    plan = plan_prune(store)
    before = snapshot(sample_copy)
    import threading

    seen = []

    def second_writer():  # another thread (the app's worker) or process: it waits, then gives up
        try:
            with locked(sample_copy, wait=0.1):
                seen.append("entered")
        except Busy as exc:
            seen.append(str(exc))

    with locked(sample_copy):
        with locked(sample_copy):  # re-entrant in the thread that holds it
            t = threading.Thread(target=second_writer)
            t.start()
            t.join()
    assert len(seen) == 1 and "another curator is writing" in seen[0]
    assert snapshot(sample_copy) == before
    apply_plan(sample_copy, plan)  # the lock is free again


def test_diff_report_colours_by_line_kind(sample_copy):
    from curator.reports.diff_report import diff_text

    store = load(sample_copy)
    styles = {str(line.style) for line in diff_text(plan_prune(store)).at(200)}
    assert "warning" in styles  # archiving shows as renames
    by_line = [(line.plain, str(line.style)) for line in diff_text(plan_refresh(store, run_checks(store))).at(200)]
    assert all(style == "success" for line, style in by_line if line.startswith("+") and not line.startswith("+++"))
    assert all(style == "error" for line, style in by_line if line.startswith("-") and not line.startswith("---"))
    assert {"success", "error", "info", "bold"} <= {style for _, style in by_line}  # roles: the theme colours them


def test_archiving_a_name_archived_before_keeps_both(sample_copy):
    path = "validation/2026-09-30-ci-cache-key.md"
    old = (sample_copy / path).read_bytes()
    apply_plan(sample_copy, plan_prune(load(sample_copy)))
    (sample_copy / path).write_text("---\ndate: 2026-09-30\n---\n\n# A second record of that day\n")
    apply_plan(sample_copy, plan_prune(load(sample_copy)))
    archive = sample_copy / ".curator/archive/validation"
    assert (archive / "2026-09-30-ci-cache-key.md").read_bytes() == old
    assert "second record" in (archive / "2026-09-30-ci-cache-key~2.md").read_text()


# -- ADR-002 folders beside the store (.serena/validation next to .serena/memories) -------------


def test_records_of_included_folders_beside_the_store_can_be_pruned_and_promoted(make_store):
    root = make_store({
        "memory-index.md": "[Notes]\n|notes: [notes-index](notes-index.md) (0)\n",
        "notes-index.md": "| Keywords | File |\n|---|---|\n| alpha beta | [notes/alpha](notes/alpha.md) |\n",
        "notes/alpha.md": "# Alpha\n",
        "../validation/2026-01-02-old-check.md": "---\ndate: 2026-01-02\nstatus: done\n---\n\n# Old check\n",
        "../validation/2026-11-19-fresh-check.md": "---\ndate: 2026-11-19\nstatus: done\n---\n\n# Fresh check of gamma\n",
        "../knowledge/.keep.md": "",
    }, name=".serena/memories")
    store = load(root)
    assert "../validation/2026-01-02-old-check.md" in store.records
    before = snapshot(root.parent)
    prune = plan_prune(store)
    assert [e.path for e in prune.edits] == ["../validation/2026-01-02-old-check.md",
                                             ".curator/archive/validation/2026-01-02-old-check.md"]
    apply_plan(root, prune)
    assert not (root.parent / "validation/2026-01-02-old-check.md").exists()
    promote = plan_promote(load(root), "../validation/2026-11-19-fresh-check.md", "../knowledge/gamma-check.md",
                           "notes-index.md", keywords=["gamma", "check", "fresh", "delta", "omega"])
    apply_plan(root, promote)
    assert "# Fresh check of gamma" in (root.parent / "knowledge/gamma-check.md").read_text()
    from curator.curation import undo

    undo(root)
    undo(root)
    assert snapshot(root.parent) == before
    with pytest.raises(CurationError, match="leaves the store"):
        plan_promote(load(root), "../validation/2026-11-19-fresh-check.md", "../elsewhere/x-y.md", "notes-index.md")


@pytest.mark.parametrize("bad", ["a|b", "route:", "[link]", "x(1)"])
def test_keywords_that_would_break_a_row_are_refused(sample_copy, bad):
    from curator.curation import plan_keywords

    store = load(sample_copy)
    with pytest.raises(CurationError, match="break the index row"):
        plan_keywords(store, "skills-review-index.md", "review/review-pr-size.md", ["pr", bad])
    with pytest.raises(CurationError, match="break the index row"):
        plan_promote(store, "validation/2026-11-18-c0ffee.md", "api/api-webhook-signing.md", "skills-ci-index.md",
                     keywords=["webhook", bad])


def test_keywords_are_split_lowercased_and_deduplicated(sample_copy):
    from curator.curation import plan_keywords

    store = load(sample_copy)
    plan = plan_keywords(store, "skills-review-index.md", "review/review-pr-size.md",
                         ["PR size, split", "pr stacked"])
    line = next(ln for ln in plan.edits[0].after.decode().splitlines() if "review-pr-size" in ln)
    assert line.startswith("| pr size split stacked |")


def test_promote_extends_the_l0_row_closest_in_words_with_a_counted_link(sample_copy):
    store = load(sample_copy)
    apply_plan(sample_copy, plan_promote(store, "reflexion/2026-11-05-worktree-venv-confusion.md",
                                         "git/git-worktree-venv.md", "skills-git-index.md", counter=store.counter))
    after = load(sample_copy)
    row = next(r for r in after.l0.rows if any(lk.target == "git/git-worktree-venv.md" for lk in r.links))
    assert "worktree" in row.keyword_set  # the worktree row, not the first git row
    link = next(lk for lk in row.links if lk.target == "git/git-worktree-venv.md")
    assert link.count == after.records["git/git-worktree-venv.md"].tokens
    stale = [f for f in run_checks(after, {"tokens.stale-count"}) if f.target in ("git/git-worktree-venv.md", "skills-git-index.md")]
    assert stale == []


def test_promoting_a_routed_record_links_the_new_memory_once(sample_copy):
    store = load(sample_copy)
    before = run_checks(store)
    plan = plan_promote(store, "reflexion/2026-09-14-migration-lock-timeout.md", "db/db-migration-lock-timeout.md",
                        "database-index.md", counter=store.counter)
    apply_plan(sample_copy, plan)
    l0 = (sample_copy / "memory-index.md").read_text()
    assert l0.count("](db/db-migration-lock-timeout.md)") == 1
    assert (sample_copy / "database-index.md").read_text().count("db/db-migration-lock-timeout.md)") == 1
    after = run_checks(load(sample_copy))
    assert keys(after) - keys(before) == set()
