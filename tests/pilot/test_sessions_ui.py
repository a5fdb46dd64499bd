"""The sessions screen: the list, a folded conversation, search, mining a passage; and the
record view's reads, from transcripts in the tests' Claude config folder."""

from __future__ import annotations

import re
import shutil

import pytest
from textual.widgets import DataTable, Static

from curator.base.tokens import FakeTokenCounter
from curator.transcripts import slug
from curator.tui.app import make_app
from curator.tui.dialogs import DiffDialog
from curator.tui.screens import MainScreen, SessionsScreen
from tests.conftest import SAMPLE
from tests.pilot.conftest import settle, text_of, wait_until
from tests.unit.transcripts import transcripts as tx

SID = "33333333-cccc-4ddd-8eee-000000000003"


@pytest.fixture
def repo_app(tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    store = repo / ".serena" / "memories"
    shutil.copytree(SAMPLE, store)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))
    projects = tmp_path / "claude" / "projects"
    objs = tx.well_formed(sid=SID, cwd=str(repo), day="2026-11-10") + [
        tx.assistant("r1", "2026-11-10T10:03:00.000Z",
                     [tx.tool("mcp__serena__read_memory", {"memory_file_name": "git/git-interactive-rebase"})],
                     "msg_r1", sid=SID, cwd=str(repo)),
    ]
    tx.write(projects / slug(repo) / f"{SID}.jsonl", objs)
    tx.write(projects / slug(repo) / "older.jsonl", tx.well_formed(sid="older-session", cwd=str(repo), day="2026-10-01"))
    return make_app(store, token_counter=FakeTokenCounter(), theme="curator-dark"), store


async def test_list_conversation_search_and_mine(repo_app):
    app, store = repo_app
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await wait_until(pilot, lambda: app.transcripts is not None and app.transcripts.indexed)
        await pilot.press("5")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, SessionsScreen)
        table = screen.query_one("#sessions", DataTable)
        assert table.row_count == 2
        assert [table.get_row_at(i)[0] for i in range(2)] == ["2026-11-10 10:00", "2026-10-01 10:00"]  # newest first
        assert "2 session(s)" in text_of(screen.query_one("#sessions-status", Static))
        await pilot.press("enter")
        await wait_until(pilot, lambda: len(screen.turns) > 0)
        conv = screen.query_one("#conversation", DataTable)
        roles = [t.role for t in screen.turns]
        assert roles[:3] == ["user", "assistant", "tool"]
        assert "▸ Bash make run" in str(conv.get_row_at(1)[2]) and "error" in str(conv.get_row_at(2)[2])
        # the user's correction, mined into a reflexion record through the diff preview
        await pilot.press("down", "down", "down", "down")
        await settle(app, pilot)
        assert screen.turns[conv.cursor_row].uuid == "u2"
        assert "instead of killing" in text_of(screen.query_one("#turn-text", Static))
        await pilot.press("m")
        await settle(app, pilot)
        assert isinstance(app.screen, DiffDialog)
        await pilot.press("y")
        await settle(app, pilot)
        mined = list((store / "reflexion").glob("2026-11-10-*.md"))
        assert len(mined) == 1 and f"session_id: {SID}" in mined[0].read_text() and "uuid: u2" in mined[0].read_text()
        await pilot.press("ctrl+z")
        await settle(app, pilot)
        assert not mined[0].exists()
        # search across sessions, then open a hit
        await pilot.press("slash", *"port 4001", "enter")
        await wait_until(pilot, lambda: len(screen.hits) > 0)
        assert {h.session_id for h in screen.hits} == {SID, "older-session"}
        await pilot.press("escape")
        await settle(app, pilot)
        assert not screen.hits and table.row_count == 2


async def test_record_view_shows_reads(repo_app):
    app, _ = repo_app
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(app, pilot)
        await wait_until(pilot, lambda: app.transcripts is not None and app.transcripts.usage is not None)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        screen.open_path("git/git-interactive-rebase.md")
        await settle(app, pilot)
        facts = text_of(screen.query_one("#facts", Static))
        assert re.search(r"last read +2026-11-10 · reads 30d 1 / 90d 1 \(1 in 1 session\(s\)\)", facts)
        screen.open_path("git/git-lfs-fixtures.md")
        await settle(app, pilot)
        assert "never, in 2 session(s)" in text_of(screen.query_one("#facts", Static))


