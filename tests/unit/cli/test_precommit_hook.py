"""The shipped `.pre-commit-hooks.yaml`, run by the real `pre-commit try-repo` in a temporary
repository: a clean commit passes, a commit that adds an error fails. pre-commit installs curator
into its own environment the first time (about half a minute)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

CHECKOUT = Path(__file__).resolve().parents[3]
HOOKS = CHECKOUT / ".pre-commit-hooks.yaml"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def test_hook_file_names_real_commands():
    hooks = {h["id"]: h for h in yaml.safe_load(HOOKS.read_text())}
    assert hooks["curator-check"]["entry"] == "curator check"
    assert hooks["curator-check-changed"]["entry"] == "curator check --changed"
    for h in hooks.values():
        assert h["language"] == "python" and h["pass_filenames"] is False


@pytest.mark.slow
def test_pre_commit_try_repo_fails_on_a_new_error(tmp_path):
    """Every hook in one try-repo call (each call installs curator into a fresh environment)."""
    if not (CHECKOUT / ".git").exists():
        pytest.skip("needs curator's own git checkout (try-repo clones it)")
    repo = tmp_path / "project"
    store = repo / ".serena" / "memories"
    store.mkdir(parents=True)
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com", "NO_COLOR": "1"}
    env.pop("PRE_COMMIT", None)

    def sh(*args):
        return subprocess.run(args, cwd=repo, env=env, capture_output=True, text=True)

    (store / "memory-index.md").write_text("[Ops]\n|deploy: [skills-ops-index](skills-ops-index.md) (0)\n")
    (store / "skills-ops-index.md").write_text(
        "| Keywords | File |\n|---|---|\n| deploy canary rollout blue green | [ops/ops-deploy](ops/ops-deploy.md) |\n")
    (store / "ops").mkdir()
    (store / "ops" / "ops-deploy.md").write_text("# Deploy\n\nCanary first.\n")
    assert sh("git", "init", "-q").returncode == 0
    sh("git", "add", "-A")
    assert sh("git", "commit", "-q", "-m", "init").returncode == 0
    try_repo = [sys.executable, "-m", "pre_commit", "try-repo", str(CHECKOUT)]

    (store / "ops" / "ops-deploy.md").write_text("# Deploy\n\nCanary first, then everyone.\n")
    sh("git", "add", "-A")
    ok = sh(*try_repo)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stdout.count("Passed") == 2, ok.stdout
    assert "curator check (memory store)" in ok.stdout and "curator check --changed" in ok.stdout

    with (store / "skills-ops-index.md").open("a") as fh:
        fh.write("| queue retry backoff jitter dead | [ops/ops-queue](ops/ops-queue.md) |\n")
    sh("git", "add", "-A")
    bad = sh(*try_repo)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert bad.stdout.count("Failed") == 2, bad.stdout  # both hooks: the whole store and the change
    assert "index.missing-target" in bad.stdout and "ops/ops-queue.md" in bad.stdout
