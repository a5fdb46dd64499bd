"""Drive the app with keys like a person would, and assert on what it shows and holds."""

from __future__ import annotations

import pytest
from textual.widgets import ContentSwitcher, DataTable, Input, Static

from curator.tui.screens import (
    BudgetsScreen,
    HelpScreen,
    MainScreen,
    ProblemsScreen,
    RetrievalLabScreen,
)
from curator.tui.widgets import IndexView, StoreTree
from tests.pilot.conftest import back_to_start, palette_pick, settle, text_of, wait_until


async def _loads_in_a_worker_and_shows_the_tree(app, pilot):
    await settle(app, pilot)
    assert app.workspace is not None
    tree = app.screen.query_one(StoreTree)
    labels = [str(n.label) for n in tree.root.children]
    assert labels[0].startswith("Indexes") and any(label.startswith("semantic") for label in labels)
    assert "✖" in labels[0]  # finding badges on the index group


async def _arrow_keys_select_an_index_then_a_record(app, pilot):
    await settle(app, pilot)
    screen = app.screen
    # the first screen: the overview, tiers folded below their level
    assert screen.query_one(ContentSwitcher).current == "welcome"
    await pilot.press("enter", "down")  # unfold Indexes, then memory-index.md
    await settle(app, pilot)
    assert isinstance(screen, MainScreen) and screen.selected == "memory-index.md"
    assert screen.query_one(ContentSwitcher).current == "index"
    rows = screen.query_one(IndexView).query_one(DataTable)
    assert rows.row_count == len(app.workspace.store.l0.rows)
    tree = screen.query_one(StoreTree)
    for _ in range(40):  # walk on with j, unfolding tiers and folders on the way
        await pilot.press("j")
        await settle(app, pilot)
        node = tree.cursor_node
        if screen.selected is None and node is not None and node.children and not node.is_expanded:
            await pilot.press("enter")
        if screen.selected is not None and screen.query_one(ContentSwitcher).current == "record":
            break
    await settle(app, pilot)
    assert screen.selected is not None and screen.selected.endswith(".md")
    assert screen.query_one(ContentSwitcher).current == "record"
    facts = text_of(screen.query_one("#facts", Static))
    assert screen.selected in facts


async def _index_row_shows_overlapping_rows(app, pilot):
    await settle(app, pilot)
    app.screen.open_path("skills-review-index.md")
    await settle(app, pilot)
    view = app.screen.query_one(IndexView)
    table = view.query_one(DataTable)
    table.focus()
    await pilot.press("down")
    await settle(app, pilot)
    overlaps = text_of(view.query_one("#overlaps", Static))
    assert "skills-review-index.md:" in overlaps and "shares" in overlaps


async def _problems_filter_toggle_and_jump(app, pilot):
    await settle(app, pilot)
    await pilot.press("2")
    await settle(app, pilot)
    screen = app.screen
    assert isinstance(screen, ProblemsScreen)
    total = len(app.workspace.findings)
    assert len(screen.shown) == total
    await pilot.press("w")  # hide warnings
    assert all(x.finding.severity.label != "warning" for x in screen.shown)
    await pilot.press("w")
    await pilot.press("slash")
    await pilot.press(*"missing-target")
    await pilot.press("enter")
    await settle(app, pilot)
    assert {x.finding.check for x in screen.shown} == {"index.missing-target"}
    first = screen.shown[0].finding
    await pilot.press("enter")
    await settle(app, pilot)
    assert isinstance(app.screen, MainScreen) and app.screen.selected == first.path


async def _budgets_screen_and_open_largest(app, pilot):
    await settle(app, pilot)
    await pilot.press("3")
    await settle(app, pilot)
    screen = app.screen
    assert isinstance(screen, BudgetsScreen)
    head = text_of(screen.query_one("#startup", Static))
    st = app.workspace.report.startup
    assert f"{st.tokens:,} / {st.budget:,}" in head and "memory-index.md" in head
    assert ("over budget" in head) == st.over
    await pilot.press("f")
    await pilot.press("enter")
    await settle(app, pilot)
    assert isinstance(app.screen, MainScreen)
    assert app.screen.selected == app.workspace.report.files[0][0]


async def _lab_updates_as_you_type_and_explains_a_miss(app, pilot):
    await settle(app, pilot)
    await pilot.press("4")
    await settle(app, pilot)
    screen = app.screen
    assert isinstance(screen, RetrievalLabScreen)
    await wait_until(pilot, lambda: screen.engine is not None)
    await pilot.press(*"interactive rebase")
    await wait_until(pilot, lambda: screen.result is not None and screen.result.query == "interactive rebase")
    fused = screen.query_one("#fused", DataTable)
    assert fused.row_count >= 1
    assert screen.result.hits[0].path == "git/git-interactive-rebase.md"
    trace = text_of(screen.query_one("#trace", Static))
    assert "memory-index.md" in trace and "skills-git-index.md" in trace
    why = screen.query_one("#why-path", Input)
    why.focus()
    why.value = "frontend/frontend-bundle-size.md"
    await pilot.press("enter")
    await settle(app, pilot)
    assert "not routed" in text_of(screen.query_one("#why", Static))


async def _help_palette_and_theme(app, pilot):
    await settle(app, pilot)
    await pilot.press("f1")
    await pilot.pause()
    assert isinstance(app.screen, HelpScreen)
    await pilot.press("escape")
    await pilot.pause()
    assert isinstance(app.screen, MainScreen)
    before = app.theme
    await pilot.press("ctrl+t")
    await pilot.pause()
    assert app.theme != before and app.theme.startswith("curator-")


async def _palette_opens_a_file(app, pilot):
    await settle(app, pilot)
    await palette_pick(app, pilot, "open: git/git-lfs")
    assert isinstance(app.screen, MainScreen) and app.screen.selected == "git/git-lfs-fixtures.md"


async def test_missing_store_is_a_message_not_a_crash(tmp_path):
    from curator.base.tokens import FakeTokenCounter
    from curator.tui.app import make_app

    app = make_app(tmp_path / "gone", token_counter=FakeTokenCounter())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        assert app.workspace is None and "not found" in (app.load_error or "")


@pytest.mark.slow  # eight walks on one launch: started first, so the suite does not end waiting on it
async def test_the_sample_store_driven_by_keys_on_one_launch(app):
    """The read-only steps above on one launch (each launch is ~0.5 s of CPU before any key), each
    from the store screen with no dialog open; the first two while the tree is as it opens, the
    theme switch last."""
    async with app.run_test(size=(120, 36)) as pilot:
        for size, step in (((120, 36), _loads_in_a_worker_and_shows_the_tree),
                           ((120, 36), _arrow_keys_select_an_index_then_a_record),
                           ((120, 36), _index_row_shows_overlapping_rows),
                           ((120, 36), _problems_filter_toggle_and_jump),
                           ((120, 40), _budgets_screen_and_open_largest),
                           ((120, 36), _lab_updates_as_you_type_and_explains_a_miss),
                           ((120, 36), _palette_opens_a_file),
                           ((120, 36), _help_palette_and_theme)):
            await back_to_start(app, pilot, size)
            await step(app, pilot)
