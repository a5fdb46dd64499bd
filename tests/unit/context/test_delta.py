"""Each agent's start-up change against a git revision (what review reports)."""

from __future__ import annotations

import subprocess

from curator.base.tokens import FakeTokenCounter
from curator.context import build_context
from curator.review.agent_startup import model_at, startup_changes


def git(root, *args):
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def test_start_up_change_per_agent_against_head(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    (root / "CLAUDE.md").write_text("one two three\n")
    (root / "AGENTS.md").write_text("codex words here\n")
    git(root, "init", "-q")
    git(root, "-c", "user.email=a@b.c", "-c", "user.name=a", "add", "-A")
    git(root, "-c", "user.email=a@b.c", "-c", "user.name=a", "commit", "-qm", "first")
    (root / "CLAUDE.md").write_text("one two three four five\n")
    (root / ".claude" / "rules").mkdir(parents=True)
    (root / ".claude" / "rules" / "api.md").write_text("api rule words\n")
    env = {"HOME": str(tmp_path / "home")}
    before = model_at(root, "HEAD", token_counter=FakeTokenCounter(), env=env)
    after = build_context(root, token_counter=FakeTokenCounter(), env=env)
    changes = startup_changes(before, after)
    assert [c.line() for c in changes] == ["claude-code start-up +5 tokens: .claude/rules/api.md new +3, CLAUDE.md +2"]
    assert changes[0].to_json()["delta"] == 5
