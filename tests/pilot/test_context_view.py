"""The Context view (key 7, the palette): each agent's start-up files, imports, on-demand list and
the "what loads when editing" box, driven with keys; the tree's Instructions nodes."""

from __future__ import annotations

from curator.base.tokens import FakeTokenCounter
from curator.model.sources import discover
from curator.tui.app import make_app
from curator.tui.screens import ContextScreen, MainScreen
from curator.tui.widgets import InstructionRef, StoreTree
from tests.pilot.conftest import back_to_start, settle, text_of, wait_until


def _app(root):
    return make_app(root, given="sample_memories", token_counter=FakeTokenCounter(), theme="curator-dark",
                    remember_theme=False, layout=discover(root))


async def _ready(app, pilot):
    await settle(app, pilot)
    await wait_until(pilot, lambda: app.context_model is not None)
    await settle(app, pilot)


async def _the_context_view_walks_agents_and_answers_the_path_box(app, pilot):
    await _ready(app, pilot)
    await pilot.press("7")
    await settle(app, pilot)
    screen = app.screen
    assert isinstance(screen, ContextScreen)
    model = app.context_model
    table = screen.query_one("#context-agents-table")
    assert table.row_count == len(model.agents) == 3
    startup = text_of(screen.query_one("#context-startup"))
    cc = model.agents["claude-code"]
    assert f"Claude Code  start-up {cc.startup_tokens:,} tokens" in startup
    assert "CLAUDE.md" in startup and "MEMORY.md" in startup
    imports = text_of(screen.query_one("#context-imports"))
    assert ".claude/memory/MEMORY.md" in imports and "← CLAUDE.md:" in imports
    assert ".claude/rules/experience-entries.md" in {str(k.value) for k in screen.query_one("#context-files").rows}

    table.focus()
    await pilot.press("down")  # the next agent: Codex
    await settle(app, pilot)
    assert screen.agent == "codex"
    assert f"Codex  start-up {model.startup_tokens('codex'):,} tokens" in text_of(screen.query_one("#context-startup"))
    await pilot.press("up")
    await pilot.press("slash")
    await pilot.press(*"docs/good-experience/entries/x.md", "enter")
    await settle(app, pilot)
    result = text_of(screen.query_one("#context-for-result"))
    rule = next(o for o in cc.on_demand if o.path == ".claude/rules/experience-entries.md")
    assert "Editing docs/good-experience/entries/x.md: " in result
    assert f"+{rule.tokens:,} tokens" in result and ".claude/rules/experience-entries.md" in result
    await pilot.press("escape")  # out of the box: keys are the app's again
    await pilot.press("1")
    await settle(app, pilot)
    assert isinstance(app.screen, MainScreen)


async def _the_palette_opens_the_context_view(app, pilot):
    await _ready(app, pilot)
    await pilot.press("ctrl+p")
    await pilot.press(*"context: what each")
    await settle(app, pilot)  # the palette's search is a worker: settled, its hits are listed
    await pilot.press("enter")
    await settle(app, pilot)
    assert isinstance(app.screen, ContextScreen)


async def _the_tree_shows_each_agents_instruction_files(app, pilot):
    await _ready(app, pilot)
    tree = app.screen.query_one(StoreTree)
    groups = {n.data.agent: n for n in tree.root.children if isinstance(n.data, InstructionRef)}
    assert set(groups) == {"claude-code", "codex"}  # Serena's memories are the source above
    cc = groups["claude-code"]
    assert str(cc.label).startswith("Instructions · Claude Code")
    assert str(cc.label).endswith(f"{app.context_model.startup_tokens('claude-code'):,}")
    leaves = {n.data.path: n for n in cc.children}
    assert {"CLAUDE.md", ".claude/rules/money.md", ".claude/rules/experience-entries.md"} <= set(leaves)
    cc.expand()
    await settle(app, pilot)
    tree.move_cursor(leaves["CLAUDE.md"])
    await settle(app, pilot)
    await wait_until(pilot, lambda: "CLAUDE.md" in text_of(app.screen.query_one("#facts")))
    facts = text_of(app.screen.query_one("#facts"))
    assert "CLAUDE.md" in facts and "Claude Code" in facts and "start-up" in facts
    assert app.screen.query_one("#detail").current == "record"


async def test_the_context_view_and_the_tree_on_one_launch(sample_repo_copy):
    """The three read-only steps above share one launch of the sample repository (each launch
    reads every memory system and walks the instruction files): the tree first, as it opens."""
    app = _app(sample_repo_copy)
    async with app.run_test(size=(100, 32)) as pilot:
        for step in (_the_tree_shows_each_agents_instruction_files, _the_palette_opens_the_context_view,
                     _the_context_view_walks_agents_and_answers_the_path_box):
            await step(app, pilot)
            await back_to_start(app, pilot)


async def test_a_repository_without_memory_opens_on_what_each_agent_loads(tmp_path):
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "CLAUDE.md").write_text("# Project\n\nUse uv; run pytest before committing.\n")
    (root / "AGENTS.md").write_text("# Agents\n\nRun the tests before every commit.\n")
    app = make_app(root, token_counter=FakeTokenCounter(), theme="curator-dark", remember_theme=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, ContextScreen))
        await settle(app, pilot)
        assert app.workbench is None and set(app.context_model.agents) == {"claude-code", "codex"}
        assert app.screen.query_one("#context-agents-table").row_count == 2
        assert "no memory store · 2 agents" in str(app.screen.query_one("#totals").render())
        assert str(app.screen.query_one("#title").render()) == "repo"  # the repository, not "curator"
        # no memory is not an error here: the one toast says what is shown instead
        assert [t.severity for t in app.toasts] == ["information"]
        assert "showing what each agent loads" in app.toasts[0].message
