"""RowTable.set_columns: the same columns again keep the table's columns and drop its rows (the
lab refills six tables at each search); other columns replace them."""

from __future__ import annotations

from textual.app import App, ComposeResult

from curator.tui.widgets import RowTable

COLUMNS = [("#", 1), ("memory", None), ("score", 5)]


class _One(App):
    def compose(self) -> ComposeResult:
        yield RowTable(id="t")


async def test_the_same_columns_stay_and_the_rows_go_other_columns_replace_them():
    app = _One()
    async with app.run_test(size=(60, 12)) as pilot:
        table = app.query_one(RowTable)
        widths = table.set_columns(COLUMNS, 40)
        table.add_row("1", "a.md", "0.50", key="a.md")
        columns = list(table.columns.values())
        assert table.set_columns(COLUMNS, 40) == widths
        assert table.row_count == 0 and list(table.columns.values()) == columns
        assert all(a is b for a, b in zip(table.columns.values(), columns, strict=True))  # kept, not made again
        table.add_row("1", "b.md", "0.40", key="b.md")
        assert [r.value for r in table.rows] == ["b.md"]
        table.set_columns(COLUMNS, 30)  # narrower: the memory column's width changes
        assert table.row_count == 0 and table.columns[columns[1].key].width != columns[1].width
        table.set_columns([("#", 1), ("path", None)], 30)
        assert [str(c.label) for c in table.columns.values()] == ["#", "path"]
        await pilot.pause()
