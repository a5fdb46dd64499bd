"""`curator context` (and `check` on instruction files) replay their kept output only while
nothing they read or listed changed: an edited import, a new rule, a user-level file."""

from __future__ import annotations

import json

import pytest

from curator.base import kept
from curator.checks import replay
from curator.cli import main


@pytest.fixture
def trusting(monkeypatch, tmp_path):
    """Files written by the test are seconds old; let the racy rule trust them."""
    monkeypatch.setattr(kept, "RACY_SLACK_NS", -3600 * 10**9)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CI", raising=False)


def run(capsys, *argv):
    argv = list(argv)
    code, run = replay.begin(argv)
    replayed = code is not None
    if not replayed:
        code = main(argv, kept=run)
    return replayed, code, capsys.readouterr().out


def tokens(out: str) -> int:
    return {a["agent"]: a for a in json.loads(out)["agents"]}["claude-code"]["startup"]["tokens"]


def test_context_replays_until_an_instruction_file_changes(capsys, tmp_path, trusting):
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "CLAUDE.md").write_text("# P\n@docs/a.md\n")
    (root / "docs" / "a.md").write_text("alpha\n")
    argv = ("context", str(root), "--format", "json")
    first = run(capsys, *argv)
    assert not first[0] and run(capsys, *argv) == (True, *first[1:])
    (root / "docs" / "a.md").write_text("alpha beta gamma delta\n")  # an imported file
    edited = run(capsys, *argv)
    assert not edited[0] and tokens(edited[2]) > tokens(first[2])
    assert run(capsys, *argv)[0]
    (root / ".claude" / "rules").mkdir(parents=True)  # a new folder and rule
    (root / ".claude" / "rules" / "r.md").write_text("always loaded rule\n")
    added = run(capsys, *argv)
    assert not added[0] and ".claude/rules/r.md" in added[2]
    (tmp_path / "home" / ".claude").mkdir(parents=True)  # a user-level file appears
    (tmp_path / "home" / ".claude" / "CLAUDE.md").write_text("mine\n")
    user = run(capsys, *argv)
    assert not user[0] and "~/.claude/CLAUDE.md" in user[2]


def test_check_replay_sees_an_instruction_edit(capsys, tmp_path, trusting):
    root = tmp_path / "repo"
    (root / ".serena" / "memories").mkdir(parents=True)
    (root / ".serena" / "memories" / "note.md").write_text("# Note\n")
    (root / "CLAUDE.md").write_text("@docs/gone.md\n")
    (root / "docs").mkdir()
    argv = ("check", str(root), "--format", "json")
    first = run(capsys, *argv)
    assert [f["check"] for f in json.loads(first[2])["findings"]].count("instructions.import-broken") == 1
    assert run(capsys, *argv)[0]
    (root / "docs" / "gone.md").write_text("back\n")
    fixed = run(capsys, *argv)
    assert not fixed[0] and "instructions.import-broken" not in fixed[2]
