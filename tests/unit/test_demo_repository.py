"""The demo copy is a git repository with history and ships four sessions run in it, three of
which record what they loaded (one with a deliberate mismatch to learn from)."""

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
    assert len(found.sessions()) == 4
    assert all(f.cwd == str(repo) for f in found.files)


@needs_git
def test_a_first_run_shows_verification_and_usage(tmp_path):
    """The demo's sessions, held against the model: the August one predates the records, the
    three others match it but for one file — AGENTS.md, loaded by a session whose developer read
    both instruction files — and usage shows the rule attached and the skill launched."""
    from curator.base.tokens import FakeTokenCounter
    from curator.proof import prove
    from curator.transcripts import SessionIndex

    repo = _copy(tmp_path)
    assert build_history(repo) is None and write_transcripts(repo, tmp_path / "projects") is None
    index = SessionIndex.for_repo(repo, [tmp_path / "projects"], use_cache=False)
    proof = prove(repo, index.build(), env={"HOME": str(tmp_path), "CI": ""}, home=str(tmp_path),
                  token_counter=FakeTokenCounter())
    states = sorted(c.state for c in proof.checks)
    assert states == ["checked", "checked", "checked", "predates the records"]
    assert {c.evidence.version for c in proof.checks} == {"2.1.180", "2.1.276", "2.1.290"}
    rows = [r for c in proof.checks for r in c.mismatches]
    assert [(r.path, r.status, r.rule) for r in rows] == [("AGENTS.md", "unexpected",
                                                           "claude-code/agents-md.fallback@2.1.277")]
    assert "claude-md-and-agents-md" in rows[0].hint
    matched = [r for c in proof.checks for r in c.rows if r.status == "matched"]
    assert len(matched) == 3 * 3 + 1 and all(r.bytes == "same" for r in matched)
    use = {i.path: i for i in proof.usage.items}
    assert (use[".claude/skills/release-notes/SKILL.md"].uses, use[".claude/rules/experience-entries.md"].uses) == (1, 1)
    assert use["CLAUDE.md"].uses == 3 and use[".claude/skills/changelog/SKILL.md"].uses == 0
    assert [f.check for f in proof.findings] == ["sessions.model-contradicted"]
