"""Did a session see the bytes the model counts? The same file (its frontmatter or HTML comments
left out count as the same), the file as it was at the commit the session ran on (changed since),
other bytes, or bytes the agent itself said differ from the disk."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from curator.base.tokens import FakeTokenCounter
from curator.proof import prove
from curator.transcripts import SessionIndex

from .sessions import Session, sid

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(repo, *args, date="2026-11-01T10:00:00+00:00"):
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@x",
           "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date, "PATH": "/usr/bin:/bin", "HOME": str(repo)}
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


@needs_git
def test_the_bytes_a_session_saw(tmp_path):
    repo = tmp_path / "repo"
    (repo / ".claude" / "rules").mkdir(parents=True)
    old, new = "# Rules\nRun make test.\n", "# Rules\nRun make check.\n"
    (repo / "CLAUDE.md").write_text(old)
    rule = "---\npaths: [\"src/**\"]\n---\nKeep functions short.\n"
    (repo / ".claude" / "rules" / "src.md").write_text(rule)
    (repo / "src").mkdir()
    (repo / "src" / "a.py").write_text("x\n")
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "one")
    (repo / "CLAUDE.md").write_text(new)
    _git(repo, "commit", "-q", "-am", "two", date="2026-11-20T10:00:00+00:00")
    r = str(repo)
    before = Session(sid(1), r, "2.1.300", "2026-11-10").instructions([(f"{r}/CLAUDE.md", "Project", old)])
    before.prompt("x").read("src/a.py").nested(f"{r}/.claude/rules/src.md", "Keep functions short.\n",
                                               globs=["src/**"])  # its body only: the same file
    other = Session(sid(2), r, "2.1.300", "2026-11-21").instructions(
        [(f"{r}/CLAUDE.md", "Project", "# Rules\nsomething else\n")]).prompt("y").say("z")
    edited = Session(sid(3), r, "2.1.300", "2026-11-22").instructions([(f"{r}/CLAUDE.md", "Project", new)])
    edited.prompt("x").read("src/a.py").nested(f"{r}/.claude/rules/src.md", "Keep functions short!\n",
                                               globs=["src/**"], differs=True)
    for s in (before, other, edited):
        s.write(tmp_path / "projects")
    index = SessionIndex.for_repo(repo, [tmp_path / "projects"], use_cache=False)
    proof = prove(repo, index.build(), env={"HOME": str(tmp_path), "CI": ""}, home=str(tmp_path),
                  token_counter=FakeTokenCounter())
    rows = {(c.evidence.session_id, r.path): r for c in proof.checks for r in c.rows}
    assert rows[(sid(1), "CLAUDE.md")].bytes == "changed since"  # the file at the commit it ran on
    assert "changed since the session" in rows[(sid(1), "CLAUDE.md")].detail
    assert rows[(sid(1), ".claude/rules/src.md")].bytes == "same"
    assert rows[(sid(2), "CLAUDE.md")].bytes == "differs" and "and at" in rows[(sid(2), "CLAUDE.md")].detail
    assert rows[(sid(3), "CLAUDE.md")].bytes == "same"
    assert rows[(sid(3), ".claude/rules/src.md")].bytes == "differs"
    assert all(r.status == "matched" for r in rows.values())  # other bytes are no model error
    assert not proof.findings
