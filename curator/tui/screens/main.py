"""The store screen: the tier tree on the left, the selected record or index on the right."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import ContentSwitcher, Static, Tree

from ..messages import EditKeywords, OpenPath, Promote, Recheck, SelectSource
from ..widgets import IndexView, InstructionRef, NodeRef, Overview, RecordView, StoreTree
from .base import CuratorScreen, LoadingPane


def changed_on_disk(rec) -> bool:
    """Does the file hold other bytes than when it was read (or is it gone)?"""
    import hashlib

    if not rec.content_hash:
        return False  # never read (unreadable): nothing to compare
    try:
        data = rec.abspath.read_bytes()
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return hashlib.sha256(data).hexdigest() != rec.content_hash


def _group_names(tree) -> dict[int, tuple[int, str]]:
    import re

    # a tier's name carries its record count: not part of what it stands for
    return {id(n): (i, re.sub(r" \(\d+\)$", "", title)) for n, i, title, paths, _ in tree._groups
            if paths is not None}


def group_key(tree, node, names=None) -> tuple | None:
    """A tier or folder node by what it stands for — (source, name) of it and of each group
    above it — so the same group is found in a tree rebuilt for a new snapshot. None for a
    record, a source or no node."""
    names = _group_names(tree) if names is None else names
    key = []
    while node is not None and id(node) in names:
        key.append(names[id(node)])
        node = node.parent
    return tuple(key) or None


def group_node(tree, key: tuple):
    """The tier or folder node of `key` (see `group_key`) in the tree as it is now, if any."""
    names = _group_names(tree)
    return next((g[0] for g in tree._groups if id(g[0]) in names and group_key(tree, g[0], names) == key), None)


TREE_WIDTH = Binding.Group("Tree width", compact=True)


class MainScreen(CuratorScreen):
    BINDINGS = [
        Binding("ctrl+f", "focus_tree", "Tree", id="focus-tree", tooltip="Move focus to the store tree", show=False),
        Binding("f5", "reload_selected", "Re-check", id="recheck", tooltip="Re-read the selected file and re-run the checks"),
        Binding("p", "promote", "Promote", id="promote-record", tooltip="Promote this transient or reflexion record"),
        Binding("e", "edit_keywords", "Keywords", id="edit-keywords", tooltip="Edit the keywords of the highlighted index row"),
        Binding("less_than_sign", "tree_width(-4)", "Narrower", id="narrow-tree", key_display="<", group=TREE_WIDTH,
                tooltip="Narrow the tree pane"),
        Binding("greater_than_sign", "tree_width(4)", "Wider", id="widen-tree", key_display=">", group=TREE_WIDTH,
                tooltip="Widen the tree pane"),
    ]
    HELP = "Every memory system of the repository by tier and folder; the overview: the worst problems first."

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.selected: str | None = None
        self._pending: tuple[str, int | None] | None = None
        self._keep_overview = False

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="main-body"):
            yield StoreTree(id="tree")
            with ContentSwitcher(initial="loading", id="detail"):
                yield LoadingPane(id="loading")
                yield Overview(id="welcome")
                yield Static(id="group")
                yield RecordView(id="record")
                yield IndexView(id="index")

    def show(self, workspace) -> None:
        tree = self.query_one(StoreTree)
        bench = getattr(self.app, "workbench", None)
        switcher = self.query_one(ContentSwitcher)
        # a tier or folder shown: the same group of the new snapshot is shown after the swap
        group = group_key(tree, tree.cursor_node) if self.live and switcher.current == "group" else None
        if not getattr(self.app, "switching_source", False) and not (self.live and tree.update_in_place(bench, workspace)):
            tree.show(workspace, bench)
        if bench is not None:
            self.query_one(Overview).show(bench, self._title(bench))
        self.call_after_refresh(self.fit_tree)
        if self._pending:
            path, line = self._pending
            self._pending = None
            self.open_path(path, line)
        elif self.selected and self.selected in workspace.store.records:
            if not (self.live and self._same_as_shown(workspace, self.selected)):
                self._show_path(self.selected)  # (another file's change keeps this view and its scroll)
        elif group is not None and (node := group_node(tree, group)) is not None:
            if node is not tree.cursor_node:  # the tree was rebuilt (a file came or went)
                parent = node.parent
                while parent is not None:
                    parent.expand()
                    parent = parent.parent
                tree.call_after_refresh(tree.move_cursor, node)
            self._show_group(node)
        else:
            switcher.current = "welcome"
            # the rebuilt tree highlights its first node: that is not the user asking for it
            self._keep_overview = True
        if not getattr(self.app, "switching_source", False) and not self.live:
            tree.focus()  # (a change seen on disk never moves the focus)

    def _title(self, bench) -> str:
        from pathlib import Path

        n = len(bench.sources)
        what = f"{n} memory systems" if n != 1 else bench.sources[0].spec.label
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

    def _same_as_shown(self, workspace, path: str) -> bool:
        """Is the file shown the same record, with the same findings, in this snapshot?"""
        shown = getattr(self, "_shown_state", None)
        return shown is not None and shown[0] == path and shown[1] is workspace.store.records.get(path) \
            and shown[1].level == 2 and shown[2] == workspace.by_path.get(path)  # (an index's rows read the others)

    def _show_path(self, path: str, line: int | None = None) -> None:
        ws = self.app.workspace
        if ws is None:  # (no store loaded: nothing to show a file of)
            return
        self._shown_state = (path, ws.store.records.get(path), ws.by_path.get(path))
        self.selected = path
        switcher = self.query_one(ContentSwitcher)
        rec = ws.store.records.get(path)
        if rec is not None and rec.level < 2 and rec.readable:
            switcher.current = "index"
            self.query_one(IndexView).show(ws, path, line)
        else:
            switcher.current = "record"
            self.query_one(RecordView).show(ws, path)

    def _show_instruction(self, ref) -> None:
        """An agent's instruction file (the tree's Instructions nodes): the record view of it."""
        model = getattr(self.app, "context_model", None)
        if model is None:
            return
        self.selected = None
        self.query_one(ContentSwitcher).current = "record"
        self.query_one(RecordView).show_file(model, ref.agent, ref.path)
        self.refresh_bindings()

    def _on_context(self, model) -> None:
        """The instruction files' model arrived: the tree shows them, the overview their numbers."""
        if model is not None:
            tree = self.query_one(StoreTree)
            tree.show_instructions(model)
            self.call_after_refresh(self.fit_tree)
            ref = tree.cursor_node.data if tree.cursor_node is not None else None
            if isinstance(ref, InstructionRef) and ref.path is not None and self.selected is None \
                    and self.query_one(ContentSwitcher).current == "record":
                self._show_instruction(ref)  # the file shown changed on disk: its numbers and text again
        bench = getattr(self.app, "workbench", None)
        if bench is not None:
            self.query_one(Overview).show(bench, self._title(bench))

    def on_mount(self) -> None:
        # (CuratorScreen.on_mount runs too: Textual calls each class's handler along the MRO)
        self.app.context_signal.subscribe(self, self._on_context)
        if self.app.context_model is not None:
            self._on_context(self.app.context_model)

    def _show_group(self, node) -> None:
        """A tier or folder: what it holds, instead of the last file shown."""
        self.selected = None
        self.query_one(StoreTree).fill(node)  # a folder's leaves are built when first needed
        text = Text(no_wrap=True, overflow="ellipsis")  # one line per child, never wrapped
        text.append_text(node.label.copy())
        files = [n for n in node.children if n.data]
        groups = [n for n in node.children if not n.data]
        text.append(f"\n{len(groups)} folder(s) · {len(files)} file(s)\n" if groups else f"\n{len(files)} file(s)\n",
                    style="dim")
        for child in node.children[:30]:
            text.append("\n  ")
            text.append_text(child.label.copy())
        if len(node.children) > 30:
            text.append(f"\n  … {len(node.children) - 30} more", style="dim")
        text.append("\n\nEnter opens or closes it; ↓ walks into it.", style="dim")
        self.query_one("#group", Static).update(text)
        self.query_one(ContentSwitcher).current = "group"

    TREE_SHARE = 0.45  # the tree never takes more than this share of the width
    tree_extra = 0  # columns the user added (>) or took away (<)

    def fit_tree(self) -> None:
        """The tree is as wide as its content, up to a share of the screen, widened or narrowed
        by < and >; the detail pane takes the rest."""
        tree = self.query_one(StoreTree)
        room = self.size.width
        if not room:
            return
        want = tree.natural_width() + 1  # + the border
        share = self.TREE_SHARE if room >= 100 else 0.38  # at 80 columns the detail needs the room
        floor = max(16, tree.min_width() + 1)  # never so narrow that a token count is cut
        width = min(want, int(room * share)) + self.tree_extra
        if width < floor:  # (< pressed past the floor: > widens again at once)
            self.tree_extra += floor - width
        tree.styles.width = max(floor, min(width, room - 20))

    def action_tree_width(self, delta: int) -> None:
        self.tree_extra += delta
        self.fit_tree()

    def on_resize(self) -> None:
        if self.app.workspace is not None:
            self.fit_tree()

    def on_tree_node_expanded(self) -> None:
        self.call_after_refresh(self.fit_tree)

    def on_tree_node_collapsed(self) -> None:
        self.call_after_refresh(self.fit_tree)

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted) -> None:
        if self.app.workspace is None:
            return
        ref = event.node.data
        if self._keep_overview:
            self._keep_overview = False
            if not (isinstance(ref, NodeRef) and ref.path):
                return
        if isinstance(ref, InstructionRef) and ref.path is not None:
            self._show_instruction(ref)
            return
        if isinstance(ref, NodeRef) and ref.path is None:
            # a source: it becomes current, and the overview shows every source
            self.post_message(SelectSource(ref.source))
            self.selected = None
            self.query_one(ContentSwitcher).current = "welcome"
            self.refresh_bindings()
            return
        if not isinstance(ref, NodeRef):
            self._show_group(event.node)  # a tier or folder: what it holds, never a stale record
            self.refresh_bindings()
            return
        assert ref.path is not None  # (a source's node returned above)
        bench = getattr(self.app, "workbench", None)
        if bench is not None and ref.source != bench.current:
            self.selected = ref.path
            self.post_message(SelectSource(ref.source))  # the app re-renders this screen on it
            return
        if ref.path != self.selected:
            self._show_path(ref.path)
            ws = self.app.workspace
            rec = ws.store.records.get(ref.path) if ws is not None else None
            if rec is not None and changed_on_disk(rec):
                self.post_message(Recheck(ref.path))  # edited outside curator: show what is on disk now
        self.refresh_bindings()

    def on_tree_node_selected(self, event: Tree.NodeSelected) -> None:
        """Enter on the file already shown: re-read it if it changed on disk."""
        ws = self.app.workspace
        ref = event.node.data
        path = ref.path if isinstance(ref, NodeRef) else None
        rec = ws.store.records.get(path) if ws and path else None
        if rec is not None and changed_on_disk(rec):
            self.post_message(Recheck(rec.path))

    def check_action(self, action: str, parameters) -> bool | None:
        if not super().check_action(action, parameters):
            return False
        ws = self.app.workspace
        rec = ws.store.records.get(self.selected) if ws and self.selected else None
        # shown dimmed where they do not apply (None), so the keys are always there to be found
        if action == "promote":
            return (rec is not None and rec.level == 2 and rec.tier in ("transient", "reflexion")) or None
        if action == "edit_keywords":  # every index: rows without keywords say what to do instead
            return (rec is not None and rec.level < 2) or None
        return True

    def on_index_view_row_chosen(self, event: IndexView.RowChosen) -> None:
        """Enter on an index row: open what it points at (the first file that exists), or say
        why nothing opens and what will."""
        event.stop()
        if self.app.workspace is None:
            return
        records = self.app.workspace.store.records
        there = [t for t in event.targets if t and t in records]
        if there:
            self.post_message(OpenPath(there[0]))
            return
        if not event.targets:
            self.notify(f"{event.index}:{event.line} links no file", severity="warning")
            return
        missing = event.raw[0] if event.raw else event.targets[0]
        self.notify(f"{missing} is not in this memory store (outside it, or missing: Problems (2) lists "
                    "index.missing-target with its fix)", severity="warning")

    def action_promote(self) -> None:
        if self.selected:
            self.post_message(Promote(self.selected))

    def action_edit_keywords(self) -> None:
        view = self.query_one(IndexView)
        line = view.highlighted_line()
        if self.selected and line is not None:
            self.post_message(EditKeywords(self.selected, line))

    def action_focus_tree(self) -> None:
        self.query_one(StoreTree).focus()

    def action_reload_selected(self) -> None:
        if self.selected:
            self.post_message(Recheck(self.selected))
