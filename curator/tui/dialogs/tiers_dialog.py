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


class TiersDialog(ModalScreen[None]):
    DEFAULT_CSS = """
    TiersDialog { align: center middle; }
    TiersDialog > Vertical { width: 95%; max-width: 150; height: 80%; border: thick $primary; background: $surface; }
    TiersDialog DataTable { height: 1fr; }
    TiersDialog Static { padding: 0 1; }
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
            table = DataTable(cursor_type="row", zebra_stripes=True, id="tiers-table")
            table.add_columns("folder", "tier", "records", "tokens", "why")
            for f in self.data["folders"]:
                table.add_row(f["folder"], f["tier"], str(f["records"]), f"{f['tokens']:,}", f["why"])
            yield table

    def action_close(self) -> None:
        self.dismiss(None)
