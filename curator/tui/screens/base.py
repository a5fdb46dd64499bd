"""What every curator screen shares: the header, the footer and re-rendering on load."""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Label, ProgressBar

from ..flows.repository import is_instruction
from ..messages import FixFindings, OpenPath
from ..widgets import KeyFooter, StatusHeader

if TYPE_CHECKING:
    from textual import getters

    from ..app_state import AppState

# the screens that honour the scope (the whole repository or one memory system) bind it to s
SCOPE_BINDING = Binding("s", "app.cycle_scope", "Scope", id="cycle-scope",
                        tooltip="Scope: whole repository → each memory system → instruction files → whole")


def act_in_source(app, scoped):
    """The finding of a `scope.Scoped` row, with its source made current so a fix or a jump
    acts there; a finding across sources goes to the source holding its path (None: none)."""
    from dataclasses import replace

    repo = app.workbench
    source, f = scoped.source, scoped.finding
    if repo is None:  # a repository without memory: its instruction findings act in no store
        return None
    if source is None:
        hit = repo.repository().source_of(scoped.where)
        if hit is None:
            return None
        source, f = repo.index_of(hit[0].spec.root), replace(f, path=hit[1])
    if source is not None and source != repo.current:
        app.select_source(source)
    return f


@contextmanager
def cursor_kept(table):
    """Refill a table keeping its cursor on the same row key (else the same row number): a
    live swap re-renders a screen, never moves the reader back to the top."""
    row = key = None
    if table.row_count:
        row = table.cursor_row
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
    yield
    if row is None or not table.row_count:
        return
    try:
        row = table.get_row_index(key)
    except Exception:  # noqa: BLE001 - the row went: stay at the same height
        row = min(row, table.row_count - 1)
    table.move_cursor(row=row)


class LoadingPane(Vertical):
    DEFAULT_CSS = """
    LoadingPane { align: center middle; height: 1fr; }
    LoadingPane > Label { width: auto; margin-bottom: 1; color: $text-muted; }
    LoadingPane > ProgressBar { width: auto; }
    """

    def compose(self) -> ComposeResult:
        yield Label("opening the store…", id="loading-what")
        yield ProgressBar(total=100, show_eta=False, id="loading-bar")

    def no_memory(self, text: str) -> None:
        """A repository without memory: say so and where to look, instead of a bar at 0%."""
        for label in self.query("#loading-what").results(Label):
            label.update(text)
        for bar in self.query(ProgressBar):
            bar.display = False

    def progress(self, what: str, fraction: float) -> None:
        # (a screen opened while the store loads may not have composed its pane yet: the next
        # step shows; a progress report never fails the load)
        for label in self.query("#loading-what").results(Label):
            label.update(what)
        for bar in self.query(ProgressBar):
            bar.update(progress=round(fraction * 100))


