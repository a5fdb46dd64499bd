"""The shipped `.pre-commit-hooks.yaml`, run by the real `pre-commit` in a temporary repository:
a clean commit passes, a commit that adds an error fails. pre-commit installs curator into its
own environment (about half a minute); both runs share one installation (`pre-commit try-repo`
installs afresh on every call, so the test does what it does once, by hand: a config naming this
checkout at a commit that holds its uncommitted changes, and a PRE_COMMIT_HOME kept between
the runs)."""

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


def _checkout_as_tried(tmp_path: Path, env: dict) -> tuple[str, str]:
    """(repository, rev) of this checkout as `pre-commit try-repo` takes it: HEAD, or, with
    uncommitted changes, a clone whose one new commit holds them (staged and tracked files)."""

    def git(*args, cwd=CHECKOUT, extra=None):
        return subprocess.run(["git", *args], cwd=cwd, env={**env, **(extra or {})}, check=True,
                              capture_output=True, text=True).stdout.strip()

    head = git("rev-parse", "HEAD")
    if subprocess.run(["git", "diff", "--quiet", "HEAD"], cwd=CHECKOUT, env=env).returncode == 0:
        return str(CHECKOUT), head
    shadow = tmp_path / "shadow-repo"
    git("clone", "-q", str(CHECKOUT), str(shadow))
    git("checkout", "-q", head, "-b", "_tried", cwd=shadow)
    # the checkout's changes staged into the clone's index and objects (the checkout is untouched)
    into_shadow = {"GIT_INDEX_FILE": git("rev-parse", "--absolute-git-dir", cwd=shadow) + "/index",
                   "GIT_OBJECT_DIRECTORY": git("rev-parse", "--absolute-git-dir", cwd=shadow) + "/objects"}
    staged = git("diff", "--staged", "--name-only", "--no-renames").splitlines()
    if staged:
        git("add", "--", *staged, extra=into_shadow)
    git("add", "-u", extra=into_shadow)
    git("commit", "-q", "--no-verify", "-m", "uncommitted changes", cwd=shadow)
    return str(shadow), git("rev-parse", "HEAD", cwd=shadow)


@pytest.mark.slow
def test_pre_commit_passes_a_clean_commit_and_fails_on_a_new_error(tmp_path):
    """Every hook of the shipped file, run twice by one pre-commit installation."""
    if not (CHECKOUT / ".git").exists():
        pytest.skip("needs curator's own git checkout (pre-commit clones it)")
    repo = tmp_path / "project"
    store = repo / ".serena" / "memories"
    store.mkdir(parents=True)
    # PIP_NO_COMPILE=0 is pip's `--no-compile` (pip reads a `--no-` flag's variable as the value of
    # the option it turns off): the hook environment's packages are not all compiled up front (~10 s
    # of the installation's 22 s of CPU); what the hook imports compiles as it runs.
    # PIP_NO_BUILD_ISOLATION=0 (`--no-build-isolation`, the same inversion) builds curator's wheel
    # with the setuptools the hook environment is seeded with (VIRTUALENV_SETUPTOOLS=bundle: also on
    # 3.12+, where virtualenv seeds none) instead of resolving and installing setuptools and wheel
    # into a throwaway build environment first: 15.2 s -> 12.5 s of CPU for this test
    # PIP_NO_DEPS=1: pre-commit installs curator itself into its environment, not its dependencies
    # again (the README's install, which CI runs first, is what proves they resolve); the hooks then
    # find them on PYTHONPATH in this interpreter's site-packages, after the environment's own
    # curator. No index is read (the pip run was ~25 s of waiting on the registry, 7 s of CPU)
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "PIP_NO_COMPILE": "0",
           "PIP_NO_BUILD_ISOLATION": "0", "VIRTUALENV_SETUPTOOLS": "bundle", "PIP_NO_DEPS": "1",
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
    source, rev = _checkout_as_tried(tmp_path, env)
    hooks = [{"id": h["id"]} for h in yaml.safe_load(HOOKS.read_text())]
    config = tmp_path / "pre-commit-config.yaml"  # outside the project, as try-repo keeps it
    config.write_text(yaml.safe_dump({"repos": [{"repo": source, "rev": rev, "hooks": hooks}]}))
    run = [sys.executable, "-m", "pre_commit", "run", "--config", str(config)]  # the staged files
    installed = sh(sys.executable, "-m", "pre_commit", "install-hooks", "--config", str(config))
    assert installed.returncode == 0, installed.stdout + installed.stderr
    import sysconfig  # (the hooks' dependencies: see PIP_NO_DEPS above)

    env["PYTHONPATH"] = os.pathsep.join(filter(None, [os.environ.get("PYTHONPATH"), sysconfig.get_paths()["purelib"]]))

    (store / "ops" / "ops-deploy.md").write_text("# Deploy\n\nCanary first, then everyone.\n")
    sh("git", "add", "-A")
    ok = sh(*run)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stdout.count("Passed") == 2, ok.stdout
    assert "curator check (memory store)" in ok.stdout and "curator check --changed" in ok.stdout

    with (store / "skills-ops-index.md").open("a") as fh:
        fh.write("| queue retry backoff jitter dead | [ops/ops-queue](ops/ops-queue.md) |\n")
    sh("git", "add", "-A")
    bad = sh(*run)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert bad.stdout.count("Failed") == 2, bad.stdout  # both hooks: the whole store and the change
    assert "index.missing-target" in bad.stdout and "ops/ops-queue.md" in bad.stdout
    # one installation served both runs
    assert len([p for p in (tmp_path / "pre-commit-home").iterdir() if p.name.startswith("repo")]) == 1
