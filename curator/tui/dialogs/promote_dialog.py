"""The promote wizard: where the record goes, which index routes to it, with which keywords."""

from __future__ import annotations

import re
from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from ..widgets import KeyFooter, TextBox
from .meter import meter_text


@dataclass
class PromoteChoice:
    dest: str
    index: str
    keywords: list[str]
    source_action: str
    plan: object | None = None  # the previewable plan, when the dialog was given a planner


# words that carry no meaning in a file name: a name ends on a word that does
FILLER = frozenset("""a an and at by for from in into is it of on or the to with without after before
    when while how why what vs via do does not no our your its be""".split())


def slug_words(title: str, limit: int = 5) -> list[str]:
    """Up to `limit` meaningful words of a title, in order, never ending on a filler word."""
    words = [w for w in re.findall(r"[a-z0-9]+", title.lower()) if w not in FILLER]
    return words[:limit]


def suggested_destination(store, rec, index: str) -> str:
    """`<folder of the index's memories>/<domain>-<slug of the title>.md`."""
    folders = [link.target.rsplit("/", 1)[0] for r in store.domain_indexes[index].rows for link in r.links if "/" in link.target]
    folder = max(set(folders), key=folders.count) if folders else store.domain_indexes[index].domain
    title = rec.display_title()
    title = re.sub(r"^(validation|reflection|reflect|session)\s*:\s*", "", str(title), flags=re.I)
    prefix = folder.split("/")[-1]
    words = [w for w in slug_words(title, 6) if w != prefix][:5] or re.findall(r"[a-z]+", rec.stem)[:4]
    slug = "-".join(words)
    return f"{folder}/{prefix}-{slug}.md" if slug else f"{folder}/{prefix}-{rec.stem}.md"


class PromoteDialog(ModalScreen[PromoteChoice | None]):
    DEFAULT_CSS = """
    PromoteDialog { align: center middle; }
    PromoteDialog > VerticalScroll {
        width: 90%; max-width: 110; height: auto; max-height: 100%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    PromoteDialog Label { color: $text-muted; }
    PromoteDialog #pr-title { margin-bottom: 1; }
    PromoteDialog #pr-meter { height: auto; }
    PromoteDialog #pr-error { height: auto; color: $error; text-style: bold; }
    PromoteDialog Horizontal { height: auto; align-horizontal: right; margin-top: 1; }
    PromoteDialog Button { margin-left: 2; }
    """
    BINDINGS = [
        Binding("ctrl+s", "preview", "Preview diff", id="preview-promote", tooltip="Show the plan as a diff (Enter in a box too)"),
        Binding("escape", "cancel", "Cancel", id="cancel-promote", tooltip="Promote nothing"),
    ]

    def __init__(self, store, src: str, planner=None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.store, self.src = store, src
        self.rec = store.records[src]
        self.planner = planner  # choice -> plan; a refusal (CurationError) keeps the dialog open
        self._dest_suggested = ""
        self._keywords_suggested = ""

    def _likely_index(self) -> str:
        from ...curation import suggest

        words = set(suggest(self.store, self.rec.text, None, 20))
        best = max(self.store.domain_indexes, key=lambda p: (
            len(words & {k for r in self.store.domain_indexes[p].rows for k in r.keyword_set}), p))
        return best

    def compose(self) -> ComposeResult:
        from ...curation import suggest

        index = self._likely_index()
        self._dest_suggested = suggested_destination(self.store, self.rec, index)
        self._keywords_suggested = " ".join(suggest(self.store, self.rec.text, index))
        with VerticalScroll():
            yield Static(f"[b]Promote[/b] {self.src} ({self.rec.tier}) to semantic knowledge", id="pr-title")
            yield Label("domain index that routes to it")
            yield Select([(p, p) for p in sorted(self.store.domain_indexes)], value=index, allow_blank=False,
                         id="pr-index", compact=True)
            yield Label("new memory (folder/kebab-case-name.md)")
            yield TextBox(self._dest_suggested, id="pr-dest", compact=True)
            yield Label("keywords (distinctive words that collide least)")
            yield TextBox(self._keywords_suggested, id="pr-keywords", compact=True)
            yield Static(id="pr-meter")
            yield Label("the original record")
            yield Select([("archive it into .curator/archive", "archive"), ("remove it", "remove"), ("keep it", "keep")],
                         value="archive", allow_blank=False, id="pr-source", compact=True)
            yield Static(id="pr-error")
            with Horizontal():
                yield Button("Cancel", id="cancel", compact=True)
                yield Button("Preview diff (^s)", id="preview", variant="primary", compact=True)
        yield KeyFooter(compact=True, show_command_palette=False)  # Enter / ctrl+s previews, Esc cancels

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
    def _index_changed(self, event: Select.Changed) -> None:
        """A new index means a new folder and other words: replace the suggestions, but never
        what the user typed."""
        from ...curation import suggest

        index = str(event.value)
        dest, keywords = self.query_one("#pr-dest", Input), self.query_one("#pr-keywords", Input)
        if dest.value == self._dest_suggested:
            self._dest_suggested = dest.value = suggested_destination(self.store, self.rec, index)
        if keywords.value == self._keywords_suggested:
            self._keywords_suggested = keywords.value = " ".join(suggest(self.store, self.rec.text, index))
        self._meter()

    def choice(self) -> PromoteChoice:
        return PromoteChoice(
            dest=self.query_one("#pr-dest", Input).value.strip(),
            index=str(self.query_one("#pr-index", Select).value),
            keywords=self._keywords(),
            source_action=str(self.query_one("#pr-source", Select).value),
        )

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id != "preview":
            self.dismiss(None)
            return
        self.action_preview()

    @on(Input.Submitted)
    def action_preview(self) -> None:
        from ...curation import CurationError

        choice = self.choice()
        if self.planner is not None:
            try:
                choice.plan = self.planner(choice)
            except CurationError as exc:
                # keep the dialog and everything typed; say what to change
                self.query_one("#pr-error", Static).update(f"✖ {exc}")
                self.query_one("#pr-dest", Input).focus()
                return
        self.dismiss(choice)

    def action_cancel(self) -> None:
        self.dismiss(None)