class CuratorScreen(Screen):
    """Subclasses implement `compose_body()` and `show(workspace)`."""

    if TYPE_CHECKING:  # the app these screens run in (it imports them: they cannot import it)
        app = getters.app(AppState)

    DEFAULT_CSS = """
    CuratorScreen > #notice-banner { width: 1fr; height: 1; padding: 0 1; background: $warning 30%; color: $text;
                                     text-wrap: nowrap; text-overflow: ellipsis; }
    """

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        notice = getattr(self.app, "notice", None)
        if notice and not self.app.notice_seen:
            # e.g. no store found, so this is the bundled demo: one line, on the first screen only
            # (gone when another screen opens; F1 keeps the whole sentence)
            self.app.notice_seen = True
            yield Label(notice, id="notice-banner")
        yield from self.compose_body()
        yield KeyFooter(compact=True, show_command_palette=False)

    def compose_body(self) -> ComposeResult:  # pragma: no cover - overridden
        yield from ()

    def on_screen_suspend(self) -> None:
        for banner in self.query("#notice-banner"):
            banner.remove()  # shown once: leaving the first screen dismisses it

    def on_mount(self) -> None:
        self.app.workspace_signal.subscribe(self, self._on_workspace)
        self.app.context_signal.subscribe(self, self._without_memory)
        if self.app.workspace is not None:
            self._on_workspace(self.app.workspace)
        elif self.app.context_model is not None:
            self._without_memory(self.app.context_model)

    def _without_memory(self, model) -> None:
        """A repository of instruction files only (no memory store): the header names it and
        counts its agents and instruction findings; a memory screen says where to look."""
        app = self.app
        if app.workspace is not None or app.workbench is not None or model is None or not model.agents:
            return
        self.query_one(StatusHeader).show_instructions(model)
        for pane in self.query(LoadingPane):
            pane.no_memory("No memory store here.\n7 shows what each agent loads"
                           + (";\n2 lists the instruction findings." if model.findings else "."))
        self.show_instructions(model)

    def show_instructions(self, model) -> None:
        """A screen that has something to show without memory (Problems: the instruction
        findings) draws it here."""

    # True while `show` draws a snapshot that came from a change seen on disk (or a re-check)
    # on a screen that already showed one: update in place, never move the focus
    live = False
    _shown = False

    def _on_workspace(self, workspace) -> None:
        self.live = self._shown and workspace is getattr(self.app, "live_workspace", None)
        self.query_one(StatusHeader).show(workspace)
        for pane in self.query(LoadingPane):
            pane.display = False
        try:
            self.show(workspace)
        finally:
            self._shown, self.live = True, False

    def show(self, workspace) -> None:  # pragma: no cover - overridden
        pass

    def progress(self, what: str, fraction: float) -> None:
        for pane in self.query(LoadingPane):
            pane.progress(what, fraction)

    def check_action(self, action: str, parameters) -> bool | None:
        from ..widgets.text_box import typing_hides

        return not typing_hides(self, action)

    def highlighted_key(self) -> str | None:
        """The row key (a store path) under the cursor of the focused table, if any."""
        from textual.widgets import DataTable

        table = self.focused
        if isinstance(table, DataTable) and table.row_count:
            return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return None

    def action_open_highlighted(self) -> None:
        key = self.highlighted_key()
        if key:
            self.post_message(OpenPath(key))

    def on_data_table_row_selected(self, event) -> None:
        """Enter or a click on a row keyed by a store path opens that file (tables keyed
        otherwise override this)."""
        key = event.row_key.value
        if key and self.app.workspace is not None and key in self.app.workspace.store.records:
            self.post_message(OpenPath(key))


class FindingRows(CuratorScreen):
    """Screens listing findings as `scope.Scoped` rows (Problems, Drift): `scoped_row()` gives
    the one under the cursor; x fixes it and Enter jumps to it, in its own source."""

    def scoped_row(self):  # pragma: no cover - overridden
        return None

    def _current(self):
        row = self.scoped_row()
        return act_in_source(self.app, row) if row is not None else None

    def action_fix_one(self) -> None:
        row = self.scoped_row()
        if row is not None and is_instruction(row.finding):  # the repository's file: no store to act in
            f = row.finding
        else:
            f = self._current()
        if f is None:
            return
        if f.fix is None:
            self.by_hand(f)
            return
        self.post_message(FixFindings([f]))

    def by_hand(self, f) -> None:
        """A finding with no automatic fix: its row's keyword editor when the fix is new
        keywords (a collision, a row too little its own), else what to do by hand."""
        from ...model.hints import hint

        h = hint(f)
        if h.key == "e" and f.line and (f.target is not None or f.check != "keywords.collision"):  # (a row's)
            from ..messages import EditKeywords

            self.notify(f"no automatic fix: new keywords for {f.path}:{f.line} (the editor shows what they "
                        "share, live)", timeout=5)
            self.post_message(EditKeywords(f.path, f.line))
            return
        if f.check == "keywords.collision":  # the index's rate: its rows, with what each shares
            self.notify(f"no automatic fix: the collision rate is {f.path}'s; rows under 100% uniq share words, "
                        "`e` on one gives it keywords of its own", timeout=8, markup=False)
            self.post_message(OpenPath(f.path, None))
            return
        self.notify(f"{f.check} has no automatic fix: {h.line()}", severity="warning", timeout=8, markup=False)

    def action_jump(self) -> None:
        f = self._current()
        if f is not None:
            self.post_message(OpenPath(f.path, f.line))
