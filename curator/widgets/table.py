"""The one table every screen uses: j/k and Home/End move the row cursor (never sideways)."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.widgets import DataTable


class RowTable(DataTable):
    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False, id="table-down", tooltip="Next row"),
        Binding("k", "cursor_up", "Up", show=False, id="table-up", tooltip="Previous row"),
        Binding("home,g", "first_row", "First", show=False, id="table-first", tooltip="First row"),
        Binding("end,G", "last_row", "Last", show=False, id="table-last", tooltip="Last row"),
    ]

    def action_first_row(self) -> None:
        if self.row_count:
            self.move_cursor(row=0, column=self.cursor_column)
        self.scroll_x = 0

    def action_last_row(self) -> None:
        if self.row_count:
            self.move_cursor(row=self.row_count - 1, column=self.cursor_column)
        self.scroll_x = 0


def clip(value: str, width: int, style: str = "") -> Text:
    """A cell that ends in an ellipsis when cut (DataTable crops silently)."""
    if width > 0 and len(value) > width:
        value = value[: max(0, width - 1)] + "…"
    return Text(value, style=style, no_wrap=True, overflow="ellipsis")
