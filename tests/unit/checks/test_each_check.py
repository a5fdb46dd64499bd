"""A clean tiered store is silent, and the cases a rule's case file (tests/rules/) cannot hold:
symbolic links, a file too large to read, the sample store reporting every tiered check."""

from __future__ import annotations

import os

from curator.base.tokens import FakeTokenCounter, default_counter
from curator.checks import CHECKS, run_checks
from curator.checks.registry import INSTRUCTION_IDS
from curator.model import load_store
from curator.model.formats import SERENA_TIERED

# this file breaks a tiered Serena store; format-specific checks are in test_format_checks.py
# (the instruction-file checks are the repository's, not a store's: tests/unit/context/);
# duplicate.topic needs the semantic source (an encoder): test_topical_checks.py gives it one
# store.superseded and duplicate.name are not in the bundled sample (files added there would move every
# screen's snapshot): their case files in tests/rules/ and test_memory_fixes.py show them
NOT_IN_SAMPLE = {"duplicate.topic", "store.superseded", "duplicate.name"}
TIERED_CHECKS = sorted(c for c, spec in CHECKS.items()
                       if spec.applies_to(SERENA_TIERED) and c not in INSTRUCTION_IDS and c not in NOT_IN_SAMPLE)
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
