"""The journal, browsable: every curator operation on this store (and on the repository's
instruction files, journaled at its root) and its state. An entry written before journal
entries were sealed is *unverifiable*: never acted on unasked; Enter on it closes the dialog
with that entry, and the app shows what undoing it would restore before anything is written."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ...reports.escape import visible
from ..widgets import RowTable
from ..widgets.table import clip


class HistoryDialog(ModalScreen[dict | None]):
    DEFAULT_CSS = """
    HistoryDialog { align: center middle; }
    HistoryDialog > Vertical { width: 100%; max-width: 130; height: auto; max-height: 100%; border: thick $primary; background: $surface; }
    HistoryDialog DataTable { height: auto; max-height: 20; }
    HistoryDialog Static { padding: 0 1; color: $text-muted; }
    """
    BINDINGS = [Binding("escape,q", "close", "Close", id="close-history", tooltip="Close the history")]

    def __init__(self, items: list[dict], what: str = "this store", **kwargs) -> None:
        super().__init__(**kwargs)
        self.items = items  # `where` in each: from more than one journal (the store's, the repository's)
        self.what = what

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"Operations on {self.what} (newest last). ctrl+z undoes the last applied one; "
                         "Escape closes.")
            if any(it["state"] == "unverifiable" for it in self.items):
                yield Static("unverifiable: written before journal entries were sealed, so curator cannot tell who "
                             "wrote it and never acts on it unasked — Enter on one shows what undoing it would "
                             "restore.", id="history-unverifiable")
            table = RowTable(cursor_type="row", zebra_stripes=True)
            table.display = bool(self.items)
            yield table
            detail = Static("", id="history-detail")  # the highlighted entry whole: its title, its files
            detail.display = bool(self.items)
            yield detail
            if not self.items:
                yield Static(f"No curator operation on {self.what} yet: fixes, promotes, keyword edits and "
                             "prunes appear here once applied.", classes="history-empty")

    def on_mount(self) -> None:
        if self.items:
            self.call_after_refresh(self._fill)  # once laid out: the width the cells are cut to

    def _fill(self) -> None:
        """The rows cut to the dialog's width, each cut cell ending in an ellipsis."""
        table = self.query_one(RowTable)
        merged = any("where" in it for it in self.items)
        room = self.query_one(Vertical).content_region.width
        short = room < 100  # at 80 columns: no year, so that the title (what was done) has room
        whens = [(it["created"] or "").replace("T", " ")[5 if short else 0:16] for it in self.items]  # UTC, to the minute

        def fit(label: str, cells) -> tuple[str, int]:  # a column as wide as its widest cell
            return label, max([len(label), *(len(c) for c in cells)])

        columns: list[tuple[str | Text, int | None]] = [fit("id", [it["id"] for it in self.items]), fit("state", [it["state"] for it in self.items]),
                   fit("when", whens)]
        columns += [fit("in", [it.get("where", "") for it in self.items])] if merged else []
        columns += [("what", None), fit("files", [str(len(it["files"])) for it in self.items])]
        widths = table.set_columns(columns, room)
        for n, (it, when) in enumerate(zip(self.items, whens, strict=True)):
            cells = [it["id"], it["state"], when] + ([it.get("where", "")] if merged else [])
            cells += [it["title"] or ""]  # from the journal: control characters shown, never sent
            row = [clip(visible(str(v)), w) for v, w in zip(cells, widths, strict=False)]
            table.add_row(*row, str(len(it["files"])), key=str(n))  # Text: a title holding `[/]` is not markup

    def on_data_table_row_highlighted(self, event: RowTable.RowHighlighted) -> None:
        """What the row's cells cut: the title and the files, whole (as the journal holds them)."""
        if event.row_key is None or event.row_key.value is None:
            return
        it = self.items[int(event.row_key.value)]
        files = [visible(str(f)) for f in it["files"]]
        shown = ", ".join(files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")
        detail = self.query_one("#history-detail", Static)
        detail.update(Text(f"{visible(it['title'] or it['id'])}\n{len(files)} file(s): {shown}"))

    def on_data_table_row_selected(self, event: RowTable.RowSelected) -> None:
        """Enter on an unverifiable entry: the app previews undoing it (nothing else is acted on here)."""
        if event.row_key.value is None:
            return
        item = self.items[int(event.row_key.value)]
        if item["state"] == "unverifiable":
            self.dismiss(item)
        else:
            self.notify("Only an unverifiable entry is opened here; ctrl+z undoes the newest applied operation",
                        timeout=4)

    def action_close(self) -> None:
        self.dismiss(None)
