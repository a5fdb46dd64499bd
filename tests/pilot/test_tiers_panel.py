"""The tiers panel: each folder's tier and the start-up load, with why (as `curator tiers`)."""

from __future__ import annotations

from textual.widgets import DataTable

from curator.tui.dialogs import TiersDialog
from tests.pilot.conftest import run_steps, settle, text_of


async def _tiers_table(app, pilot) -> DataTable:
    await settle(app, pilot)
    await app.run_action("tiers")
    await settle(app, pilot)
    assert isinstance(app.screen, TiersDialog)
    return app.screen.query_one("#tiers-table", DataTable)


async def _tiers_panel_from_the_palette_action(app, pilot):
    table = await _tiers_table(app, pilot)
    rows = {table.get_row_at(i)[0]: table.get_row_at(i) for i in range(table.row_count)}
    assert rows["validation/"][1] == "transient" and "ADR-002" in rows["validation/"][4]
    assert rows["reflexion/"][1] == "reflexion"
    head = text_of(app.screen.query_one("#tiers-startup"))
    assert "memory-index.md, knowledge/**" in head and "follows ADR-002" in head
    await pilot.press("escape")
    await settle(app, pilot)
    assert not isinstance(app.screen, TiersDialog)


async def _at_80_columns_a_cut_why_ends_in_an_ellipsis_and_shows_whole_below(app, pilot):
    table = await _tiers_table(app, pilot)
    folders = app.screen.data["folders"]
    room = table.size.width - table.styles.scrollbar_size_vertical
    used = sum(c.get_render_width(table) for c in table.columns.values())
    assert used <= room  # nothing runs past the pane's edge
    whys = [str(table.get_row_at(i)[4]) for i in range(table.row_count)]
    cut = [(w, f["why"]) for w, f in zip(whys, folders, strict=True) if w != f["why"]]
    assert cut and all(w.endswith("…") and f.startswith(w[:-1]) for w, f in cut)
    assert [table.given_row(i)[4] for i in range(table.row_count)] == [f["why"] for f in folders]  # uncut
    table.move_cursor(row=2)
    await settle(app, pilot)
    assert text_of(app.screen.query_one("#tiers-why")).strip() == f"{folders[2]['folder']}: {folders[2]['why']}"


async def test_tiers_panel_at_120_then_80_columns_on_one_launch(app):
    """Both read-only steps on one launch (a launch is ~1 s of CPU): the panel from its action at
    120×36, then, closed and opened again at 80×24, its cut whys."""
    async with app.run_test(size=(120, 36)) as pilot:
        await run_steps(app, pilot, (((120, 36), (), _tiers_panel_from_the_palette_action),
                                     ((80, 24), (), _at_80_columns_a_cut_why_ends_in_an_ellipsis_and_shows_whole_below)))
