"""A memory store nested two folders down (`tools/baez/.serena/memories`) is counted the same on
every screen: `curator check`, `curator tokens`, `curator review` and the app's header all leave
it out until the repository's `.curator.yaml` adds it, then all list it (discover's rules)."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from curator.base.tokens import FakeTokenCounter
from curator.cli import main
from curator.model.sources import discover
from curator.tui.app import make_app

from .conftest import settle

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


@pytest.fixture
def nested_repo(tmp_path, monkeypatch):
    for var, value in (("GIT_AUTHOR_NAME", "t"), ("GIT_AUTHOR_EMAIL", "t@example.com"),
                       ("GIT_COMMITTER_NAME", "t"), ("GIT_COMMITTER_EMAIL", "t@example.com"),
                       ("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig")), ("GIT_CONFIG_NOSYSTEM", "1"),
                       ("HOME", str(tmp_path / "home"))):
        monkeypatch.setenv(var, value)
    monkeypatch.setenv("CURATOR_TOKENS", "estimate")
    root = tmp_path / "repo"
    for rel, text in ((".serena/memories/deploy.md", "# Deploy\n\nDeploy with the blue-green script.\n"),
                      ("tools/baez/.serena/memories/fixture.md", "# Fixture\n\nA store the tool's tests use.\n"),
                      ("README.md", "# project\n")):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=root, check=True)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run(["git", "commit", "-q", "-m", "init"], cwd=root, check=True)
    # a change in each store, so review has something to list in both
    (root / ".serena/memories/deploy.md").write_text("# Deploy\n\nDeploy with blue-green; roll back fast.\n")
    (root / "tools/baez/.serena/memories/other.md").write_text("# Other\n\nA second fixture record.\n")
    return root


def _cli_sources(capsys, *argv) -> list[str]:
    assert main([*argv, "--format", "json"]) in (0, 1)
    data = json.loads(capsys.readouterr().out)
    return sorted(s.get("name") or s["source"] for s in data["sources"])


async def _app_sources(root) -> tuple[list[str], str]:
    app = make_app(root, given="repo", token_counter=FakeTokenCounter(), theme="curator-dark",
                   remember_theme=False, layout=discover(root))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        title = app.screen._title(app.workbench)
        return sorted(s.spec.rel for s in app.workbench.sources), title


@pytest.mark.parametrize("added", [False, True])
async def test_every_face_lists_the_same_memory_systems(capsys, nested_repo, added):
    if added:
        (nested_repo / ".curator.yaml").write_text("sources:\n  add:\n    - tools/baez/.serena/memories\n")
    want = [".serena/memories", "tools/baez/.serena/memories"] if added else [".serena/memories"]
    assert _cli_sources(capsys, "check", str(nested_repo)) == want
    assert _cli_sources(capsys, "tokens", str(nested_repo)) == want
    assert _cli_sources(capsys, "review", str(nested_repo)) == want
    shown, title = await _app_sources(nested_repo)
    assert shown == want
    assert title.endswith("2 memory systems" if added else "Serena")


def test_experience_folders_are_one_memory_system_everywhere(capsys, nested_repo):
    """docs/error-experience and docs/good-experience are the one experience system the header
    counts, so review lists `docs` once (it listed each folder: 2 sources where check said 1)."""
    for kind in ("error", "good"):
        entry = nested_repo / "docs" / f"{kind}-experience" / "entries" / f"2026-11-01-{kind}.md"
        entry.parent.mkdir(parents=True)
        entry.write_text(f"# {kind}\n\nWhat happened with the {kind} deploy.\n")
    want = [".serena/memories", "docs"]
    assert _cli_sources(capsys, "check", str(nested_repo)) == want
    assert _cli_sources(capsys, "tokens", str(nested_repo)) == want
    assert _cli_sources(capsys, "review", str(nested_repo)) == want
