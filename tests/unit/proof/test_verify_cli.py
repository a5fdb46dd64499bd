"""`curator context --verify` (text, JSON, markdown), `curator usage` with instruction files, and
`curator sessions --loaded`, on the demo repository's sessions; the faces agree with each other."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from curator.cli import main

from .sessions import Session, sid


@pytest.fixture
def demo(sample_repo_copy, tmp_path, monkeypatch):
    from curator.demo.repository import build_history, write_transcripts

    if shutil.which("git") is None or build_history(sample_repo_copy) is not None:
        pytest.skip("git is not installed")
    projects = tmp_path / "claude" / "projects"
    write_transcripts(sample_repo_copy, projects)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(projects.parent))
    return sample_repo_copy


def _run(capsys, *args) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


def test_verify_in_three_formats(demo, capsys):
    text = _run(capsys, "context", str(demo), "--verify")
    lines = text.splitlines()
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    flat = " ".join(text.split())
    assert "4 sessions: 3 checked against the rules of their own version, 1 predates the records; 1 mismatch in " \
           "1 session" in flat
    assert "✖ start-up AGENTS.md [unexpected]" in flat
    assert "claude-code/agents-md.fallback@2.1.277 predicted: never" in flat
    assert "Claude Code 2.1.180 recorded no start-up files (they are recorded from 2.1.276 on)" in flat
    data = json.loads(_run(capsys, "context", str(demo), "--verify", "--format", "json"))
    assert data["states"] == {"checked": 3, "predates the records": 1} and data["mismatches"] == 1
    rules = {c["version"]: c["rules"] for c in data["checks"]}
    assert rules == {"2.1.290": "2.1.290", "2.1.276": "2.1.276", "2.1.180": None}
    assert [f["check"] for f in data["findings"]] == ["sessions.model-contradicted"]
    md = _run(capsys, "context", str(demo), "--verify", "--format", "markdown")
    assert md.startswith("# Claude Code sessions of") and "| ✖ unexpected | start-up | `AGENTS.md` |" in md


def test_verify_reads_claude_code_only_and_says_when_there_is_no_session(sample_repo_copy, capsys):
    assert main(["context", str(sample_repo_copy), "--verify", "--agent", "codex"]) == 2
    assert "--verify reads Claude Code's sessions" in capsys.readouterr().err
    out = _run(capsys, "context", str(sample_repo_copy), "--verify")
    assert "no Claude Code session of this repository" in out and "Looked in" in out


def test_usage_covers_the_instruction_files_beside_memories(demo, capsys):
    text = _run(capsys, "usage", str(demo))
    assert "instruction files: 3 session(s) whose version records what they load (of 4)" in text
    data = json.loads(_run(capsys, "usage", str(demo), "--format", "json"))
    items = {i["path"]: i for i in data["instructions"]["items"]}
    assert items["CLAUDE.md"]["sessions"] == 3 and items[".claude/skills/release-notes/SKILL.md"]["uses"] == 1
    assert data["listing"]["budget_chars"] == 8000
    # every memory system's reads, not the first one's only (the Claude memory folder's too)
    sources = {s["name"]: s for s in data["sources"]}
    assert set(sources) == {".serena/memories", ".claude/memory", "docs"}
    read = {s: {m["path"] for m in sources[s]["memories"] if m["reads"]} for s in sources}
    assert "feedback_quarantine_not_rerun.md" in read[".claude/memory"] and read[".serena/memories"]
    assert ".claude/memory ──" in text and "feedback_quarantine_not_rerun.md" in text
    verify = json.loads(_run(capsys, "context", str(demo), "--verify", "--format", "json"))
    assert verify["usage"]["items"] == data["instructions"]["items"]  # one number in both faces


def test_usage_of_a_repository_with_instruction_files_only(tmp_path, capsys, monkeypatch):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "CLAUDE.md").write_text("# Rules\n")
    s = Session(sid(1), str(repo), "2.1.300", "2026-11-10").instructions(
        [(f"{repo}/CLAUDE.md", "Project", "# Rules\n")]).prompt("hi").say("hello")
    s.write(tmp_path / "claude" / "projects")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))
    monkeypatch.chdir(repo)
    data = json.loads(_run(capsys, "usage", "--format", "json"))
    assert data["sessions"] == 1 and data["instructions"]["items"][0]["path"] == "CLAUDE.md"


def test_sessions_that_ran_elsewhere_say_so(demo, tmp_path, capsys):
    other = tmp_path / "other"
    (other / ".git").mkdir(parents=True)
    (other / "CLAUDE.md").write_text("x\n")
    data = json.loads(_run(capsys, "context", str(other), "--verify", "--all", "--format", "json"))
    assert data["states"] == {"elsewhere": 3, "predates the records": 1}


def test_check_with_sessions_adds_their_findings_and_names_the_transcripts(demo, capsys, monkeypatch):
    """`curator check --sessions`: the sessions' findings with the others (SARIF and GitHub alike);
    the transcripts folder, a source of the repository, is named, never loaded as memory (it used
    to stop the text report)."""
    monkeypatch.setenv("HOME", str(demo.parent))
    main(["check", str(demo)])
    plain = capsys.readouterr().out
    flat = " ".join(plain.split())
    assert "sessions: curator sessions, curator context --verify" in flat, plain
    assert "sessions.model-contradicted" not in plain
    main(["check", str(demo), "--sessions", "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert [(f["check"], f["path"]) for f in data["findings"] if f["check"].startswith("sessions.")] == [
        ("sessions.model-contradicted", "AGENTS.md")]
    assert main(["check", str(demo), "--sessions", "--only", "sessions.model-contradicted", "--fail-on",
                 "warning"]) == 1


def test_a_memory_topic_file_a_session_read_is_seen_there(demo, capsys):
    """Claude Code opens a memory topic file when it needs it: a session that read one saw it
    (the Context view's seen column and `sessions --loaded` said "never" for a file two sessions
    read)."""
    from curator.proof import prove
    from curator.transcripts import SessionIndex

    index = SessionIndex.for_repo(demo, [Path(os.environ["CLAUDE_CONFIG_DIR"]) / "projects"], use_cache=False)
    proof = prove(demo, index.build())
    seen = proof.seen(".claude/memory/feedback_quarantine_not_rerun.md")
    assert seen.count == 1 and seen.last.startswith("2026-11-19")
    assert proof.seen(".claude/memory/feedback_migration_lock_timeout.md").last.startswith("2026-11-17")
    assert proof.seen(".claude/memory/project_nightly_export_replica.md").count == 0  # 2.1.180: no records
    data = json.loads(_run(capsys, "sessions", str(demo), "--loaded", ".claude/memory/feedback_quarantine_not_rerun.md",
                           "--format", "json"))
    assert len(data["sessions"]) == 1, data
