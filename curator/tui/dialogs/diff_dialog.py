"""Every write is previewed: the plan as a coloured diff; Apply or Cancel."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ...reports.diff_report import diff_text
from ..widgets import KeyFooter


class DiffDialog(ModalScreen[bool]):
    DEFAULT_CSS = """
    DiffDialog { align: center middle; }
    DiffDialog > Vertical { width: 90%; max-width: 140; height: 85%; border: thick $primary; background: $surface; }
    DiffDialog #diff-title { padding: 0 1; text-style: bold; }
    DiffDialog #diff-notes { padding: 0 1; color: $text-muted; }
    DiffDialog VerticalScroll { height: 1fr; padding: 0 1; }
    DiffDialog #diff-buttons { height: auto; align-horizontal: right; padding: 0 1; }
    DiffDialog Button { margin-left: 2; }
    """
    BINDINGS = [
        Binding("y,ctrl+s", "apply", "Apply", id="apply-plan", tooltip="Write these changes (undo with ctrl+z)"),
        Binding("n,escape", "cancel", "Cancel", id="cancel-plan", tooltip="Write nothing"),
    ]

    def __init__(self, plan, prefix: str = "", store: str | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.plan = plan
        self.prefix = prefix  # the store's folder in the repository: the diff's paths are the repository's
        self.store = store  # the memory system it writes to, in words (None: the repository's instruction files)

    def compose(self) -> ComposeResult:
        files = ", ".join(f"{e.action} {e.path}" for e in self.plan.edits[:6])
        more = f" (+{len(self.plan.edits) - 6} more)" if len(self.plan.edits) > 6 else ""
        into = f"writes to {self.store}: " if self.store else "writes to the repository's instruction files: "
        with Vertical():
            yield Static(f"{self.plan.title} — {len(self.plan.edits)} file(s)", id="diff-title")
            yield Static(into + files + more + ("\n" + "\n".join(self.plan.notes) if self.plan.notes else ""),
                         id="diff-notes")
            with VerticalScroll():
                yield Static(diff_text(self.plan, self.prefix), id="diff-body")
            with Horizontal(id="diff-buttons"):
                # compact: at 80×24 the diff keeps the rows (the footer says y and n too)
                yield Button("Cancel (n)", id="cancel", compact=True)
                yield Button("Apply (y)", id="apply", variant="primary", compact=True)
        yield KeyFooter(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one("#apply", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "apply")

    def action_apply(self) -> None:
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)
