"""A finding's identity across a comparison (issue 23): renames, moves and reordered indexes
give 0 new findings in `review`, `check --changed` and `baseline`; a real regression gives 1."""

from __future__ import annotations

import json

from curator.base.tokens import EstimateCounter
from curator.cli import main
from curator.model import load_store
from curator.model.findings import Finding, Severity
from curator.review import review_repository
from curator.review.identity import Renamer, fingerprints

C, S = ".claude/memory", ".serena/memories"


def introduced(repo, folder=C):
    r = review_repository(repo.root / folder, "HEAD", token_counter=EstimateCounter())
    return [f for s in r.stores for f in s.introduced], [f for s in r.stores for f in s.resolved]


def test_a_broken_link_leaving_the_store_on_both_sides_is_not_new(repo):
    # MEMORY.md links a repository file that is gone: broken before and after the change
    repo.edit(f"{C}/MEMORY.md", "# Memory\n", "# Memory\nSee [the guide](../../docs/guide.md).\n")
    repo.edit(f"{C}/feedback-test-style.md", "Tests assert", "See [guide](../../docs/guide.md). Tests assert")
    repo.commit()
    repo.edit(f"{C}/feedback-small-commits.md", "clear message", "clear message and a body")
    new, gone = introduced(repo)
    assert new == [] and gone == []


def test_a_link_to_a_repository_file_deleted_in_the_change_is_new(repo):
    repo.write("docs/guide.md", "# guide\n")
    repo.edit(f"{C}/feedback-test-style.md", "Tests assert", "See [guide](../../docs/guide.md). Tests assert")
    repo.commit()
    (repo.root / "docs/guide.md").unlink()
    repo.edit(f"{C}/feedback-small-commits.md", "clear message", "clear message and a body")
    new, _ = introduced(repo)
    assert [(f.check, f.path) for f in new] == [("links.broken", "feedback-test-style.md")]


def test_a_pure_rename_carries_its_findings_over(repo):
    # a near-duplicate pair and a store-level note both name the file that is renamed
    body = "Keep each commit to one change with a clear message that says why it was made today.\n"
    repo.write(f"{C}/feedback-commits-again.md", "---\nname: c\ndescription: d\ntype: feedback\n---\n" + body)
    repo.edit(f"{C}/feedback-small-commits.md", "Keep each commit to one change with a clear message.\n", body)
    repo.commit()
    repo.move(f"{C}/feedback-commits-again.md", f"{C}/feedback-commit-size.md")
    new, gone = introduced(repo)
    assert [f.check for f in new] == [] and [f.check for f in gone] == []


def test_a_rename_with_its_index_row_in_a_tiered_store_is_no_new_finding(repo):
    repo.move(f"{S}/auth/auth-token-refresh.md", f"{S}/auth/auth-token-rotation.md")
    repo.edit(f"{S}/skills-auth-index.md", "auth/auth-token-refresh", "auth/auth-token-rotation")
    new, gone = introduced(repo, S)
    assert new == [] and gone == []
    # a real regression beside it is exactly one new finding
    repo.edit(f"{S}/auth/auth-password-hashing.md", "never log them.", "never log them. See [x](auth-gone.md).")
    new, _ = introduced(repo, S)
    assert [(f.check, f.path) for f in new] == [("links.broken", "auth/auth-password-hashing.md")]


def test_reordering_an_index_is_no_new_finding(repo):
    # two rows for one file (a duplicate entry) with different hooks: which one is "again" flips
    repo.edit(f"{C}/MEMORY.md", "- [Test style]", "- [Commits](feedback-small-commits.md) — again\n- [Test style]")
    repo.commit()
    text = repo.read(f"{C}/MEMORY.md").splitlines(keepends=True)
    head, rows = text[:3], text[3:]
    repo.write(f"{C}/MEMORY.md", "".join(head + rows[::-1]))
    new, gone = introduced(repo)
    assert new == [] and gone == []


def test_check_changed_and_baseline_follow_a_rename(repo, capsys):
    store = repo.root / C
    repo.edit(f"{C}/feedback-test-style.md", "Tests assert", "See [x](nowhere.md). Tests assert")
    repo.commit()
    baseline = repo.root / "b.json"
    assert main(["baseline", str(store), "-o", str(baseline)]) == 0
    repo.move(f"{C}/feedback-test-style.md", f"{C}/feedback-testing.md")
    repo.edit(f"{C}/MEMORY.md", "feedback-test-style.md", "feedback-testing.md")
    capsys.readouterr()
    assert main(["check", str(store), "--changed", "--format", "json"]) == 0, capsys.readouterr().out
    capsys.readouterr()
    code = main(["check", str(store), "--baseline", str(baseline), "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["baseline"]["gone"] == []


def test_renamer_rewrites_whole_names_only():
    r = Renamer({"a/data.md": "b/facts.md"})
    assert r.text("see a/data.md and data.md, not metadata.md or data.mdx") == \
        "see b/facts.md and facts.md, not metadata.md or data.mdx"
    assert r.text("mem:data here") == "mem:facts here"


def test_store_level_notes_ignore_their_examples(make_store):
    root = make_store({"a.md": "# a\n", "b.md": "# b\n"})
    store = load_store(root, token_counter=EstimateCounter())
    one = Finding("budget.over", Severity.INFO, ".", "3 of 9 memories are over the budget — largest: a.md (9)")
    two = Finding("budget.over", Severity.INFO, ".", "3 of 9 memories are over the budget — largest: b.md (12)")
    assert fingerprints(store, [one]) == fingerprints(store, [two])


def test_a_folder_of_expired_logs_keeps_its_identity_as_the_count_and_the_oldest_change(make_store):
    from curator.checks import run_checks

    logs = {f"session_2025-12-{d:02d}_10-00.md": f"# Session {d}\n" for d in range(1, 9)}
    root = make_store({"architecture.md": "# Architecture\n", **logs,
                       ".curator.yaml": "tiers:\n  - {glob: 'reflection/**', tier: transient}\n"})  # tiers declared

    def note():
        store = load_store(root, token_counter=EstimateCounter())
        found = [f for f in run_checks(store) if f.check == "transient.expired"]
        assert len(found) == 1
        return fingerprints(store, found)

    before = note()
    (root / "session_2025-12-01_10-00.md").unlink()  # the oldest pruned by hand: 7 left, a new oldest
    (root / "session_2025-12-05_10-00.md").unlink()
    assert note() == before
