"""The retrieval lab follows the app's scope: the whole repository searches every memory system
and fuses them as `curator retrieve` does (each result under its source's folder); s narrows it
to one source, as today."""

from __future__ import annotations

from curator.base.tokens import FakeTokenCounter
from curator.model.sources import discover
from curator.tui.app import make_app
from tests.pilot.conftest import run_steps, settle, wait_until


def _repo(tmp_path):
    root = tmp_path / "repo"
    serena = root / ".serena/memories"
    serena.mkdir(parents=True)
    (serena / "deploy_freeze.md").write_text(
        "# Deploy freeze\n\nA schema migration froze the deploy pipeline; roll back the migration first.\n")
    (serena / "style_guide.md").write_text("# Style guide\n\nFour spaces, no tabs, short functions.\n")
    claude = root / ".claude/memory"
    claude.mkdir(parents=True)
    (claude / "MEMORY.md").write_text("# Memory\n\n- [deploy-rollback](deploy-rollback.md): deploy rollback\n")
    (claude / "deploy-rollback.md").write_text(
        "---\nname: deploy-rollback\ndescription: how a frozen deploy was rolled back\ntype: project\n---\n\n"
        "The deploy froze after a schema migration; the rollback script undid it.\n")
    return root


async def _search(app, pilot, query: str):
    screen = app.screen
    await wait_until(pilot, lambda: screen.engine is not None)
    input_ = screen.query_one("#lab-query")
    input_.value = ""
    await pilot.click("#lab-query")
    await pilot.press(*query, "enter")
    await wait_until(pilot, lambda: screen.result is not None and screen.result.query == query)
    await settle(app, pilot)
    return [r.value for r in screen.query_one("#fused").rows]


async def _lab_searches_the_whole_repository_then_the_narrowed_source(app, pilot):
    assert app.scope is None and len(app.workbench.loaded()) == 2
    await pilot.press("4")
    screen = app.screen
    await wait_until(pilot, lambda: screen.engines is not None)
    keys = await _search(app, pilot, "deploy schema migration froze")
    assert ".serena/memories/deploy_freeze.md" in keys and ".claude/memory/deploy-rollback.md" in keys
    assert "whole repository (2 memory systems)" in str(screen.query_one("#lab-fused-title").render())
    # why not? resolves a path in any source (with its folder or as its source shows it)
    screen._explain("style_guide.md")
    why = str(screen.query_one("#why").render())
    assert ".serena/memories" in why and "not in any memory system" not in why
    screen._explain(".claude/memory/deploy-rollback.md")
    assert "retrieved at rank" in str(screen.query_one("#why").render())
    # s narrows to one memory system: only its memories, store-relative, as before
    await pilot.press("escape", "s")
    await settle(app, pilot)
    await wait_until(pilot, lambda: screen.engines is None and screen.engine is not None)
    narrowed = app.workbench.sources[app.scope]
    keys = await _search(app, pilot, "deploy rollback froze")
    store = narrowed.workspace.store
    assert keys and all(k in store.records for k in keys)
    title = str(screen.query_one("#lab-fused-title").render())
    assert "whole repository" not in title


async def _lab_opens_a_result_of_the_whole_repository_in_its_own_source(app, pilot):
    await pilot.press("4")
    screen = app.screen
    await wait_until(pilot, lambda: screen.engines is not None)
    keys = await _search(app, pilot, "deploy schema migration froze")
    table = screen.query_one("#fused")
    assert "claude: deploy-rollback.md" in str(table.get_row(".claude/memory/deploy-rollback.md")[1])
    table.focus()
    table.move_cursor(row=keys.index(".claude/memory/deploy-rollback.md"))
    await pilot.press("enter")
    await settle(app, pilot)
    assert app.workbench.sources[app.workbench.current].name == ".claude/memory"
    assert app.scope is None  # opening a file never narrows the scope


async def test_lab_opens_a_result_in_its_source_then_searches_then_narrows_on_one_launch(tmp_path):
    """Both steps on one launch (a launch is ~1 s of CPU), the lab new at each: at 80×24 a result
    of the whole repository opens in its own source (the scope stays whole), then at 120×36 the
    whole repository is searched and s narrows it (last: the narrowed scope stays)."""
    root = _repo(tmp_path)
    app = make_app(root, given=root.name, token_counter=FakeTokenCounter(), theme="curator-dark",
                   remember_theme=False, layout=discover(root))
    async with app.run_test(size=(80, 24)) as pilot:
        await run_steps(app, pilot, (((80, 24), ("lab",), _lab_opens_a_result_of_the_whole_repository_in_its_own_source),
                                     ((120, 36), ("lab",), _lab_searches_the_whole_repository_then_the_narrowed_source)))
