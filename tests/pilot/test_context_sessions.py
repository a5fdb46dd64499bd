"""The Context view with the agent's own sessions: every file of Claude Code says what the sessions
recorded of it (seen in N sessions and the last day, never seen, ✖ when a session contradicted the
model), and Enter on a file opens the Sessions screen narrowed to the sessions that loaded it —
the same sessions `curator sessions --loaded FILE` lists."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from curator.base.tokens import FakeTokenCounter
from curator.model.sources import discover
from curator.tui.app import make_app
from curator.tui.screens import ContextScreen
from tests.pilot.conftest import back_to_start, settle, text_of, wait_until


@pytest.fixture
def demo(sample_repo_copy):
    from curator.demo.repository import build_history, write_transcripts

    if build_history(sample_repo_copy) is not None:
        pytest.skip("git is not installed")
    write_transcripts(sample_repo_copy, Path(os.environ["CLAUDE_CONFIG_DIR"]) / "projects")
    return sample_repo_copy


def _app(root):
    return make_app(root, given="sample_memories", token_counter=FakeTokenCounter(), theme="curator-dark",
                    remember_theme=False, layout=discover(root))


def _cells(table, key: str) -> list[str]:
    return [str(c) for c in table.get_row(key)]


async def _context(app, pilot):
    await settle(app, pilot)
    await wait_until(pilot, lambda: app.proof is not None, timeout=30)
    await pilot.press("7")
    await settle(app, pilot)


async def _each_file_says_what_the_sessions_recorded(app, pilot):
    await _context(app, pilot)
    screen = app.screen
    assert isinstance(screen, ContextScreen) and screen.agent == "claude-code"
    files = screen.query_one("#context-files")
    assert _cells(files, "CLAUDE.md")[1:] == ["start", "CLAUDE.md", "3 · 11-19"]
    assert _cells(files, ".claude/rules/experience-entries.md")[3] == "1 · 11-19"
    assert _cells(files, ".claude/skills/release-notes/SKILL.md")[3] == "1 · 11-18"
    assert _cells(files, ".claude/skills/changelog/SKILL.md")[3] == "never seen"
    assert _cells(files, "AGENTS.md")[1:] == ["never", "AGENTS.md", "✖ 1 · 11-19"]
    await pilot.press("f")  # the files, then the last one: AGENTS.md
    await pilot.press("end")
    await settle(app, pilot)
    detail = text_of(screen.query_one("#context-file"))
    assert "AGENTS.md  seen in 1 session, last 2026-11-19 14:40" in detail
    assert "claude-code/agents-md.fallback@2.1.277 predicted never" in " ".join(detail.split())
    assert "11-19 Claude Code 2.1.290: recorded at start-up" in " ".join(detail.split())


async def _enter_on_a_file_lists_the_sessions_that_loaded_it(app, pilot, cli: set[str]):
    await _context(app, pilot)
    files = app.screen.query_one("#context-files")
    files.focus()
    files.move_cursor(row=files.get_row_index(".claude/memory/MEMORY.md"))
    await pilot.press("enter")
    await settle(app, pilot)
    await wait_until(pilot, lambda: app.screen.__class__.__name__ == "SessionsScreen")
    await settle(app, pilot)
    table = app.screen.query_one("#sessions")
    assert {str(k.value) for k in table.rows} == cli
    assert "3 session(s) loaded .claude/memory/MEMORY.md · Esc: all" in str(
        app.screen.query_one("#sessions-status").render())
    await pilot.press("escape")  # every session again
    await settle(app, pilot)
    assert table.row_count == 4


async def test_each_file_says_what_the_sessions_recorded_and_enter_lists_those_that_loaded_it(demo, capsys):
    """Both read-only steps on one launch of the demo (each launch reads its git history and
    its sessions): the files' column, then Enter on MEMORY.md — the sessions the CLI lists."""
    from curator.cli import main

    main(["sessions", str(demo), "--loaded", ".claude/memory/MEMORY.md", "--format", "json"])
    cli = {s["session_id"] for s in json.loads(capsys.readouterr().out)["sessions"]}
    assert len(cli) == 3
    app = _app(demo)
    async with app.run_test(size=(100, 32)) as pilot:
        await _each_file_says_what_the_sessions_recorded(app, pilot)
        await back_to_start(app, pilot)
        await _enter_on_a_file_lists_the_sessions_that_loaded_it(app, pilot, cli)


async def test_before_the_sessions_are_read_and_for_other_agents(sample_repo_copy):
    """No transcript at all: each Claude Code file says so; Codex's files say nothing of sessions."""
    app = _app(sample_repo_copy)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        await wait_until(pilot, lambda: app.transcripts is not None and app.transcripts.indexed)
        await pilot.press("7")
        await settle(app, pilot)
        files = app.screen.query_one("#context-files")
        assert _cells(files, "CLAUDE.md")[3] == "no sessions"
        await pilot.press("f", "enter")  # nothing to open: a notice, the view stays
        await settle(app, pilot)
        assert isinstance(app.screen, ContextScreen)
        app.screen.query_one("#context-agents-table").focus()
        await pilot.press("down")  # Codex
        await settle(app, pilot)
        assert app.screen.agent == "codex" and _cells(files, "AGENTS.md")[3] == ""
