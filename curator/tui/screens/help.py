"""F1 help: what the current screen is for, and its live key bindings."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

GLOBAL = (
    "curator shows an agent's memory store: tiers, indexes, findings, token budgets, and what "
    "retrieval would load. Everything here has a CLI twin (`curator check`, `tokens`, `retrieve`, ...)."
)
MOVING = (
    "Moving: ↑↓ or j k, PageUp/PageDown, Home/End (g G) in lists and tables; Tab to the next pane; "
    "Esc or ↓ leaves a text box; ctrl+p finds any command."
)


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 100%; max-width: 100; height: auto; max-height: 100%;
        border: round $primary; background: $surface; padding: 0 1;
    }
    """
    BINDINGS = [
        Binding("escape,f1,q,question_mark", "dismiss", "Close", id="close-help", tooltip="Close help"),
    ]

    def __init__(self, screen_help: str, bindings: list[tuple[str, str]], **kwargs) -> None:
        super().__init__(**kwargs)
        self.screen_help = screen_help
        self.binding_rows = bindings

    def compose(self) -> ComposeResult:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for keys, what in self.binding_rows:
            table.add_row(keys, what)
        body = Table.grid()
        body.add_row(Text(self.screen_help))
        body.add_row(Text("Keys", style="bold"))
        body.add_row(table)
        body.add_row(Text(MOVING, style="dim"))
        body.add_row(Text("Escape closes this help. The mouse works too.", style="dim"))
        body.add_row(Text(GLOBAL, style="dim"))
        with VerticalScroll() as scroll:
            scroll.border_title = "curator help"
            yield Static(body)

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)
