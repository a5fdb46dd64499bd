"""The promote wizard: where the record goes, which index routes to it, with which keywords."""

from __future__ import annotations

import re
from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from ..widgets import TextBox
from .meter import meter_text


@dataclass
class PromoteChoice:
    dest: str
    index: str
    keywords: list[str]
    source_action: str


def suggested_destination(store, rec, index: str) -> str:
    """`<folder of the index's memories>/<domain>-<slug of the title>.md`."""
    folders = [link.target.rsplit("/", 1)[0] for r in store.domain_indexes[index].rows for link in r.links if "/" in link.target]
    folder = max(set(folders), key=folders.count) if folders else store.domain_indexes[index].domain
    title = rec.display_title()
    title = re.sub(r"^(validation|reflection|reflect|session)\s*:\s*", "", str(title), flags=re.I)
    words = re.findall(r"[a-z0-9]+", title.lower())[:5] or re.findall(r"[a-z]+", rec.stem)[:4]
    prefix = folder.split("/")[-1]
    slug = "-".join(w for w in words if w != prefix)
    return f"{folder}/{prefix}-{slug}.md" if slug else f"{folder}/{prefix}-{rec.stem}.md"


class PromoteDialog(ModalScreen[PromoteChoice | None]):
    DEFAULT_CSS = """
    PromoteDialog { align: center middle; }
    PromoteDialog > Vertical { width: 90%; max-width: 110; height: auto; border: thick $primary; background: $surface; padding: 1 2; }
    PromoteDialog Label { margin-top: 1; color: $text-muted; }
    PromoteDialog #pr-meter { height: auto; margin-top: 1; }
    PromoteDialog Horizontal { height: auto; align-horizontal: right; margin-top: 1; }
    PromoteDialog Button { margin-left: 2; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="cancel-promote", tooltip="Promote nothing")]

    def __init__(self, store, src: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.store, self.src = store, src
        self.rec = store.records[src]

    def _likely_index(self) -> str:
        from ..curation import suggest

        words = set(suggest(self.store, self.rec.text, None, 20))
        best = max(self.store.domain_indexes, key=lambda p: (
            len(words & {k for r in self.store.domain_indexes[p].rows for k in r.keyword_set}), p))
        return best

    def compose(self) -> ComposeResult:
        from ..curation import suggest

        index = self._likely_index()
        with Vertical():
            yield Static(f"[b]Promote[/b] {self.src} ({self.rec.tier}) to semantic knowledge")
            yield Label("domain index that routes to it")
            yield Select([(p, p) for p in sorted(self.store.domain_indexes)], value=index, allow_blank=False, id="pr-index")
            yield Label("new memory (folder/kebab-case-name.md)")
            yield TextBox(suggested_destination(self.store, self.rec, index), id="pr-dest")
            yield Label("keywords (distinctive words that collide least)")
            yield TextBox(" ".join(suggest(self.store, self.rec.text, index)), id="pr-keywords")
            yield Static(id="pr-meter")
            yield Label("the original record")
            yield Select([("archive it into .curator/archive", "archive"), ("remove it", "remove"), ("keep it", "keep")],
                         value="archive", allow_blank=False, id="pr-source")
            with Horizontal():
                yield Button("Cancel", id="cancel")
                yield Button("Preview diff", id="preview", variant="primary")

    def on_mount(self) -> None:
        self._meter()
        self.query_one("#pr-dest", Input).focus()

    def _keywords(self) -> list[str]:
        return [w.lower() for w in self.query_one("#pr-keywords", Input).value.replace(",", " ").split()]

    def _meter(self) -> None:
        index = self.query_one("#pr-index", Select).value
        self.query_one("#pr-meter", Static).update(meter_text(self.store, str(index), self._keywords()))

    @on(Input.Changed, "#pr-keywords")
    def _kw_changed(self) -> None:
        self._meter()

    @on(Select.Changed, "#pr-index")
    def _index_changed(self) -> None:
        self._meter()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id != "preview":
            self.dismiss(None)
            return
        self.dismiss(PromoteChoice(
            dest=self.query_one("#pr-dest", Input).value.strip(),
            index=str(self.query_one("#pr-index", Select).value),
            keywords=self._keywords(),
            source_action=str(self.query_one("#pr-source", Select).value),
        ))

    def action_cancel(self) -> None:
        self.dismiss(None)
