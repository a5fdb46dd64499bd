"""Real temporary git repositories (the real `git` executable) holding small memory stores."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).parent


def pytest_collection_modifyitems(config, items):
    """Without git every test here is skipped (a conftest's `pytestmark` marks nothing)."""
    if shutil.which("git") is not None:
        return
    for item in items:
        if HERE in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.skip(reason="needs git"))

INDEX = "| Keywords | File |\n|---|---|\n"

# a tiered Serena store: L0 → one strict domain index → memories, plus a transient record
SERENA = {
    "memory-index.md": "[Auth]\n|auth login token password: [skills-auth-index](skills-auth-index.md) (0)\n",
    "skills-auth-index.md": INDEX
    + "| oauth login token refresh expiry rotation | [auth/auth-token-refresh](auth/auth-token-refresh.md) |\n"
    + "| password hash bcrypt salt rounds cost | [auth/auth-password-hashing](auth/auth-password-hashing.md) |\n",
    "auth/auth-token-refresh.md": "# Token refresh\n\nAccess tokens expire after one hour; the client calls the refresh "
    "endpoint with the refresh token and stores the rotated pair.\n",
    "auth/auth-password-hashing.md": "# Password hashing\n\nHash passwords with bcrypt at cost twelve; never log them.\n",
    "reflection/2026-11-01-cache-warmup.md": "---\ndate: 2026-11-01\ntask: cache\ntarget: api\nstatus: done\n---\n"
    "# Cache warm-up\n\nWarming the cache at start-up halves the first request latency of the search service.\n",
}

# a Claude Code memory folder: MEMORY.md link list + topic files with frontmatter
CLAUDE = {
    "MEMORY.md": "# Memory\n\n## Feedback\n- [Small commits](feedback-small-commits.md) — keep commits small\n"
    "- [Test style](feedback-test-style.md) — tests assert behaviour\n",
    "feedback-small-commits.md": "---\nname: small commits\ndescription: commit style\ntype: feedback\n---\n"
    "Keep each commit to one change with a clear message.\n",
    "feedback-test-style.md": "---\nname: test style\ndescription: how tests look\ntype: feedback\n---\n"
    "Tests assert behaviour, never implementation details.\n",
}


class Repo:
    def __init__(self, root: Path) -> None:
        self.root = root

    def git(self, *args: str) -> str:
        return subprocess.run(["git", *args], cwd=self.root, check=True, capture_output=True, text=True).stdout

    def write(self, rel: str, text: str) -> Path:
        p = self.root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
        return p

    def read(self, rel: str) -> str:
        return (self.root / rel).read_text(encoding="utf-8")

    def edit(self, rel: str, old: str, new: str) -> None:
        text = self.read(rel)
        assert old in text, f"{old!r} not in {rel}"
        self.write(rel, text.replace(old, new))

    def move(self, old: str, new: str) -> None:
        (self.root / new).parent.mkdir(parents=True, exist_ok=True)
        (self.root / old).rename(self.root / new)

    def commit(self, message: str = "commit") -> None:
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)


@pytest.fixture
def repo(tmp_path, monkeypatch) -> Repo:
    """A repository with a Serena store and a Claude memory folder, committed."""
    root = tmp_path / "repo"
    root.mkdir()
    for var, value in (("GIT_AUTHOR_NAME", "t"), ("GIT_AUTHOR_EMAIL", "t@example.com"),
                       ("GIT_COMMITTER_NAME", "t"), ("GIT_COMMITTER_EMAIL", "t@example.com"),
                       ("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig")), ("GIT_CONFIG_NOSYSTEM", "1")):
        monkeypatch.setenv(var, value)
    r = Repo(root)
    r.git("init", "-q", "-b", "main")
    for rel, text in SERENA.items():
        r.write(f".serena/memories/{rel}", text)
    for rel, text in CLAUDE.items():
        r.write(f".claude/memory/{rel}", text)
    r.write("README.md", "# project\n")
    r.commit("init")
    return r