async def test_no_transcripts_says_so(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("5")
        await settle(app, pilot)
        await wait_until(pilot, lambda: app.transcripts is not None and app.transcripts.indexed)
        await settle(app, pilot)
        said = " ".join(text_of(app.screen.query_one("#turn-text", Static)).split())
        assert "No Claude Code sessions ran in" in said
        where = str(app.transcripts.index.discovery.roots[0])
        assert f"Looked in {where}: it does not exist." in said and "CLAUDE_CONFIG_DIR" in said
        assert "no sessions found" in text_of(app.screen.query_one("#sessions-status", Static))
        # the empty conversation table gives its room to the explanation, which fits without scrolling
        assert not app.screen.query_one("#conversation", DataTable).display
        assert app.screen.query_one("#turn-detail").max_scroll_y == 0
        # nothing to mark or mine yet: the footer does not offer it
        shown = {k for k, b in app.screen.active_bindings.items() if b.binding.show and b.enabled}
        assert "m" not in shown and "space" not in shown and "U" in shown


def _footer_width(screen) -> int:
    from textual.widgets import Footer

    footer = screen.query_one(Footer)
    return max(w.region.right for w in footer.children if w.display) - footer.region.x


async def test_marking_and_mining_show_once_a_conversation_is_open_and_the_footer_fits_80(repo_app):
    app, _ = repo_app
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await wait_until(pilot, lambda: app.transcripts is not None and app.transcripts.indexed)
        await pilot.press("5")
        await settle(app, pilot)
        screen = app.screen

        def shown():
            return {k for k, b in screen.active_bindings.items() if b.binding.show and b.enabled}

        assert "m" not in shown() and "U" in shown()
        await pilot.press("enter")
        await wait_until(pilot, lambda: len(screen.turns) > 0)
        await settle(app, pilot)
        assert {"m", "M", "space"} <= shown() and "U" not in shown()
        assert 40 < _footer_width(screen) <= 80
        await pilot.press("m")  # mining works from here
        await settle(app, pilot)
        assert isinstance(app.screen, DiffDialog)


async def test_search_hit_opens_at_its_turn_and_a_marked_range_is_mined(repo_app):
    app, store = repo_app
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await wait_until(pilot, lambda: app.transcripts is not None and app.transcripts.indexed)
        await pilot.press("5")
        await settle(app, pilot)
        screen = app.screen
        await pilot.press("slash", *"4000 in use", "enter")
        await wait_until(pilot, lambda: len(screen.hits) > 0)
        first = screen.hits[0]
        assert (first.session_id, first.turn.uuid) == (SID, "r1")
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.session is not None and len(screen.turns) > 0)
        conv = screen.query_one("#conversation", DataTable)
        assert screen.turns[conv.cursor_row].uuid == "r1"  # opened at the hit
        await pilot.press("space", "down")  # the error, through the assistant's answer
        await settle(app, pilot)
        await pilot.press("M")
        await settle(app, pilot)
        assert isinstance(app.screen, DiffDialog)
        await pilot.press("y")
        await settle(app, pilot)
        [mined] = list((store / "validation").glob("2026-11-10-*.md"))
        text = mined.read_text()
        assert "uuid: r1" in text and "uuid_to: a3" in text and "Port 4000 is taken" in text


async def test_prune_unread_transient_records_from_the_sessions_screen(repo_app):
    app, store = repo_app
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await wait_until(pilot, lambda: app.transcripts is not None and app.transcripts.usage is not None)
        await pilot.press("5")
        await settle(app, pilot)
        app.screen.action_prune_unused(30)  # 30 days: the sample's transient records are younger than 90
        await settle(app, pilot)
        assert isinstance(app.screen, DiffDialog)
        await pilot.press("y")
        await settle(app, pilot)
        assert not (store / "validation" / "2026-09-30-ci-cache-key.md").exists()
        assert (store / ".curator" / "archive" / "validation" / "2026-09-30-ci-cache-key.md").exists()
        assert (store / "validation" / "2026-11-18-c0ffee.md").exists()  # too young to be called unread
