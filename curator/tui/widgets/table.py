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

    def set_columns(self, columns: list[tuple[str | Text, int | None]], room: int | None = None) -> list[int]:
        """Replace the columns: (label, width or None to share the rest of the width). Returns
        the widths so that the caller can clip() its cells to them."""
        room = room if room is not None else self.scrollable_content_region.width or self.size.width
        widths = fit_widths(room - 2, [w for _, w in columns], pad=2 * self.cell_padding)  # - the vertical scrollbar
        self.clear(columns=True)
        for (label, _), width in zip(columns, widths, strict=True):
            self.add_column(label, width=width, key=str(label).strip())
        return widths

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


def clip_middle(value: str, width: int, style: str = "") -> Text:
    """A path cut in the middle, so its start and its end (the file name and the `:line`)
    stay readable: `.serena/memories/…/db-index.md:12`."""
    if width > 0 and len(value) > width:
        tail = max(1, (width - 1) * 2 // 3)  # the end says more than the start
        head = max(0, width - 1 - tail)
        value = value[:head] + "…" + value[len(value) - tail:]
    return Text(value, style=style, no_wrap=True, overflow="ellipsis")


def fit_widths(room: int, wants: list[int | None], floor: int = 8, pad: int = 2) -> list[int]:
    """Column widths for `room` cells: fixed wants as given, the None ones share what is left
    (never below `floor`). DataTable pads each cell by `pad` cells (its cell_padding on either side)."""
    fixed = sum(w for w in wants if w is not None)
    flex = [i for i, w in enumerate(wants) if w is None]
    left = room - fixed - pad * len(wants)
    share = max(floor, left // max(1, len(flex)))
    return [w if w is not None else share for w in wants]
