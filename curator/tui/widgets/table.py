"""The one table every screen uses: j/k and Home/End move the row cursor (never sideways); a
column left to size itself (`add_columns`) is fitted to the pane, a cut cell ending in "…"
(in the middle for a path) — DataTable alone lets the pane's edge crop it silently."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.binding import Binding
from textual.coordinate import Coordinate
from textual.widgets import DataTable


class RowTable(DataTable):
    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False, id="table-down", tooltip="Next row"),
        Binding("k", "cursor_up", "Up", show=False, id="table-up", tooltip="Previous row"),
        Binding("home,g", "first_row", "First", show=False, id="table-first", tooltip="First row"),
        Binding("end,G", "last_row", "Last", show=False, id="table-last", tooltip="Last row"),
    ]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._specs: list[list] = []  # [label, width asked (None: fitted), key] of each column
        self._cells: dict = {}  # row key -> (cells as given, height), while a column is fitted
        self._widths: list[int] | None = None  # the fitted widths the rows were last cut to

    def _fitted(self) -> bool:
        return any(width is None for _, width, _ in self._specs)

    def add_column(self, label, *, width=None, key=None, default=None):
        column = super().add_column(label, width=width, key=key, default=default)
        self._specs.append([label, width, column.value])
        return column

    def add_row(self, *cells, height=1, key=None, label=None):
        if not self._fitted():
            return super().add_row(*cells, height=height, key=key, label=label)
        widths = self._widths or [width or 1 << 30 for _, width, _ in self._specs]  # a fixed width cuts too
        shown = _cut_row(cells, widths)
        row = super().add_row(*shown, height=height, key=key, label=label)
        self._cells[row] = (cells, height)
        if self.is_mounted:
            self.call_after_refresh(self._fit)
        return row

    def given_row(self, index: int) -> list:
        """The row's cells as they were given, before any was cut to fit the pane."""
        key = self.coordinate_to_cell_key(Coordinate(index, 0)).row_key
        given = self._cells.get(key)
        return list(given[0]) if given is not None else self.get_row_at(index)

    def clear(self, columns: bool = False):
        self._cells.clear()
        self._widths = None
        if columns:
            self._specs.clear()
        return super().clear(columns)

    def on_resize(self) -> None:
        if self._fitted():
            self._fit()

    def _fit(self) -> None:
        """Cut the fitted columns to the room when their cells would run past the pane's edge."""
        if not self._cells or not self._fitted():
            return
        room = self.size.width - self.styles.scrollbar_size_vertical - 2 * self.cell_padding * len(self._specs)
        natural = [width if width is not None else max(
            [cell_len(str(label))] + [cell_len(_plain(cells[i])) for cells, _ in self._cells.values() if i < len(cells)])
            for i, (label, width, _) in enumerate(self._specs)]
        # a column of at most 8 cells (numbers, a tier, a date's day) is never cut: the wide ones give way
        widths = _share(room, natural, [width is None and n > 8 for (_, width, _), n in zip(self._specs, natural, strict=True)])
        if widths == (self._widths or natural):
            return
        self._widths = widths
        row = self.cursor_row
        rows = list(self._cells.items())
        super().clear(columns=True)
        for (label, _, key), width in zip(self._specs, widths, strict=True):
            super().add_column(label, width=width, key=key)
        self._cells = {}  # (a row added without a key gets a new one)
        shown = _distinct_rows([cells for _, (cells, _) in rows], widths)
        for (key, (cells, height)), cut_cells in zip(rows, shown, strict=True):
            self._cells[super().add_row(*cut_cells, height=height, key=key.value)] = (cells, height)
        if rows:
            self.move_cursor(row=min(max(row, 0), len(rows) - 1))

    def set_columns(self, columns: list[tuple[str | Text, int | None]], room: int | None = None) -> list[int]:
        """Replace the columns: (label, width or None to share the rest of the width). Returns
        the widths so that the caller can clip() its cells to them."""
        room = room if room is not None else self.scrollable_content_region.width or self.size.width
        widths = fit_widths(room - 2, [w for _, w in columns], pad=2 * self.cell_padding)  # - the vertical scrollbar
        if [[label, width] for (label, _), width in zip(columns, widths, strict=True)] == [s[:2] for s in self._specs]:
            self.clear()  # the same columns: the rows go, the columns stay (the lab's six tables, each search)
            return widths
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


