"""The journal, browsable: every curator operation on this store and its state."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ..widgets import RowTable


class HistoryDialog(ModalScreen[None]):
    DEFAULT_CSS = """
    HistoryDialog { align: center middle; }
    HistoryDialog > Vertical { width: 100%; max-width: 130; height: auto; max-height: 100%; border: thick $primary; background: $surface; }
    HistoryDialog DataTable { height: auto; max-height: 20; }
    HistoryDialog Static { padding: 0 1; color: $text-muted; }
    """
    BINDINGS = [Binding("escape,q", "close", "Close", id="close-history", tooltip="Close the history")]

    def __init__(self, items: list[dict], **kwargs) -> None:
        super().__init__(**kwargs)
        self.items = items

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Operations on this store (newest last). ctrl+z undoes the last applied one; Escape closes.")
            table = RowTable(cursor_type="row", zebra_stripes=True)
            table.add_columns("id", "state", "when", "what", "files")
            for it in self.items:
                table.add_row(*(Text(str(v or "")) for v in (it["id"], it["state"], it["created"], it["title"])),
                              str(len(it["files"])))  # Text: a title holding `[/]` is not markup
            table.display = bool(self.items)
            yield table
            if not self.items:
                yield Static("No curator operation on this store yet: fixes, promotes, keyword edits and "
                             "prunes appear here once applied.", classes="history-empty")

    def action_close(self) -> None:
        self.dismiss(None)
