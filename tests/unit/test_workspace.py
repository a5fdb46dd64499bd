"""Re-checking one edited file gives the same findings as checking the whole store again."""

from __future__ import annotations

from curator.checks import run_checks
from curator.live.workspace import open_workspace
from curator.model import load_store
from curator.tokens import default_counter


def keys(findings):
    return sorted((f.check, f.path, f.line, f.message) for f in findings)


def test_incremental_recheck_matches_a_full_run(sample_copy):
    ws = open_workspace(sample_copy, token_counter=default_counter())
    edits = {
        "git/git-lfs-fixtures.md": lambda t: t + "\n" + "## Extra\n" * 16 + "see [gone](nowhere.md)\n",
        "git/git-signed-commits.md": lambda t: (sample_copy / "git/git-interactive-rebase.md").read_text(),
        "frontend/frontend-a11y-checklist.md": lambda t: t[:2000],
        "memory-index.md": lambda t: t.replace("(212)", "(999)"),
    }
    for path, edit in edits.items():
        p = sample_copy / path
        p.write_text(edit(p.read_text()))
        ws = ws.recheck(path)
        full = run_checks(load_store(sample_copy, token_counter=default_counter()))
        assert keys(ws.findings) == keys(full), path


def test_recheck_of_a_deleted_file(sample_copy):
    ws = open_workspace(sample_copy, token_counter=default_counter())
    (sample_copy / "git/git-lfs-fixtures.md").unlink()
    ws = ws.recheck("git/git-lfs-fixtures.md")
    assert "git/git-lfs-fixtures.md" not in ws.store.records
    assert any(f.check == "index.missing-target" and f.target == "git/git-lfs-fixtures.md" for f in ws.findings)


def test_every_kind_of_change_matches_a_full_run(sample_copy):
    """Additions, deletions, renames and index edits re-run only the checks that read what
    changed (CheckSpec.reads); the result is what a whole new run finds."""
    ws = open_workspace(sample_copy, token_counter=default_counter())
    index = sample_copy / "memory-index.md"
    steps = [
        ("add", "git/git-new-thing.md", "# New\nsee [lfs](git-lfs-fixtures.md) and mem:nowhere\n"),
        ("add", "notes-index.md", "| Keywords | File |\n|---|---|\n| a b | [git/git-new-thing](git/git-new-thing.md) |\n"),
        ("delete", "git/git-lfs-fixtures.md", None),
        ("rename", "git/git-signed-commits.md", "git/GitSigned.md"),
        ("edit", "memory-index.md", index.read_text().replace("(212)", "(7)") + "| zz: [gone](gone.md) (1)\n"),
        ("delete", "notes-index.md", None),
    ]
    for op, path, arg in steps:
        target = sample_copy / path
        changed = [path]
        if op in ("add", "edit"):
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(arg)
        elif op == "delete":
            target.unlink()
        else:
            target.rename(sample_copy / arg)
            changed.append(arg)
        ws = ws.recheck(changed)
        full = run_checks(load_store(sample_copy, token_counter=default_counter()))
        assert keys(ws.findings) == keys(full), (op, path)
