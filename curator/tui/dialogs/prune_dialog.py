"""The prune screen: a tier's records with their age, the expired ones ticked; archive or delete."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from rich.segment import Segment
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.strip import Strip
from textual.widgets import Button, Checkbox, Label, Select, SelectionList, Static, Switch
from textual.widgets.option_list import OptionDoesNotExist
from textual.widgets.selection_list import Selection

from ..widgets import KeyFooter


class TickList(SelectionList[str]):
    """A selection list whose boxes differ by shape, not only colour: ✔ ticked, blank not."""

    def render_line(self, y: int) -> Strip:
        line = super().render_line(y)
        try:
            option = self.get_option_at_index(self.scroll_offset.y + y)
        except OptionDoesNotExist:
            return line
        segments = list(line)
        if len(segments) > 1 and segments[1].text == Checkbox.BUTTON_INNER:
            mark = "✔" if option.value in self.selected else " "
            segments[1] = Segment(mark, segments[1].style)
        return Strip(segments)


@dataclass
class PruneChoice:
    paths: list[str]
    archive: bool


class PruneDialog(ModalScreen[PruneChoice | None]):
    DEFAULT_CSS = """
    PruneDialog { align: center middle; }
    PruneDialog > Vertical { width: 100%; max-width: 110; height: 100%; max-height: 30; border: round $primary; background: $surface; padding: 0 1; }
    PruneDialog SelectionList { height: 1fr; }
    PruneDialog #prune-options { height: auto; margin: 1 0 0 0; }
    PruneDialog #prune-options Select { width: 20; }
    PruneDialog #prune-options Label { padding: 0 1 0 2; }
    PruneDialog #prune-buttons { height: auto; align-horizontal: right; }
    PruneDialog Button { margin-left: 2; }
    """
    BINDINGS = [
        Binding("ctrl+s", "preview", "Preview diff", id="preview-prune", tooltip="Show the plan as a diff"),
        Binding("escape", "cancel", "Cancel", id="cancel-prune", tooltip="Prune nothing"),
    ]

    def __init__(self, store, **kwargs) -> None:
        super().__init__(**kwargs)
        self.store = store

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("[b]Prune[/b] — ✔ records are archived into .curator/archive (or deleted); "
                         "the expired ones (age in days, older than the tier's TTL) start ticked. "
                         "Space toggles.", id="prune-title")
            with Horizontal(id="prune-options"):
                yield Select([("transient", "transient"), ("reflexion", "reflexion")], value="transient",
                             allow_blank=False, id="prune-tier", compact=True)
                yield Label("archive (off: delete)")
                yield Switch(value=True, id="prune-archive")
            yield TickList(id="prune-list")
            yield Static(id="prune-count")
            with Horizontal(id="prune-buttons"):
                yield Button("Cancel", id="cancel", compact=True)
                yield Button("Preview diff (^s)", id="preview", variant="primary", compact=True)
        yield KeyFooter(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self._fill("transient")
        self.query_one(SelectionList).focus()

    def _fill(self, tier: str) -> None:
        from ...curation import prune_candidates

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
            # the age first, so a narrow dialog cuts the path's end, never the number
            label = Text(f"{age:>4}d " if age is not None else "   ? ", style="bold" if age is not None and age > ttl else "dim")
            label.append(r.path)
            if not r.date:
                label.append("  undated", style="dim")
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
        self.action_preview()

    def action_preview(self) -> None:
        paths = list(self.query_one(SelectionList).selected)
        self.dismiss(PruneChoice(paths, self.query_one(Switch).value) if paths else None)

    def action_cancel(self) -> None:
        self.dismiss(None)
