"""The newcomer walk (issue 33): the README's quick start in a fresh copy of the checkout with an
empty home folder, at 80×24 — `curator` opens the demo (its private copy, with its banner), the
header counts as `curator check` does, MEMORY.md has one start-up number on every screen, every
screen's F1 and every dialog fit, and a fix from the app writes nothing curator ships.

The walk runs in a subprocess (`newcomer_walk.py`) with the copy as its current folder and first
on its path, as the README's `pip install -e .` there makes it, so nothing of this process (its
imports, its user folders) leaks in."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).resolve().parents[2]


def _fresh_copy(dest: Path) -> Path:
    """The checkout as a fresh clone would hold it: its files (tracked, and new ones git does not
    ignore), committed in a repository of their own, so `git status` says what the walk wrote."""
    if (CHECKOUT / ".git").exists():
        names = subprocess.run(["git", "-C", str(CHECKOUT), "ls-files", "-co", "--exclude-standard", "-z"],
                               capture_output=True, text=True, check=True).stdout.split("\0")
    else:  # (a tarball: its files, caches aside)
        names = [str(p.relative_to(CHECKOUT)) for p in CHECKOUT.rglob("*")
                 if p.is_file() and "__pycache__" not in p.parts and ".pytest_cache" not in p.parts]
    for name in filter(None, names):
        src = CHECKOUT / name
        if src.is_file() or src.is_symlink():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name, follow_symlinks=False)
    for argv in (["init", "-q"], ["add", "-A"], ["-c", "user.name=n", "-c", "user.email=n@x", "commit", "-qm", "clone"]):
        subprocess.run(["git", "-C", str(dest), *argv], check=True, capture_output=True)
    return dest


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_newcomer_sees_the_demo_and_one_number_per_thing(tmp_path):
    clone = _fresh_copy(tmp_path / "curator")
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CURATOR_", "CLAUDE_", "XDG_"))}
    env.update(HOME=str(home), PYTHONPATH=str(clone), COLUMNS="80", LINES="24", TERM="xterm-256color",
               # quiet, repeatable: no file watcher thread, no background embedding of the demo
               CURATOR_NO_WATCH="1", CURATOR_NO_SEMANTIC="1", CURATOR_TODAY="2026-11-20")
    env.pop("NO_COLOR", None)
    if os.environ.get("CURATOR_TEST_EVERY_FRAME"):
        env["CURATOR_TEST_EVERY_FRAME"] = "1"  # (tests/textual_patches.py)
    run = subprocess.run([sys.executable, str(clone / "tests" / "pilot" / "newcomer_walk.py")], cwd=clone, env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert Path(report["curator"]).is_relative_to(clone)  # the clone's own curator ran

    # the README's `curator` in the checkout opens the demo: its private copy, with its banner
    opened = report["opened"]
    assert not opened["instructions_only"] and opened["is_sample"]
    assert Path(opened["root"]).is_relative_to(home)  # in the user data folder, never the checkout
    assert report["sample_memories_opens"] == opened["root"]
    assert "the demo" in report["banner"]

    # the header counts as `curator check --format json` on the same copy counts
    check = report["check"]
    counts = f"✖{check['errors']} ▲{check['warnings']} ●{check['infos']}"
    assert counts in report["header_after_fix"], (counts, report["header_after_fix"])
    assert f"{check['files']} files" in report["header_after_fix"]
    for mode, seen in report["screens"].items():
        assert seen["help_fits"], f"F1 on {mode} does not fit 80×24"

    # one start-up number for MEMORY.md: it is imported, so the whole file, on every face
    n = report["numbers"]["startup_of"]
    assert n == report["numbers"]["memory_md_record"]
    assert report["check_startup"][".claude/memory"] == n and report["tokens_startup"][".claude/memory"] == n
    assert report["context_memory_md"] == [n] and report["screens"]["context"]["memory_md"] == [n]
    assert f"{n:,} tokens" in report["screens"]["budgets"]["text"]
    block = report["numbers"]["overview"].split("\n.claude/memory  Claude Code memory", 1)[1].split("\ndocs  ", 1)[0]
    assert f"start-up: {n:,} tokens" in block and "cap" not in block  # imported: no cap, nothing past it

    for name, tokens in report["numbers"]["sources"].items():  # and one for each memory system
        assert f"start-up: {tokens:,} tokens" in report["numbers"]["overview"], name
        assert f"{tokens:,} tokens" in report["screens"]["budgets"]["text"], name
    for name, tokens in report["numbers"]["sources_after_fix"].items():  # after the fix, as the CLI then sees it
        assert report["check_startup"][name] == tokens == report["tokens_startup"][name], name
        assert f"start-up: {tokens:,} tokens" in report["numbers"]["overview_after_fix"], name

    # every dialog opens and fits; a fix says where it writes
    assert report["dialogs"] == {"promote": True, "keywords": True, "history": True, "diff": True}
    assert "writes to" in report["diff_writes_to"]

    # nothing curator ships was written: the copy's git status is clean, no journal in it
    status = subprocess.run(["git", "-C", str(clone), "status", "--porcelain"], capture_output=True, text=True).stdout
    assert status == "", status
    assert not list(clone.rglob(".curator"))
