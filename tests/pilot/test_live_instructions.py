"""Instruction files edited on disk while the app runs: the Context view, the header's counts, the
overview and the tree follow without ctrl+r; a change elsewhere builds nothing again; Serena's
start-up follows its memory without a walk of the repository."""

from __future__ import annotations

import os
from pathlib import Path

from curator.base.tokens import FakeTokenCounter
from curator.model.sources import discover
from curator.tui.app import make_app
from curator.tui.screens import ContextScreen
from tests.pilot.conftest import FakeEvents, settle, text_of, wait_until


def _app(root: Path, layout=True):
    app = make_app(root, given=root.name, token_counter=FakeTokenCounter(), theme="curator-dark",
                   remember_theme=False, layout=discover(root) if layout else None)
    app.watch_events = FakeEvents()  # the memory watcher (its own, test-driven)
    app.instruction_events = FakeEvents()
    return app


async def _ready(app, pilot, key: str | None = "7"):
    """Loaded, the instruction watcher listening; then on the Context view (`key`)."""
    await settle(app, pilot)
    await wait_until(pilot, lambda: app.context_model is not None and app.instruction_events.roots is not None)
    await settle(app, pilot)
    if key:
        await pilot.press(key)
        await settle(app, pilot)


def _agents_table(app) -> dict[str, int]:
    table = app.screen.query_one("#context-agents-table")
    out = {}
    for row in range(table.row_count):
        key = table.coordinate_to_cell_key((row, 0)).row_key.value
        out[key] = int(str(table.get_row_at(row)[1]).replace(",", ""))
    return out


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


async def test_editing_claude_md_on_disk_updates_the_context_view_and_the_header(sample_repo_copy):
    root = sample_repo_copy
    app = _app(root)
    async with app.run_test(size=(100, 32)) as pilot:
        await _ready(app, pilot)
        assert isinstance(app.screen, ContextScreen)
        before = _agents_table(app)["claude-code"]
        totals = str(app.screen.query_one("#totals").render())
        first = app.context_model
        claude = root / "CLAUDE.md"
        # ten more words, and an import of a file that is not there (a new instruction finding)
        claude.write_text(claude.read_text() + "\nOne two three four five six seven eight nine ten.\n"
                          "See @docs/not-here.md\n")
        app.instruction_events.push(_real(claude))
        await wait_until(pilot, lambda: app.context_model is not first)
        await settle(app, pilot)
        now = _agents_table(app)["claude-code"]
        assert now == app.context_model.startup_tokens("claude-code") >= before + 10
        assert f"start-up {now:,} tokens" in text_of(app.screen.query_one("#context-startup"))
        assert str(app.screen.query_one("#totals").render()) != totals  # the new finding is counted
        from curator.live.scope import scope_counts
        from curator.model.findings import Severity as S

        counts = scope_counts(app.workbench, None)
        assert any(f.path == "CLAUDE.md" for f in app.workbench.instruction_findings)
        assert f"✖{counts[S.ERROR]} ▲{counts[S.WARNING]} ●{counts[S.INFO]}" in str(app.screen.query_one("#totals").render())
        await pilot.press("1")  # the overview's agent line and the tree's node agree
        await settle(app, pilot)
        overview = text_of(app.screen.query_one("#overview-body"))
        assert f"Claude Code     start-up: {now:,} tokens" in overview


async def test_a_new_rule_file_shows_and_other_files_build_nothing_again(sample_repo_copy):
    root = sample_repo_copy
    app = _app(root)
    async with app.run_test(size=(100, 32)) as pilot:
        await _ready(app, pilot)
        first = app.context_model
        source = root / "app.py"  # a source file saved: no instruction file, no new walk
        source.write_text("x = 1\n")
        app.instruction_events.push(_real(source))
        await pilot.pause(0.3)
        await settle(app, pilot)
        assert app.context_model is first
        rule = root / ".claude" / "rules" / "testing.md"
        rule.write_text("# Testing\n\nRun the whole suite before you push.\n")
        app.instruction_events.push(_real(rule))
        await wait_until(pilot, lambda: app.context_model is not first)
        await settle(app, pilot)
        assert ".claude/rules/testing.md" in {e.path for e in app.context_model.agents["claude-code"].startup}
        assert "testing.md" in text_of(app.screen.query_one("#context-startup"))


