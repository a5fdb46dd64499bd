"""A live swap keeps what each screen shows: a tier or folder highlighted in the store tree
stays shown (refreshed from the new snapshot), and the other screens keep their focus and
cursor."""

from __future__ import annotations

from textual.widgets import ContentSwitcher, Static

from curator.tui.screens import MainScreen
from curator.tui.widgets import StoreTree
from tests.pilot.conftest import settle, text_of, wait_until


def group_named(tree, title: str):
    return next(n for n, _i, t, paths, _s in tree._groups if paths is not None and t.startswith(title))


async def highlight_group(app, pilot, title: str):
    tree = app.screen.query_one(StoreTree)
    node = group_named(tree, title)
    parent = node.parent
    while parent is not None:
        parent.expand()
        parent = parent.parent
    await pilot.pause()
    tree.move_cursor(node)
    await settle(app, pilot)
    assert app.screen.query_one(ContentSwitcher).current == "group"
    return node


def pane(app) -> tuple[str, str]:
    return app.screen.query_one(ContentSwitcher).current, text_of(app.screen.query_one("#group", Static))


async def test_an_edit_keeps_a_highlighted_folder_shown_and_refreshed(live):
    app, events, root = live
    async with app.run_test(size=(120, 36)) as pilot:
        await events.ready(app, pilot)
        node = await highlight_group(app, pilot, "git/")
        before = pane(app)[1]
        target = root / "git/git-lfs-fixtures.md"
        target.write_text(target.read_text() + "## More\n" * 16 + "many more words here\n" * 40)
        first = app.workspace
        events.push(target)
        await wait_until(pilot, lambda: app.workspace is not first)
        await settle(app, pilot)
        current, text = pane(app)
        assert isinstance(app.screen, MainScreen) and current == "group"
        assert text.startswith("git/") and text != before  # the new tokens and warning
        assert app.screen.query_one(StoreTree).cursor_node is node


async def test_an_addition_keeps_a_highlighted_folder_shown_in_the_rebuilt_tree(live):
    app, events, root = live
    async with app.run_test(size=(120, 36)) as pilot:
        await events.ready(app, pilot)
        await highlight_group(app, pilot, "git/")
        (root / "git/git-new-note.md").write_text("# New\nsomething new about git\n")
        first = app.workspace
        events.push(root / "git/git-new-note.md")
        await wait_until(pilot, lambda: app.workspace is not first)
        await settle(app, pilot)
        current, text = pane(app)
        assert current == "group" and text.startswith("git/") and "git-new-note.md" in text
        cursor = app.screen.query_one(StoreTree).cursor_node
        assert cursor is not None and str(cursor.label).startswith("git/")


async def test_an_edit_keeps_a_highlighted_tier_shown(live):
    app, events, root = live
    async with app.run_test(size=(120, 36)) as pilot:
        await events.ready(app, pilot)
        tree = app.screen.query_one(StoreTree)
        git = group_named(tree, "git/")
        tier_title = next(t for n, _i, t, p, _s in tree._groups if n is git.parent)
        await highlight_group(app, pilot, tier_title)
        target = root / "git/git-signed-commits.md"
        target.write_text(target.read_text() + "\nchanged outside\n")
        first = app.workspace
        events.push(target)
        await wait_until(pilot, lambda: app.workspace is not first)
        await settle(app, pilot)
        current, text = pane(app)
        assert current == "group" and text.startswith(tier_title.split(" (")[0])


async def edit_outside(app, pilot, events, root, rel: str = "git/git-signed-commits.md") -> None:
    target = root / rel
    target.write_text(target.read_text() + "\nchanged outside\n")
    first = app.workspace
    events.push(target)
    await wait_until(pilot, lambda: app.workspace is not first)
    await settle(app, pilot)


async def test_problems_keep_the_focus_in_the_filter_on_a_live_swap(live):
    from textual.widgets import Input

    app, events, root = live
    async with app.run_test(size=(120, 36)) as pilot:
        await events.ready(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        box = app.screen.query_one("#problem-filter", Input)
        box.focus()
        await pilot.press("g", "i")
        await settle(app, pilot)
        await edit_outside(app, pilot, events, root)
        assert app.screen.focused is box and box.value == "gi"


async def test_budgets_keep_the_cursor_of_the_largest_files_on_a_live_swap(live):
    from textual.widgets import DataTable

    app, events, root = live
    async with app.run_test(size=(120, 36)) as pilot:
        await events.ready(app, pilot)
        await pilot.press("3")
        await settle(app, pilot)
        table = app.screen.query_one("#largest", DataTable)
        assert table.row_count > 3
        table.move_cursor(row=3)
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        await edit_outside(app, pilot, events, root, "git/git-worktree-parallel.md")
        assert table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value == key


async def test_the_lab_keeps_the_cursor_on_its_results_on_a_live_swap(live):
    from textual.widgets import DataTable

    app, events, root = live
    async with app.run_test(size=(120, 36)) as pilot:
        await events.ready(app, pilot)
        await pilot.press("4")
        await settle(app, pilot)
        await pilot.press(*"git", "enter")
        table = app.screen.query_one("#fused", DataTable)
        await wait_until(pilot, lambda: table.row_count > 2)
        table.move_cursor(row=2)
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        engine = app.screen.engine
        await edit_outside(app, pilot, events, root, "git/git-worktree-parallel.md")
        await wait_until(pilot, lambda: app.screen.engine is not engine and app.screen.result is not None)
        await settle(app, pilot)
        assert table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value == key
