"""Views stay true: files edited outside, tier nodes, the memory a promote made, dialogs that
keep what was typed, and layouts at 80×24."""

from __future__ import annotations

from textual.widgets import ContentSwitcher, Input, Select, Static

from curator.tui.dialogs import DiffDialog, KeywordDialog, PromoteDialog
from curator.tui.dialogs.promote_dialog import slug_words
from curator.tui.screens import MainScreen
from curator.tui.widgets import StoreTree
from tests.pilot.conftest import (
    back_to_start,
    drawn_lines,
    search_in_lab,
    settle,
    text_of,
    wait_until,
)

SRC = "validation/2026-11-18-c0ffee.md"


async def test_reselecting_a_file_edited_outside_shows_new_tokens(app, sample_copy):
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = app.screen
        path = "api/api-error-envelope.md"
        screen.open_path(path)
        await settle(app, pilot)
        before = app.workspace.store.records[path].tokens
        (sample_copy / path).write_text((sample_copy / path).read_text() + "\nmore words " * 200)
        screen.open_path("api/api-idempotency-keys.md")
        await settle(app, pilot)
        tree = screen.query_one(StoreTree)
        tree.focus()
        await pilot.press("up")  # back onto the edited file
        await wait_until(pilot, lambda: app.workspace.store.records[path].tokens != before)
        assert app.workspace.store.records[path].tokens > before
        assert f"{app.workspace.store.records[path].tokens:,}" in text_of(screen.query_one("#facts", Static))


async def _a_tier_node_replaces_the_file_in_the_detail_pane(app, pilot):
    await settle(app, pilot)
    screen = app.screen
    assert screen.query_one(ContentSwitcher).current == "welcome"  # the overview first
    await pilot.press("enter", "down")  # unfold Indexes, then memory-index.md
    await settle(app, pilot)
    assert screen.query_one(ContentSwitcher).current == "index"
    await pilot.press("up")  # the Indexes group
    await settle(app, pilot)
    assert screen.query_one(ContentSwitcher).current == "group"
    shown = text_of(screen.query_one("#group", Static))
    assert "Indexes" in shown and "memory-index.md" in shown and "file(s)" in shown
    assert screen.selected is None


async def test_promote_refusal_keeps_the_dialog_then_shows_the_new_memory(app, sample_copy):
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = app.screen
        screen.open_path(SRC)
        await settle(app, pilot)
        await pilot.press("p")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, PromoteDialog)
        # the whole dialog fits 80×24: the Preview button is on screen
        assert dialog.query_one("#preview").region.bottom <= 24
        dest = dialog.query_one("#pr-dest", Input)
        dest.value = "../outside.md"
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.screen is dialog and dest.value == "../outside.md"
        assert "store" in text_of(dialog.query_one("#pr-error", Static))
        dest.value = "ci/ci-webhook-signing-rotation.md"
        dialog.query_one("#pr-index", Select).value = "skills-ci-index.md"
        await settle(app, pilot)
        assert dest.value == "ci/ci-webhook-signing-rotation.md"  # typed: kept on index change
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, DiffDialog)
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, MainScreen)
                         and app.screen.selected == "ci/ci-webhook-signing-rotation.md")
        assert app.screen.query_one(ContentSwitcher).current == "record"


async def _promote_destination_follows_the_index_until_typed(app, pilot):
    await settle(app, pilot)
    app.screen.open_path(SRC)
    await settle(app, pilot)
    await pilot.press("p")
    await settle(app, pilot)
    dialog = app.screen
    dest = dialog.query_one("#pr-dest", Input)
    select = dialog.query_one("#pr-index", Select)
    other = next(i for i in sorted(app.workspace.store.domain_indexes) if i != select.value)
    first = dest.value
    select.value = other
    await settle(app, pilot)
    assert dest.value != first and dest.value.endswith(".md")


def test_suggested_names_end_on_a_meaningful_word():
    assert slug_words("How to rotate the webhook signing secret without downtime") == [
        "rotate", "webhook", "signing", "secret", "downtime"]
    assert slug_words("Cache keys for the ...", 5) == ["cache", "keys"]
    assert slug_words("") == []


async def _keyword_editor_keeps_the_text_and_warns_below_five(app, pilot):
    await settle(app, pilot)
    app.screen.open_path("skills-review-index.md")
    await settle(app, pilot)
    view = app.screen.query_one("#index-rows")
    view.focus()
    await pilot.press("down", "e")
    await settle(app, pilot)
    dialog = app.screen
    assert isinstance(dialog, KeywordDialog)
    box = dialog.query_one(Input)
    before = box.value
    # the cursor is at the end and the end is in view: what is typed is seen being added
    assert box.cursor_position == len(before)
    if len(before) >= box.size.width:
        assert box.scroll_offset.x > 0
    await pilot.press(*" zz")
    assert box.value == before + " zz"  # typing adds; nothing was selected
    box.value = "one two three"
    await settle(app, pilot)
    meter = text_of(dialog.query_one("#kw-meter", Static))
    assert "3 keyword(s)" in meter and "fewer than 5" in meter
    await pilot.press("escape")
    assert not isinstance(app.screen, KeywordDialog)


