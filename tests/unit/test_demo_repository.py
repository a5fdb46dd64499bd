"""The demo copy is a git repository with history and ships two sessions run in it."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from curator.base.locations import sample_repository
from curator.demo import repository as demo_repository
from curator.demo.repository import build_history, write_transcripts
from curator.transcripts.discover import discover

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _copy(tmp_path, name="repo"):
    dest = tmp_path / name
    shutil.copytree(sample_repository(), dest)
    return dest


def _git(repo, *args):
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout


@needs_git
def test_history_grows_the_sample_and_leaves_the_newest_records_to_review(tmp_path):
    repo = _copy(tmp_path)
    before = {p.relative_to(repo): p.read_bytes() for p in repo.rglob("*") if p.is_file()}
    assert build_history(repo) is None
    log = _git(repo, "log", "--format=%cs %s").splitlines()
    assert len(log) == len(demo_repository.COMMITS)
    sizes = [int(_git(repo, "cat-file", "-s", f"{c}:.serena/memories/memory-index.md"))
             for c in _git(repo, "rev-list", "--reverse", "HEAD").split()]
    assert sizes == sorted(sizes) and sizes[0] < sizes[-1]  # the start-up index grew commit by commit
    untracked = _git(repo, "status", "--porcelain").splitlines()
    assert untracked and all(line.startswith("??") and "2026-11-1" in line for line in untracked)
    after = {p.relative_to(repo): p.read_bytes() for p in repo.rglob("*") if p.is_file() and ".git" not in p.parts}
    assert after == before  # the work tree is the sample as shipped


@needs_git
def test_history_is_the_same_every_time(tmp_path):
    heads = []
    for name in ("a", "b"):
        repo = _copy(tmp_path, name)
        build_history(repo)
        heads.append(_git(repo, "rev-parse", "HEAD"))
    assert heads[0] == heads[1]


def test_without_git_the_demo_says_so(tmp_path, monkeypatch):
    repo = _copy(tmp_path)
    monkeypatch.setattr(demo_repository.shutil, "which", lambda _name: None)
    note = build_history(repo)
    assert note and "git is not installed" in note
    assert not (repo / ".git").exists()


def test_transcripts_are_found_as_sessions_run_in_the_copy(tmp_path):
    repo = _copy(tmp_path)
    projects = tmp_path / "projects"
    assert write_transcripts(repo, projects) is None
    found = discover(repo, [projects])
    assert len(found.sessions()) == 2
    assert all(f.cwd == str(repo) for f in found.files)
