"""Edit a row's keywords with the uniqueness and collision meters updating as you type."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from ..widgets import KeyFooter, TextBox
from .meter import meter_text


class KeywordDialog(ModalScreen[list[str] | None]):
    DEFAULT_CSS = """
    KeywordDialog { align: center middle; }
    KeywordDialog > Vertical { width: 90%; max-width: 110; height: auto; border: thick $primary; background: $surface; padding: 1 2; }
    KeywordDialog #kw-meter { height: auto; margin: 1 0; }
    KeywordDialog Horizontal { height: auto; align-horizontal: right; }
    KeywordDialog Button { margin-left: 2; }
    """
    BINDINGS = [
        Binding("ctrl+s", "preview", "Preview diff", id="preview-keywords", tooltip="Show the plan as a diff (Enter too)"),
        Binding("escape", "cancel", "Cancel", id="cancel-keywords", tooltip="Keep the keywords as they are"),
    ]

    def __init__(self, store, index: str, line: int, target: str, keywords: list[str], **kwargs) -> None:
        super().__init__(**kwargs)
        self.store, self.index, self.line, self.target = store, index, line, target
        self.initial = keywords

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"[b]Keywords[/b] of {self.target} in {self.index}:{self.line}")
            yield TextBox(" ".join(self.initial), id="kw-input", placeholder="space-separated keywords")
            yield Static(id="kw-meter")
            with Horizontal():
                yield Button("Cancel", id="cancel")
                yield Button("Preview diff (^s)", id="preview", variant="primary")
        yield KeyFooter(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self._update(self.query_one(Input).value)
        self.query_one(Input).focus()

    def _words(self, value: str) -> list[str]:
        return [w.lower() for w in value.replace(",", " ").split()]

    def _update(self, value: str) -> None:
        self.query_one("#kw-meter", Static).update(meter_text(self.store, self.index, self._words(value), self.line))

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        self._update(event.value)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(self._words(event.value) or None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "preview":
            self.dismiss(self._words(self.query_one(Input).value) or None)
        else:
            self.dismiss(None)

    def action_preview(self) -> None:
        self.dismiss(self._words(self.query_one(Input).value) or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
