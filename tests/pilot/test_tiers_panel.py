"""The tiers panel: each folder's tier and the start-up load, with why (as `curator tiers`)."""

from __future__ import annotations

from textual.widgets import DataTable

from curator.tui.dialogs import TiersDialog
from tests.pilot.conftest import settle, text_of


async def test_tiers_panel_from_the_palette_action(app):
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(app, pilot)
        await app.run_action("tiers")
        await settle(app, pilot)
        assert isinstance(app.screen, TiersDialog)
        table = app.screen.query_one("#tiers-table", DataTable)
        rows = {table.get_row_at(i)[0]: table.get_row_at(i) for i in range(table.row_count)}
        assert rows["validation/"][1] == "transient" and "ADR-002" in rows["validation/"][4]
        assert rows["reflexion/"][1] == "reflexion"
        head = text_of(app.screen.query_one("#tiers-startup"))
        assert "memory-index.md, knowledge/**" in head and "follows ADR-002" in head
        await pilot.press("escape")
        await settle(app, pilot)
        assert not isinstance(app.screen, TiersDialog)