async def _lab_shows_words_as_typed_never_stems(app, pilot):
    screen = await search_in_lab(app, pilot, "rebasing charges twice")
    title = text_of(screen.query_one("#lab-fused-title", Static))
    assert "rebasing charges twice" in title and "charg " not in title and "rebas " not in title
    await pilot.press("escape")
    why = screen.query_one("#why-path", Input)
    why.value = "git/no-such-memory.md"
    await pilot.press("y")  # y puts the highlighted memory in the box and explains it
    assert why.value == screen.query_one("#fused").coordinate_to_cell_key((0, 0)).row_key.value
    answer = screen.query_one("#why", Static)
    assert answer.region.bottom <= 23  # visible at 80×24, above the footer
    assert "charg" not in text_of(answer).replace("charges", "")


async def _budgets_agree_with_the_tree_and_explain_themselves(app, pilot):
    from curator.tui.widgets.budget_bar import compact

    await settle(app, pilot)
    tree = app.screen.query_one(StoreTree)
    semantic = next(str(n.label) for n in tree.root.children if str(n.label).startswith("semantic"))
    await pilot.press("3")
    await settle(app, pilot)
    screen = app.screen
    tiers = text_of(screen.query_one("#tier-bars", Static))
    assert semantic.split()[-1] in tiers  # the same semantic total as the tree
    store = app.workspace.store
    index_total = sum(r.tokens or 0 for r in store.records.values() if r.readable and r.level < 2)
    assert "indexes" in tiers and compact(index_total) in tiers
    key = text_of(screen.query_one("#budget-key", Static))
    assert "name/" in key and "no index routes to" in key
    assert "even at = entries" in " ".join(text_of(screen.query_one("#cost-key", Static)).split())
    assert screen.has_class("-narrow")  # the two tables stack at 80 columns
    await pilot.resize_terminal(140, 40)
    await settle(app, pilot)
    assert not screen.has_class("-narrow")


async def _prune_ticks_differ_by_shape_not_only_colour(app, pilot):
    from curator.tui.dialogs import PruneDialog
    from curator.tui.dialogs.prune_dialog import TickList

    await settle(app, pilot)
    await pilot.press("2", "P")
    await settle(app, pilot)
    dialog = app.screen
    assert isinstance(dialog, PruneDialog)
    ticks = dialog.query_one(TickList)
    marks = []
    for y in range(ticks.option_count):
        value = ticks.get_option_at_index(y).value
        marks.append((value in ticks.selected, ticks.render_line(y).text[0:3]))
    assert {m for ticked, m in marks if ticked} == {"▐✔▌"}
    assert {m for ticked, m in marks if not ticked} == {"▐ ▌"}
    assert dialog.query_one("#preview").region.bottom <= 24


async def _a_resized_terminal_refits_tree_and_tables(app, pilot):
    await settle(app, pilot)
    tree = app.screen.query_one(StoreTree)
    tree.root.expand_all()  # long names on screen (the tree opens folded)
    await settle(app, pilot)
    wide = tree.size.width
    await pilot.resize_terminal(80, 24)
    await settle(app, pilot)
    assert tree.size.width <= 36 < wide  # at most 45% of 80 columns
    # every visible line keeps its token count whole: the name gives way, not the number
    for y, line in enumerate(drawn_lines(tree)):
        line = line.rstrip(" ▕▇▆▅▄▃▂▁")
        node = tree.get_node_at_line(tree.scroll_offset.y + y)
        if node is not None and line:
            assert line.split()[-1] == str(node.label).split()[-1], line
    await pilot.press("2")
    await settle(app, pilot)
    table = app.screen.query_one("#problems")
    assert sum(c.get_render_width(table) for c in table.columns.values()) <= 80
    await pilot.resize_terminal(120, 36)
    await settle(app, pilot)
    assert [c.label.plain for c in table.columns.values()][0] == "severity"


async def test_read_only_views_share_one_launch(app):
    """The read-only steps above on one launch (a launch is ~1 s of CPU), each from the store
    screen with no dialog open (`back_to_start`); the tier node first, while the overview is
    the first screen."""
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        for size, step in (((80, 24), _a_tier_node_replaces_the_file_in_the_detail_pane),
                           ((80, 24), _keyword_editor_keeps_the_text_and_warns_below_five),
                           ((80, 24), _prune_ticks_differ_by_shape_not_only_colour),
                           ((80, 24), _lab_shows_words_as_typed_never_stems),
                           ((80, 24), _budgets_agree_with_the_tree_and_explain_themselves),  # ends at 140×40
                           ((120, 36), _promote_destination_follows_the_index_until_typed),
                           ((120, 36), _a_resized_terminal_refits_tree_and_tables)):
            await back_to_start(app, pilot, size)
            await step(app, pilot)
