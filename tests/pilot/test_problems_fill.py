"""The Problems table is filled once when the screen opens, and again only when its width
changes (each fill rebuilds every row: ~0.3 s at 2,000 findings)."""

from __future__ import annotations

from curator.tui.screens import ProblemsScreen
from curator.tui.widgets import RowTable
from tests.pilot.conftest import settle


async def test_problems_fill_once_and_again_on_a_new_width(app, monkeypatch):
    fills = []
    original = ProblemsScreen.refilter

    def counted(self):
        fills.append(self.size.width)
        return original(self)

    monkeypatch.setattr(ProblemsScreen, "refilter", counted)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        assert isinstance(app.screen, ProblemsScreen)
        assert len(fills) == 1
        table = app.screen.query_one(RowTable)
        assert table.row_count == len(app.workspace.findings)
        wide = [c.label.plain for c in table.columns.values()]
        await pilot.resize_terminal(80, 24)
        await settle(app, pilot)
        assert len(fills) == 2 and fills[-1] == 80
        assert table.row_count == len(app.workspace.findings)
        assert wide[0] == "severity" and [c.label.plain for c in table.columns.values()][0] == ""  # narrow: icons
