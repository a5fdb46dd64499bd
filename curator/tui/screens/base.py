"""What every curator screen shares: the header, the footer and re-rendering on load."""

from __future__ import annotations

from contextlib import contextmanager

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Label, ProgressBar

from ..messages import OpenPath
from ..widgets import StatusHeader


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

    def progress(self, what: str, fraction: float) -> None:
        # (a screen opened while the store loads may not have composed its pane yet: the next
        # step shows; a progress report never fails the load)
        for label in self.query("#loading-what").results(Label):
            label.update(what)
        for bar in self.query(ProgressBar):
            bar.update(progress=round(fraction * 100))


class CuratorScreen(Screen):
    """Subclasses implement `compose_body()` and `show(workspace)`."""

    DEFAULT_CSS = """
    CuratorScreen > #notice-banner { width: 1fr; height: auto; padding: 0 1; background: $warning 30%; color: $text; }
    """

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        notice = getattr(self.app, "notice", None)
        if notice:  # e.g. no store found, so this is the bundled demo: say so on every screen
            yield Label(notice, id="notice-banner")
        yield from self.compose_body()
        yield Footer(compact=True, show_command_palette=False)

    def compose_body(self) -> ComposeResult:  # pragma: no cover - overridden
        yield from ()

    def on_mount(self) -> None:
        self.app.workspace_signal.subscribe(self, self._on_workspace)
        if self.app.workspace is not None:
            self._on_workspace(self.app.workspace)

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