async def test_serena_follows_its_memory_without_a_new_walk(sample_repo_copy):
    root = sample_repo_copy
    app = _app(root)
    async with app.run_test(size=(100, 32)) as pilot:
        await _ready(app, pilot)
        await app.watch_events.ready(app, pilot)
        before, walk = _agents_table(app)["serena"], app.context_model.fs
        index = root / ".serena" / "memories" / "memory-index.md"  # always loaded: Serena's start-up
        index.write_text(index.read_text() + "\nEleven more words to make the index load a little heavier now.\n")
        app.watch_events.push(index)
        await wait_until(pilot, lambda: app.context_model.startup_tokens("serena") != before)
        await settle(app, pilot)
        assert app.context_model.fs is walk  # the repository was not walked again
        serena = next(s for _, s in app.workbench.loaded() if s.name == ".serena/memories")
        from curator.budgets.startup import startup_of

        assert _agents_table(app)["serena"] == startup_of(serena.workspace.store).tokens > before


def _bare_repo(tmp_path, name: str, text: str) -> Path:
    """A git repository holding one instruction file and no memory."""
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / name).write_text(text)
    return root


async def _on_context_alone(app, pilot):
    await _ready(app, pilot, key=None)  # (without memory it opens there itself)
    await wait_until(pilot, lambda: isinstance(app.screen, ContextScreen))


async def test_a_repository_without_memory_follows_its_agents_md(tmp_path):
    root = _bare_repo(tmp_path, "AGENTS.md", "# Agents\n\nRun the tests.\n")
    app = _app(root, layout=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await _on_context_alone(app, pilot)
        assert _agents_table(app) == {"claude-code": 5, "codex": 5}  # Claude Code reads AGENTS.md since 2.1.277
        (root / "CLAUDE.md").write_text("# Claude\n\nBe brief.\n")  # now it reads this instead
        app.instruction_events.push(_real(root / "CLAUDE.md"))
        await wait_until(pilot, lambda: [e.path for e in app.context_model.agents["claude-code"].startup]
                         == ["CLAUDE.md"])
        await settle(app, pilot)
        assert set(_agents_table(app)) == {"claude-code", "codex"}
        assert "no memory store · 2 agents" in str(app.screen.query_one("#totals").render())
        assert isinstance(app.screen, ContextScreen)


async def test_the_instruction_file_shown_on_the_store_screen_follows_its_edit(sample_repo_copy):
    from curator.tui.widgets import InstructionRef, StoreTree

    root = sample_repo_copy
    app = _app(root)
    async with app.run_test(size=(100, 32)) as pilot:
        await _ready(app, pilot, key=None)
        tree = app.screen.query_one(StoreTree)
        cc = next(n for n in tree.root.children if isinstance(n.data, InstructionRef) and n.data.agent == "claude-code")
        cc.expand()
        await settle(app, pilot)
        tree.move_cursor(next(n for n in cc.children if n.data.path == "CLAUDE.md"))
        await settle(app, pilot)
        first = app.context_model
        before = next(e.tokens for e in first.agents["claude-code"].startup if e.path == "CLAUDE.md")
        assert f"{before:,} tokens" in text_of(app.screen.query_one("#facts"))
        claude = root / "CLAUDE.md"
        claude.write_text(claude.read_text() + "\nOne two three four five.\n")
        app.instruction_events.push(_real(claude))
        await wait_until(pilot, lambda: app.context_model is not first)
        await settle(app, pilot)
        await wait_until(pilot, lambda: f"{before + 5:,} tokens" in text_of(app.screen.query_one("#facts")))
        assert f"{before + 5:,} tokens" in text_of(app.screen.query_one("#facts"))


async def test_without_memory_problems_lists_the_instruction_findings_and_follows_their_fix(tmp_path):
    root = _bare_repo(tmp_path, "CLAUDE.md", "# Claude\n\nSee @docs/missing.md for the rules.\n")
    app = _app(root, layout=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await _on_context_alone(app, pilot)
        [finding] = app.context_model.findings
        assert "no memory store · 1 agent · ✖0 ▲1 ●0" in str(app.screen.query_one("#totals").render())
        await pilot.press("2")  # the instruction findings, listed as `curator check` lists them
        await settle(app, pilot)
        table = app.screen.query_one("#problems")
        assert table.row_count == 1 and "the instruction files" in text_of(app.screen.query_one("#problem-counts"))
        assert finding.check in text_of(app.screen.query_one("#problem-detail"))
        await pilot.press("x")  # no store to fix in: said, never a crash
        await settle(app, pilot)
        (root / "CLAUDE.md").write_text("# Claude\n\nFollow the rules.\n")  # the import fixed by hand
        app.instruction_events.push(_real(root / "CLAUDE.md"))
        await wait_until(pilot, lambda: not app.context_model.findings)
        await settle(app, pilot)
        assert app.screen.query_one("#problems").row_count == 0
        assert "✖0 ▲0 ●0" in str(app.screen.query_one("#totals").render())
        await pilot.press("1")  # the store screen says where to look instead of loading forever
        await settle(app, pilot)
        assert "No memory store here." in str(app.screen.query_one("#loading-what").render())
