"""The store screen: the tier tree on the left, the selected record or index on the right."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import ContentSwitcher, Tree

from ..widgets import IndexView, NodeRef, Overview, RecordView, StoreTree
from .base import CuratorScreen, LoadingPane


class MainScreen(CuratorScreen):
    BINDINGS = [
        Binding("ctrl+f", "focus_tree", "Tree", id="focus-tree", tooltip="Move focus to the store tree", show=False),
        Binding("f5", "reload_selected", "Re-check", id="recheck", tooltip="Re-read the selected file and re-run the checks"),
        Binding("p", "promote", "Promote", id="promote-record", tooltip="Promote this transient or reflexion record"),
        Binding("e", "edit_keywords", "Keywords", id="edit-keywords", tooltip="Edit the keywords of the highlighted index row"),
    ]
    HELP = (
        "Every memory system of the repository (Serena, Claude Code memory, experience entries): "
        "its tiers and folders with token and finding badges. The overview on the right shows each "
        "source's start-up load against its cap and the worst problems; select a record or an "
        "index to inspect it."
    )

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.selected: str | None = None
        self._pending: tuple[str, int | None] | None = None

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="main-body"):
            yield StoreTree(id="tree")
            with ContentSwitcher(initial="loading", id="detail"):
                yield LoadingPane(id="loading")
                yield Overview(id="welcome")
                yield RecordView(id="record")
                yield IndexView(id="index")

    def show(self, workspace) -> None:
        tree = self.query_one(StoreTree)
        repo = getattr(self.app, "repo", None)
        if not getattr(self.app, "switching_source", False):
            tree.show(workspace, repo)
        if repo is not None:
            self.query_one(Overview).show(repo, self._title(repo))
        switcher = self.query_one(ContentSwitcher)
        if self._pending:
            path, line = self._pending
            self._pending = None
            self.open_path(path, line)
        elif self.selected and self.selected in workspace.store.records:
            self._show_path(self.selected)
        else:
            switcher.current = "welcome"
        if not getattr(self.app, "switching_source", False):
            tree.focus()

    def _title(self, repo) -> str:
        from pathlib import Path

        n = len(repo.sources)
        what = f"{n} memory systems" if n != 1 else repo.sources[0].spec.label
        name = self.app.given
        if name in ("", ".", "./"):
            name = Path.cwd().name or name
        return f"{name} — {what}"

    def open_path(self, path: str, line: int | None = None) -> None:
        """Select a file in the tree and show it (used by problems and the retrieval lab)."""
        if self.app.workspace is None:
            self._pending = (path, line)
            return
        self.query_one(StoreTree).select_path(path)
        self._show_path(path, line)

    def _show_path(self, path: str, line: int | None = None) -> None:
        ws = self.app.workspace
        self.selected = path
        switcher = self.query_one(ContentSwitcher)
        rec = ws.store.records.get(path)
        if rec is not None and rec.level < 2 and rec.readable:
            switcher.current = "index"
            self.query_one(IndexView).show(ws, path, line)
        else:
            switcher.current = "record"
            self.query_one(RecordView).show(ws, path)

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted) -> None:
        if self.app.workspace is None:
            return
        ref = event.node.data
        if not isinstance(ref, NodeRef) or ref.path is None:
            # a source, tier or folder: the overview, never a stale record
            if isinstance(ref, NodeRef):
                self.app.select_source(ref.source)
            self.selected = None
            self.query_one(ContentSwitcher).current = "welcome"
            self.refresh_bindings()
            return
        repo = getattr(self.app, "repo", None)
        if repo is not None and ref.source != repo.current:
            self.selected = ref.path
            self.app.select_source(ref.source)  # re-renders this screen on the new source
            return
        if ref.path != self.selected:
            self._show_path(ref.path)
            self.refresh_bindings()

    def check_action(self, action: str, parameters) -> bool | None:
        ws = self.app.workspace
        rec = ws.store.records.get(self.selected) if ws and self.selected else None
        if action == "promote":
            return rec is not None and rec.level == 2 and rec.tier in ("transient", "reflexion")
        if action == "edit_keywords":
            return rec is not None and self.selected in ws.store.domain_indexes
        return True

    def action_promote(self) -> None:
        if self.selected:
            self.app.promote(self.selected)

    def action_edit_keywords(self) -> None:
        view = self.query_one(IndexView)
        line = view.highlighted_line()
        if self.selected and line is not None:
            self.app.edit_keywords(self.selected, line)

    def action_focus_tree(self) -> None:
        self.query_one(StoreTree).focus()

    def action_reload_selected(self) -> None:
        if self.selected:
            self.app.recheck(self.selected)