def _share(room: int, natural: list[int], fitted: list[bool]) -> list[int]:
    """Widths for `room` cells: each column its natural width when all fit; else the fixed ones
    and the narrow fitted ones as they are, the rest sharing what is left (never below 8)."""
    if sum(natural) <= room:
        return list(natural)
    widths = list(natural)
    left = room - sum(w for w, f in zip(natural, fitted, strict=True) if not f)
    order = sorted((w, i) for i, (w, f) in enumerate(zip(natural, fitted, strict=True)) if f)
    for n, (w, i) in enumerate(order):
        widths[i] = max(min(w, 8), min(w, left // (len(order) - n)))
        left -= widths[i]
    return widths


def _lead(cell) -> str:
    parts = _plain(cell).split(None, 1)
    return parts[0] if parts else ""


def _plain(cell) -> str:
    return cell.plain if isinstance(cell, Text) else str(cell)


def _cut_row(cells, widths: list[int]) -> list:
    return [cut(cell, w) for cell, w in zip(cells, widths, strict=False)] + list(cells[len(widths):])


def _distinct_rows(rows: list, widths: list[int]) -> list[list]:
    """Every row's cells cut to the widths; a path whose middle cut would hide where it differs
    from its neighbours in the column (`good-…gning.md` twice) is cut where it differs."""
    out = []
    neighbours = []
    for col in range(len(widths)):
        leads = sorted({_lead(cells[col]) for cells in rows if col < len(cells)} - {""})
        place = {lead: i for i, lead in enumerate(leads)}
        neighbours.append((leads, place))
    for cells in rows:
        row = []
        for col, cell in enumerate(cells):
            if col >= len(widths):
                row.append(cell)
                continue
            leads, place = neighbours[col]
            i = place.get(_lead(cell), -1)
            near = [leads[j] for j in (i - 1, i + 1) if i >= 0 and 0 <= j < len(leads)]
            row.append(cut(cell, widths[col], near))
        out.append(row)
    return out


def looks_like_path(value: str) -> bool:
    """A path (cut in the middle: its file name stays) rather than prose (cut at its end)."""
    return "/" in value and not any(c.isspace() for c in value.strip())  # (a bare name: its start tells)


def cut(cell, width: int, near=()):
    """A cell (str or Text, its styles kept) cut to `width` cells with an ellipsis: a path in
    the middle, prose at its end; unchanged when it fits. `near`: the paths above and below it in
    its column — where a middle cut would hide what tells it from them, it is cut where it
    differs (`fitting.distinct_cut`)."""
    text = cell if isinstance(cell, Text) else Text(str(cell))
    if width <= 0 or text.cell_len <= width:
        return cell
    plain = text.plain
    if len(plain) == text.cell_len:  # (wide characters: cut at the end, by cells)
        lead = plain.split(None, 1)[0] if plain.strip() == plain else ""
        if lead and looks_like_path(lead) and len(lead) > 12:
            # a path, or a path then words (`api/x.md  semantic +12 tok`): the path's middle goes first
            rest = len(plain) - len(lead)
            if rest and width - rest >= 12:  # what follows (a tier, a token count: numbers) whole, the path gives way
                keep = width - rest
            else:  # whole when it fits with room to show more follows; else at least two thirds of the cell
                keep = width if not rest else len(lead) if len(lead) <= width - 3 else max(width * 2 // 3, width - rest)
            tail = max(1, (keep - 1) * 2 // 3)
            head = max(0, keep - 1 - tail)
            if keep < len(lead) and any(lead[:head] == o[:head] and lead[-tail:] == o[-tail:] for o in near):
                from .fitting import distinct_cut  # (the middle it would drop is where they differ)

                pieces = distinct_cut(lead, keep, near)
                joined = Text()
                for n, (a, b) in enumerate(pieces):
                    joined.append("…" if n else "")
                    joined.append_text(text[a:b])
                if pieces[-1][1] < len(lead):
                    joined.append("…")
                text = Text.assemble(joined, text[len(lead):])
            elif keep < len(lead):
                text = Text.assemble(text[:head], "…", text[len(lead) - tail:])
    out = text.copy()
    out.no_wrap = True
    out.truncate(width, overflow="ellipsis")
    return out


def clip(value: str, width: int, style: str = "") -> Text:
    """A cell that ends in an ellipsis when cut (DataTable crops silently)."""
    if width > 0 and len(value) > width:
        value = value[: max(0, width - 1)] + "…"
    return Text(value, style=style, no_wrap=True, overflow="ellipsis")


def middle_cut(value: str, width: int) -> str:
    """`value` cut in the middle to `width` cells: its start and its end (the file name, the
    `:line`) stay."""
    if width > 0 and len(value) > width:
        tail = max(1, (width - 1) * 2 // 3)  # the end says more than the start
        head = max(0, width - 1 - tail)
        value = value[:head] + "…" + value[len(value) - tail:]
    return value


def clip_paths(values: list[str], width: int) -> list[str]:
    """A column of paths or names, each cut in its middle — except where two would then look
    the same: those keep what tells them from their neighbours (`fitting.cut_column`)."""
    from .fitting import cut_column

    return cut_column(values, width, middle_cut)


def clip_middle(value: str, width: int, style: str = "") -> Text:
    """A path cut in the middle, so its start and its end (the file name and the `:line`)
    stay readable: `.serena/memories/…/db-index.md:12`."""
    return Text(middle_cut(value, width), style=style, no_wrap=True, overflow="ellipsis")


def fit_widths(room: int, wants: list[int | None], floor: int = 8, pad: int = 2) -> list[int]:
    """Column widths for `room` cells: fixed wants as given, the None ones share what is left
    (never below `floor`). DataTable pads each cell by `pad` cells (its cell_padding on either side)."""
    fixed = sum(w for w in wants if w is not None)
    flex = [i for i, w in enumerate(wants) if w is None]
    left = room - fixed - pad * len(wants)
    share = max(floor, left // max(1, len(flex)))
    return [w if w is not None else share for w in wants]
