"""The prune screen: a tier's records with their age, the expired ones ticked; archive or delete."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Select, SelectionList, Static, Switch
from textual.widgets.selection_list import Selection


@dataclass
class PruneChoice:
    paths: list[str]
    archive: bool


class PruneDialog(ModalScreen[PruneChoice | None]):
    DEFAULT_CSS = """
    PruneDialog { align: center middle; }
    PruneDialog > Vertical { width: 90%; max-width: 110; height: 85%; border: thick $primary; background: $surface; padding: 0 2; }
    PruneDialog SelectionList { height: 1fr; }
    PruneDialog #prune-options { height: auto; margin: 1 0; }
    PruneDialog #prune-options Label { padding: 1 1 0 2; }
    PruneDialog #prune-buttons { height: auto; align-horizontal: right; }
    PruneDialog Button { margin-left: 2; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="cancel-prune", tooltip="Prune nothing")]

    def __init__(self, store, **kwargs) -> None:
        super().__init__(**kwargs)
        self.store = store

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("[b]Prune[/b] — ticked records are archived into .curator/archive (or deleted). "
                         "Expired ones are ticked; space toggles.", id="prune-title")
            with Horizontal(id="prune-options"):
                yield Select([("transient", "transient"), ("reflexion", "reflexion")], value="transient",
                             allow_blank=False, id="prune-tier")
                yield Label("archive (off: delete)")
                yield Switch(value=True, id="prune-archive")
            yield SelectionList[str](id="prune-list")
            yield Static(id="prune-count")
            with Horizontal(id="prune-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Preview diff", id="preview", variant="primary")

    def on_mount(self) -> None:
        self._fill("transient")
        self.query_one(SelectionList).focus()

    def _fill(self, tier: str) -> None:
        from ..curation import prune_candidates

        ttl = self.store.config.ttl_days.get(tier, 30)
        try:
            expired = set(prune_candidates(self.store, tier))
        except Exception:  # noqa: BLE001 - no candidates is shown as an empty tick list
            expired = set()
        recs = sorted((r for r in self.store.records.values() if r.level == 2 and r.tier == tier),
                      key=lambda r: (r.date or "", r.path))
        items = []
        for r in recs:
            try:
                age = (self.store.today - date.fromisoformat(r.date)).days if r.date else None
            except ValueError:
                age = None
            label = Text(r.path)
            label.append(f"  {r.date or 'undated'}", style="dim")
            if age is not None:
                label.append(f"  {age} days", style="bold red" if age > ttl else "dim")
            items.append(Selection(label, r.path, r.path in expired))
        selection = self.query_one(SelectionList)
        selection.clear_options()
        selection.add_options(items)
        self._count()

    def _count(self) -> None:
        n = len(self.query_one(SelectionList).selected)
        self.query_one("#prune-count", Static).update(f"{n} record(s) ticked")

    @on(Select.Changed, "#prune-tier")
    def _tier(self, event: Select.Changed) -> None:
        self._fill(str(event.value))

    @on(SelectionList.SelectedChanged)
    def _selected(self) -> None:
        self._count()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id != "preview":
            self.dismiss(None)
            return
        paths = list(self.query_one(SelectionList).selected)
        self.dismiss(PruneChoice(paths, self.query_one(Switch).value) if paths else None)

    def action_cancel(self) -> None:
        self.dismiss(None)
