"""Every check id fires on a store made to break it, and stays silent on a clean store."""

from __future__ import annotations

import os

import pytest

from curator.checks import CHECKS, run_checks
from curator.model import load_store
from curator.model.formats import SERENA_TIERED
from curator.tokens import FakeTokenCounter, default_counter

# this file breaks a tiered Serena store; format-specific checks are in test_format_checks.py
# duplicate.topic needs the semantic source (an encoder): test_topical_checks.py gives it one
TIERED_CHECKS = sorted(c for c, spec in CHECKS.items() if spec.applies_to(SERENA_TIERED) and c != "duplicate.topic")
KW = "rebase interactive autosquash fixup squash reword reflog onto"
KW2 = "worktree parallel checkout hotfix branch prune remove venv"


def memory(title: str, words: str) -> str:
    return f"# {title}\n\n{words} " * 3 + "\n"


def clean_files() -> dict[str, str]:
    fake = FakeTokenCounter()
    files = {
        "skills-git-index.md": (
            "| Keywords | File |\n|---|---|\n"
            f"| {KW} | [git/git-rebase](git/git-rebase.md) |\n"
            f"| {KW2} | [git/git-worktree](git/git-worktree.md) |\n"
        ),
        "git/git-rebase.md": memory("Rebase", "Use interactive rebase with autosquash to tidy fixups."),
        "git/git-worktree.md": memory("Worktree", "A second checkout for hotfix work, see [rebase](git-rebase.md)."),
        "knowledge/architecture.md": "# Architecture\n\nOne API, one worker, one database.\n",
        "reflection/2026-11-15-session.md": "---\ndate: 2026-11-15\nsession_id: a1\n---\n# Reflection\n",
    }
    idx = files["skills-git-index.md"]
    files["memory-index.md"] = (
        "[Git]\n"
        f"|git rebase worktree: [skills-git-index](skills-git-index.md) ({fake.count(idx)})\n"
    )
    return files


def findings_for(make_store, files, **kw):
    root = make_store(files)
    store = load_store(root, token_counter=FakeTokenCounter())
    return run_checks(store, **kw)


def test_clean_store_is_silent(make_store):
    found = findings_for(make_store, clean_files())
    assert [(f.check, f.path, f.message) for f in found] == []


def _mutate(name):
    files = clean_files()
    idx = files["skills-git-index.md"]
    if name == "index.missing-target":
        files["skills-git-index.md"] = idx.replace("(git/git-rebase.md)", "(git/git-rebase-old.md)")
    elif name == "index.unsafe-target":
        files["skills-git-index.md"] = idx + "| a b c d e f | [x](../outside.md) |\n"
    elif name == "index.format":
        files["skills-git-index.md"] = "# Git index\n\n" + idx
    elif name == "index.duplicate-entry":
        files["skills-git-index.md"] = idx + "| other words here now five | [git/git-rebase](git/git-rebase.md) |\n"
    elif name == "index.unrouted":
        files["frontend-index.md"] = "| Keywords | File |\n|---|---|\n| a b c d e | [k](knowledge/architecture.md) |\n"
    elif name == "naming.skill-prefix":
        files["git/skill-rebase.md"] = files.pop("git/git-rebase.md")
        files["skills-git-index.md"] = idx.replace("git/git-rebase", "git/skill-rebase")
    elif name == "naming.case":
        files["git/GitRebase.md"] = files.pop("git/git-rebase.md")
        files["skills-git-index.md"] = idx.replace("git/git-rebase", "git/GitRebase")
        files["git/git-worktree.md"] = files["git/git-worktree.md"].replace("git-rebase.md", "GitRebase.md")
    elif name == "keywords.uniqueness":
        files["skills-git-index.md"] = idx.replace(KW2, KW.rsplit(" ", 2)[0] + " worktree hotfix")
    elif name == "keywords.too-few":
        files["skills-git-index.md"] = idx.replace(KW2, "worktree hotfix")
    elif name == "keywords.collision":
        files["skills-misc-index.md"] = (
            "| Keywords | File |\n|---|---|\n" f"| {KW} extra | [k](knowledge/architecture.md) |\n"
        )
        files["memory-index.md"] += "|misc: [skills-misc-index](skills-misc-index.md)\n"
    elif name == "orphan.unindexed":
        files["git/git-stash.md"] = memory("Stash", "git stash push with a message")
    elif name == "size.chars":
        files["git/git-rebase.md"] += "word " * 2100
    elif name == "size.headings":
        files["git/git-rebase.md"] += "".join(f"## H{i}\n" for i in range(16))
    elif name == "frontmatter.invalid":
        files["git/git-rebase.md"] = "---\ntitle: never closed\n" + files["git/git-rebase.md"]
    elif name == "tokens.stale-count":
        files["memory-index.md"] = files["memory-index.md"].rsplit("(", 1)[0] + "(1)\n"
    elif name == "budget.over":
        files[".curator.yaml"] = "budgets:\n  memory: 5\n"
    elif name == "duplicate.near":
        files["git/git-rebase-copy.md"] = files["git/git-rebase.md"]
        files["skills-git-index.md"] = idx + "| copy of rebase notes kept twice here | [c](git/git-rebase-copy.md) |\n"
    elif name == "links.broken":
        files["git/git-worktree.md"] = files["git/git-worktree.md"].replace("git-rebase.md", "git-rebasing.md")
    elif name == "transient.expired":
        files["reflection/2026-09-01-old.md"] = "---\ndate: 2026-09-01\n---\n# Old\n"
    elif name == "parse.error":
        files["git/git-latin.md"] = "caf\xe9".encode("latin-1")
    else:  # pragma: no cover - a new check id without a case here fails the test below
        raise KeyError(name)
    return files


@pytest.mark.parametrize("check", TIERED_CHECKS)
def test_each_check_fires(make_store, check):
    found = findings_for(make_store, _mutate(check))
    assert check in {f.check for f in found}, [(f.check, f.message) for f in found]


@pytest.mark.parametrize("check", TIERED_CHECKS)
def test_only_filters_to_one_check(make_store, check):
    found = findings_for(make_store, _mutate(check), only=[check])
    assert found and {f.check for f in found} == {check}


def test_skill_prefix_is_judged_on_the_basename(make_store):
    files = clean_files()
    files["skill-notes/git-x.md"] = memory("X", "a folder named skill-notes is fine")
    files["skills-git-index.md"] += "| folder prefix is not a file prefix | [x](skill-notes/git-x.md) |\n"
    found = findings_for(make_store, files, only=["naming.skill-prefix"])
    assert found == []


def test_symlink_loop_and_escape_are_reported_not_fatal(make_store, tmp_path):
    root = make_store(clean_files())
    outside = tmp_path / "secret.md"
    outside.write_text("secret\n")
    os.symlink(outside, root / "git" / "leak.md")
    os.symlink(root / "git", root / "git" / "loop")
    store = load_store(root, token_counter=FakeTokenCounter())
    found = run_checks(store)
    assert "git/leak.md" not in store.records or not store.records["git/leak.md"].readable
    assert any(f.path.startswith("git/") for f in found)


def test_large_file_is_a_parse_error(make_store):
    files = clean_files()
    files["git/git-huge.md"] = "x" * (10 * 1024 * 1024)
    found = findings_for(make_store, files, only=["parse.error"])
    assert [f.path for f in found] == ["git/git-huge.md"]


def test_sample_store_reports_every_tiered_check_id(sample_copy):
    store = load_store(sample_copy, token_counter=default_counter())
    ids = {f.check for f in run_checks(store)}
    assert ids == set(TIERED_CHECKS)
