"""The focus model: text boxes take only what is typed, Escape and Down leave them, app keys
work again once out, and the footer shows only keys that work where the focus is."""

from __future__ import annotations

from textual.widgets import DataTable, Input

from curator.tui.screens import MainScreen, ProblemsScreen, RetrievalLabScreen
from tests.pilot.conftest import run_steps, search_in_lab, settle, wait_until


def shown_keys(screen) -> set[str]:
    """Keys the footer would show right now (bindings enabled and meant to be shown)."""
    return {key for key, active in screen.active_bindings.items() if active.binding.show and active.enabled}


def lit(title) -> bool:
    """A pane's title in the focused pane's style (app.tcss: `:focus-within > .lab-title`)."""
    return "reverse" in str(title.styles.text_style)


async def _lab_query_takes_digits_and_escape_gives_the_keys_back(app, pilot):
    await settle(app, pilot)
    await pilot.press("4")
    await settle(app, pilot)
    screen = app.screen
    assert isinstance(screen, RetrievalLabScreen)
    query = screen.query_one("#lab-query", Input)
    assert app.focused is query
    assert "1" not in shown_keys(screen) and "q" not in shown_keys(screen)  # typed, not keys
    await pilot.press(*"undo 1 q")
    assert query.value == "undo 1 q" and isinstance(app.screen, RetrievalLabScreen)
    fused_title, why_title = screen.query(".lab-title")[:2]
    assert not lit(fused_title) and not lit(why_title)  # the focus is in the query box
    await pilot.press("escape")
    assert app.focused is screen.query_one("#fused", DataTable)
    assert "1" in shown_keys(app.screen)
    assert lit(fused_title) and not lit(why_title)  # the pane the focus is in says so
    await pilot.press("tab")
    assert app.focused is screen.query_one("#why-path", Input)
    assert lit(why_title) and not lit(fused_title)
    await pilot.press("escape")
    await pilot.press("2")
    await settle(app, pilot)
    assert isinstance(app.screen, ProblemsScreen)
    assert query.value == "undo 1 q"  # nothing typed after leaving the box


async def _why_box_escape_leaves_and_y_comes_back(app, pilot):
    screen = await search_in_lab(app, pilot, "deploy")
    await wait_until(pilot, lambda: screen.query_one("#fused", DataTable).row_count > 0)
    await pilot.press("escape", "y")
    why = screen.query_one("#why-path", Input)
    assert app.focused is why and why.value  # y filled in the highlighted memory, selected
    await pilot.press("right", "x")
    assert len(why.value) > 1 and why.value.endswith("x")  # an arrow keeps it to edit; typing adds
    await pilot.press("escape", "y", *"ops/x.md")
    assert why.value == "ops/x.md"  # typing over the path y filled in replaces it
    await pilot.press("escape")
    assert app.focused is screen.query_one("#fused", DataTable)


async def _problem_filter_down_leaves_and_keys_work_again(app, pilot):
    await settle(app, pilot)
    await pilot.press("2")
    await settle(app, pilot)
    screen = app.screen
    await pilot.press("slash", *"e1q")
    box = screen.query_one("#problem-filter", Input)
    assert box.value == "e1q" and isinstance(app.screen, ProblemsScreen)
    assert not screen.hidden  # e was typed, it did not hide the errors
    for key in ("e", "w", "x", "1", "q", "question_mark"):
        assert key not in shown_keys(screen), key
    await pilot.press("backspace", "backspace", "backspace", "down")
    table = screen.query_one("#problems", DataTable)
    assert app.focused is table
    await pilot.press("e")
    assert screen.hidden == {"error"}


async def _tables_move_with_j_k_and_end_never_scrolls_sideways(app, pilot):
    await settle(app, pilot)
    await pilot.press("2")
    await settle(app, pilot)
    table = app.screen.query_one("#problems", DataTable)
    assert app.focused is table and table.cursor_row == 0
    await pilot.press("j", "j", "k")
    assert table.cursor_row == 1
    await pilot.press("end")
    await pilot.pause()
    assert table.cursor_row == table.row_count - 1 and table.scroll_x == 0
    await pilot.press("home")
    assert table.cursor_row == 0


async def _every_shown_key_has_a_working_action(app, pilot):
    """Bindings in the footer of every screen map to an action the screen or app implements."""
    await settle(app, pilot)
    for key in ("1", "2", "3", "4"):
        await pilot.press("escape", key)
        await settle(app, pilot)
        for active in app.screen.active_bindings.values():
            if not (active.binding.show and active.enabled):
                continue
            name = active.binding.action.split("(", 1)[0]
            owner = app if name.startswith("app.") else active.node
            assert hasattr(owner, f"action_{name.removeprefix('app.')}"), (key, active.binding.key)
    assert isinstance(app.screen, RetrievalLabScreen)
    await pilot.press("escape", "1")
    assert isinstance(app.screen, MainScreen)


async def _help_fits_80x24_and_lists_only_curator_keys(app, pilot):
    await settle(app, pilot)
    for mode in ("store", "problems", "budgets", "lab", "sessions", "drift", "context", "review"):
        await app.show_view(mode)
        await settle(app, pilot)
        await pilot.press("f1")
        await settle(app, pilot)
        help_screen = app.screen
        box = help_screen.query_one("VerticalScroll")
        assert box.max_scroll_y == 0 and box.size.height <= 24, mode  # nothing below the fold
        shown = str(help_screen.binding_rows) + str(help_screen.anywhere)
        assert "1-7" in shown and "Cursor" not in shown and "Scroll" not in shown
        await pilot.press("escape")


async def _toasts_do_not_pile_up(app, pilot):
    await settle(app, pilot)
    app.notify("first", severity="error")
    for i in range(4):
        app.notify(f"info {i}")
    await pilot.pause()
    kept = [n.message for n in app.toasts]
    assert kept == ["first", "info 3"]  # the error stays; infos replace each other


async def test_focus_toasts_keys_and_help_on_one_launch(app):
    """Read-only walks share one launch (a launch is ~1 s of CPU), each from the store screen
    (`back_to_start`): the toasts first (none before them); the lab and the problems each on a new
    screen, as at their first visit; then every screen's footer keys, then every screen's F1."""
    async with app.run_test(size=(80, 24)) as pilot:
        await run_steps(app, pilot, ((None, (), _toasts_do_not_pile_up),
                                     (None, ("lab",), _lab_query_takes_digits_and_escape_gives_the_keys_back),
                                     (None, ("lab",), _why_box_escape_leaves_and_y_comes_back),
                                     (None, ("problems",), _problem_filter_down_leaves_and_keys_work_again),
                                     (None, ("problems",), _tables_move_with_j_k_and_end_never_scrolls_sideways),
                                     (None, ("lab", "problems"), _every_shown_key_has_a_working_action),
                                     (None, (), _help_fits_80x24_and_lists_only_curator_keys)))
