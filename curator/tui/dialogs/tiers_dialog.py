"""Each folder's tier and what loads at start-up, with the rule or evidence behind each
(the app's face of `curator tiers`)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from ...reports.tiers_report import startup_words
from ..widgets import RowTable


class TiersDialog(ModalScreen[None]):
    DEFAULT_CSS = """
    TiersDialog { align: center middle; }
    TiersDialog > Vertical { width: 95%; max-width: 150; height: 80%; border: thick $primary; background: $surface; }
    TiersDialog DataTable { height: 1fr; }
    TiersDialog Static { padding: 0 1; }
    TiersDialog #tiers-why { height: auto; max-height: 4; color: $text-muted; }
    """
    BINDINGS = [Binding("escape,q", "close", "Close", id="close-tiers", tooltip="Close the tiers panel")]

    def __init__(self, data: dict, **kwargs) -> None:
        super().__init__(**kwargs)
        self.data = data  # tiers_json(): folders with tier/records/tokens/why, startup load and why

    def compose(self) -> ComposeResult:
        st = self.data["startup"]
        with Vertical():
            yield Static(Text.assemble(("Start-up load", "bold"), ": " + startup_words(st), "\n",
                                       (f"why: {st['why']}", "dim")), id="tiers-startup")
            table = RowTable(cursor_type="row", zebra_stripes=True, id="tiers-table")  # cut cells end in …
            table.add_columns("folder", "tier", "records", "tokens", "why")
            for f in self.data["folders"]:
                table.add_row(f["folder"], f["tier"], str(f["records"]), f"{f['tokens']:,}", f["why"])
            yield table
            yield Static("", id="tiers-why")  # the highlighted folder's whole why (its cell may be cut)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        folders = self.data["folders"]
        if 0 <= event.cursor_row < len(folders):
            f = folders[event.cursor_row]
            self.query_one("#tiers-why", Static).update(Text.assemble((f["folder"], "bold"), f": {f['why']}"))

    def action_close(self) -> None:
        self.dismiss(None)
