"""Sources → tiers → folders → records, with token and finding badges."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from rich.text import Text
from textual.binding import Binding
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from .budget_bar import compact as _tokens
from .instruction_nodes import InstructionRef, instruction_groups
from .tree_labels import NodeRef, depth_of, fit_label, min_width, neighbours
from .tree_state import kept_folds, unique_names

if TYPE_CHECKING:
    from ...live.workspace import Workspace

TIER_ORDER = ("semantic", "reflexion", "transient", "session")


Ref = NodeRef | InstructionRef
Node = TreeNode[Ref]


class StoreTree(Tree[Ref]):
    """Node data says what a node is: a source, tier, folder or record of a memory system
    (`NodeRef`), or an agent's instruction file (`InstructionRef`); None for other groups."""

    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False, id="tree-down", tooltip="Next item"),
        Binding("k", "cursor_up", "Up", show=False, id="tree-up", tooltip="Previous item"),
    ]
    BASE_HELP = "The store by tier and folder. Badges: tokens, ✖ errors, ▲ warnings. Enter opens a folder."
    MARKS_HELP = ("Reads, from the agent's transcripts: r12 = read 12 times in the last 90 days (r0: only "
                  "before), unread = never read.")

    # help that says what is shown (Textual declares HELP a class attribute)
    @property
    def HELP(self) -> str:  # type: ignore[override]  # noqa: N802 - the name every widget's help uses
        """The marks are explained only where they show."""
        return f"{self.BASE_HELP} {self.MARKS_HELP}" if self._has_marks() else self.BASE_HELP

    def _has_marks(self) -> bool:
        """Does any record's label (built or not yet) show a usage mark?"""
        if any(self._marks.values()):
            return True
        for ws in self._workspaces.values():
            usage = self._usage(ws)
            if usage is not None and any(usage_mark(usage, r) for r in ws.store.records.values()):
                return True
        return False

    def __init__(self, **kwargs) -> None:
        super().__init__("store", **kwargs)
        self.show_root = False
        self.guide_depth = 3
        self._path_nodes: dict[NodeRef, Node] = {}  # the nodes built so far
        # folders are filled when first opened, highlighted or asked for a record of theirs:
        # folder node → (source, its records' paths, sorted); record → its folder node
        self._unfilled: dict[Node, tuple[int, list[str]]] = {}
        self._folder_of: dict[NodeRef, Node] = {}
        self._workspaces: dict[int, Workspace] = {}  # source → the workspace its nodes were built from
        self._marks: dict[NodeRef, str] = {}  # the usage mark each record's label shows
        self._names: dict[NodeRef, str] = {}  # a record's name where its file name alone is ambiguous
        # group nodes (sources, indexes, tiers, folders) with what their label adds up, for
        # in-place updates: (node, source, title — a source's `live.repository.Source` —, paths | None, style)
        self._groups: list[tuple] = []
        self._order: dict[int, tuple] = {}  # parent → (children, {child: its place}): for neighbours
        self._context_model = None  # the context model whose instruction files the tree shows
        self._instruction_nodes: list = []

    def on_mount(self) -> None:
        signal = getattr(self.app, "transcripts_signal", None)
        if signal is not None:
            signal.subscribe(self, self._sessions_changed)

    _measuring = False

    def natural_width(self) -> int:
        """Cells the widest visible line needs (guides, name, badges, count) plus the scrollbar."""
        depth = self.guide_depth
        widths = []
        nodes = [(node, 0) for node in self.root.children]  # the root is hidden: no guide at level 0
        while nodes:
            node, level = nodes.pop()
            widths.append(self.get_label_width(node) + level * depth)
            if node.is_expanded:
                self.fill(node)
                nodes.extend((child, level + 1) for child in node.children)
        return max(widths, default=20) + 1

    def get_label_width(self, node) -> int:
        self._measuring = True  # measure the whole label; only drawing shortens it
        try:
            return super().get_label_width(node)
        finally:
            self._measuring = False

    def render_label(self, node, base_style, style) -> Text:
        """A label that does not fit says less, in this order: the source's format in words,
        the usage mark, the badges, then the name (cut with an ellipsis) — never the token
        count (the tree is never narrower than the counts need: `min_width`)."""
        text = super().render_label(node, base_style, style)
        if self._measuring:
            return text
        room = self.scrollable_content_region.width - self._depth(node) * self.guide_depth
        return fit_label(text, room, self._neighbours(node)) if room > 0 and text.cell_len > room else text

    def _neighbours(self, node) -> list[str]:
        return neighbours(node, self._order)

    def _depth(self, node) -> int:
        return depth_of(self, node)

    def min_width(self) -> int:
        """The narrowest the tree may be (every visible line keeps its whole token count)."""
        return min_width(self)

    def label_for(self, name: str, tokens: int, badge: str, style: str = "", mark: str = "") -> Text:
        # the badge before the count (narrow, the badge goes first: `tree_labels.fit_label`)
        text = Text(name, style=style)
        if mark:  # reads in 90 days, from the agent's transcripts
            text.append(f" {mark}", style="dim italic" if mark == "unread" else "dim")
        if badge:
            text.append(f" {badge}", style="bold error" if "✖" in badge else "warning")
        text.append(f" {_tokens(tokens)}", style="dim")
        return text

    def show(self, workspace, bench=None) -> None:
        """(Re)build from a workspace — or from every source of a repository — keeping the cursor
        on the same record when it still exists. Tiers show; folders below them start folded."""
        current = self.cursor_node.data if self.cursor_node else None
        with kept_folds(self, self.fill) as kept:  # the folders open before stay open; the cursor its place
            self._rebuild(workspace, bench, current, kept)

    def _rebuild(self, workspace, bench, current, kept) -> None:
        self.clear()
        self._path_nodes = {}
        self._unfilled = {}
        self._folder_of = {}
        self._marks = {}
        self._names = {}
        self._workspaces = {}
        self._groups = []
        loaded = bench.loaded() if bench is not None else []
        if len(bench.sources if bench is not None else []) > 1:
            for i, src in enumerate(bench.sources):
                ws = src.workspace
                if ws is None:
                    self.root.add_leaf(Text(f"{src.name} — cannot load: {src.error}", style="error"),
                                       data=NodeRef(i))
                    continue
                label = self._source_label(src, ws)
                node = self.root.add(label, data=NodeRef(i), expand=True)
                self._groups.append((node, i, src, None, ""))
                self._path_nodes[NodeRef(i)] = node
                self._source(node, ws, i)
        else:
            index = loaded[0][0] if loaded else 0
            self._source(self.root, workspace, index)
        self._instruction_nodes = []
        self._add_instructions()
        if isinstance(current, NodeRef) and (current in self._path_nodes or current in self._folder_of):
            self.select_ref(current)
            kept["moved"] = True

    # -- instruction files beside the memory (curator.context) -------------------------

    def show_instructions(self, model) -> None:
        """Show each agent's instruction files (from the context model) after the memory
        sources, replacing what was shown; the memory nodes are left as they are."""
        self._context_model = model
        for node in self._instruction_nodes:
            node.remove()
        self._instruction_nodes = []
        self._add_instructions()

    def _add_instructions(self) -> None:
        for agent, label, tokens, files in instruction_groups(self._context_model):
            group = self.root.add(self.label_for(f"Instructions · {label}", tokens, "", "bold"),
                                  data=InstructionRef(agent), expand=False)
            for path, n, style in files:
                group.add_leaf(self.label_for(path, n, "", style), data=InstructionRef(agent, path))
            self._instruction_nodes.append(group)

    def _source(self, parent, workspace, source: int) -> None:
        store = workspace.store
        self._workspaces[source] = workspace
        records = list(store.records.values())
        indexes = [r for r in records if r.level < 2]
        if indexes:
            paths = [r.path for r in indexes]
            group = parent.add(
                self.label_for("Indexes", sum(r.tokens or 0 for r in indexes), workspace.badge(paths), "bold"),
                expand=False,
            )
            self._groups.append((group, source, "Indexes", paths, "bold"))
            self._later(group, source, [r.path for r in sorted(indexes, key=lambda r: (r.level, r.path))])
        by_tier: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
        for r in records:
            if r.level == 2 or not r.readable:
                folder = r.folder or "(top level)"
                by_tier[r.tier][folder].append(r)
        for tier in sorted(by_tier, key=lambda t: (TIER_ORDER.index(t) if t in TIER_ORDER else 9, t)):
            folders = by_tier[tier]
            all_recs = [r for rs in folders.values() for r in rs]
            # the record count beside the name: the last number of a label is always its tokens
            label = self.label_for(f"{tier} ({len(all_recs)})", sum(r.tokens or 0 for r in all_recs),
                                   workspace.badge([r.path for r in all_recs]), "bold")
            tier_node = parent.add(label, expand=False)
            self._groups.append((tier_node, source, f"{tier} ({len(all_recs)})", [r.path for r in all_recs], "bold"))
            for folder in sorted(folders):
                recs = folders[folder]
                name = f"{folder}/" if folder != "(top level)" else folder
                node = tier_node.add(
                    self.label_for(name, sum(r.tokens or 0 for r in recs), workspace.badge([r.path for r in recs])),
                    expand=False,
                )
                self._groups.append((node, source, name, [r.path for r in recs], ""))
                self._later(node, source, sorted(r.path for r in recs))

    def _later(self, folder, source: int, paths: list[str]) -> None:
        """A folder whose leaves are built when it is first needed (10,000 leaves cost a
        quarter of a second; a person opens a few folders)."""
        self._unfilled[folder] = (source, paths)
        folder_of = self._folder_of
        for path in paths:
            folder_of[NodeRef(source, path)] = folder

    def fill(self, folder) -> None:
        """Build a folder's leaves now, if not built yet."""
        pending = self._unfilled.pop(folder, None)
        if pending is None:
            return
        source, paths = pending
        ws = self._workspaces[source]
        usage = self._usage(ws)
        records = ws.store.records
        self._names.update(unique_names(source, paths))  # six README.md in one group: each says where
        for path in paths:
            rec = records.get(path)
            if rec is not None:
                self._leaf(folder, rec, ws, source, usage)

    def node_for(self, ref: NodeRef):
        """The node of a source or record, built on demand (None: the tree does not show it)."""
        node = self._path_nodes.get(ref)
        if node is None and ref in self._folder_of:
            self.fill(self._folder_of[ref])
            node = self._path_nodes.get(ref)
        return node

    @property
    def refs(self) -> set[NodeRef]:
        """Every source and record the tree shows, its leaf built or not."""
        return set(self._path_nodes) | set(self._folder_of)

    def on_tree_node_expanded(self, event: Tree.NodeExpanded) -> None:
        self.fill(event.node)  # opened: its leaves are built now

    def _source_label(self, src, ws) -> Text:
        label = self.label_for(f"{src.name}", ws.store.total_tokens, ws.badge(None), "bold")
        label.append(f"  {src.spec.label}", style="dim italic")
        return label

    def update_in_place(self, bench, workspace) -> bool:
        """A new snapshot of the same shape (the same files in the same tiers and folders: an
        edit seen on disk): relabel the records whose record or findings changed and every
        group, keeping nodes, folds, cursor and scroll. False when the shape changed (the
        caller rebuilds)."""
        sources = dict(bench.loaded()) if bench is not None else {}
        fresh = {i: s.workspace for i, s in sources.items()} if sources else {0: workspace}
        if set(fresh) != set(self._workspaces) or not self._groups:
            return False
        changed: list[tuple[int, str]] = []
        for i, new in fresh.items():
            old = self._workspaces[i]
            if new is old:
                continue
            a, b = old.store.records, new.store.records
            if a.keys() != b.keys():
                return False
            for path, rec in b.items():
                before = a[path]
                if rec is not before:
                    if (rec.tier, rec.level, rec.readable, rec.folder) != \
                            (before.tier, before.level, before.readable, before.folder):
                        return False
                    changed.append((i, path))
                elif new.by_path.get(path) != old.by_path.get(path):
                    changed.append((i, path))
        for i, path in changed:
            ref = NodeRef(i, path)
            node = self._path_nodes.get(ref)  # (a leaf not built yet is labelled when built)
            if node is not None:
                node.set_label(self._record_label(fresh[i].store.records[path], fresh[i], self._marks.get(ref, ""), i))
        self._workspaces = dict(fresh)
        for node, i, title, paths, style in self._groups:
            ws = fresh[i]
            if paths is None:  # a source: `title` is its Source
                node.set_label(self._source_label(title, ws))
                continue
            records = ws.store.records
            node.set_label(self.label_for(title, sum(records[p].tokens or 0 for p in paths), ws.badge(paths), style))
        self.notify_style_update()  # labels changed width: Tree measures its lines again
        return True

    def _leaf(self, parent, rec, workspace, source: int = 0, usage=None) -> None:
        ref = NodeRef(source, rec.path)
        mark = usage_mark(usage, rec)
        node = parent.add_leaf(self._record_label(rec, workspace, mark, source), data=ref)
        self._path_nodes[ref] = node
        self._marks[ref] = mark

    def _record_label(self, rec, workspace, mark: str, source: int) -> Text:
        style = "" if rec.readable else "error"
        name = self._names.get(NodeRef(source, rec.path), rec.name)
        return self.label_for(name, rec.tokens or 0, workspace.badge([rec.path]), style, mark)

    # -- usage marks (the session tier) ------------------------------------------

    def _usage(self, workspace):
        """The reads mapped onto this workspace's store, or None: no transcripts for the
        repository (no marks at all), or not indexed yet."""
        svc = getattr(self.app, "transcripts", None)
        if svc is None or not svc.has_transcripts:
            return None
        return svc.usage_of(workspace.store)

    def _sessions_changed(self, _svc) -> None:
        """The sessions index moved on: relabel the records whose mark changed, in place (the
        tree keeps its shape, cursor and folds); nothing while nothing changed."""
        usages = {source: self._usage(ws) for source, ws in self._workspaces.items()}
        changed = False
        for ref, node in self._path_nodes.items():
            ws = self._workspaces.get(ref.source)
            rec = ws.store.records.get(ref.path) if ws is not None and ref.path is not None else None
            if rec is None:
                continue
            mark = usage_mark(usages[ref.source], rec)
            if mark != self._marks.get(ref, ""):
                self._marks[ref] = mark
                node.set_label(self._record_label(rec, ws, mark, ref.source))
                changed = True
        if changed:
            self.notify_style_update()  # label widths changed: Tree measures its lines again
            fit = getattr(self.screen, "fit_tree", None)
            if fit is not None:
                self.call_after_refresh(fit)

    def select_ref(self, ref: NodeRef) -> bool:
        node = self.node_for(ref)
        if node is None:
            return False
        parent = node.parent
        while parent is not None:
            parent.expand()
            parent = parent.parent
        self.call_after_refresh(self._move_to, node)
        return True

    def select_path(self, path: str, source: int | None = None) -> bool:
        """Select a record of a source (default: the current one)."""
        if source is None:
            bench = getattr(self.app, "workbench", None)
            source = bench.current if bench is not None else 0
        return self.select_ref(NodeRef(source, path))

    def _move_to(self, node) -> None:
        self.move_cursor(node)
        self.scroll_to_node(node)


def usage_mark(usage, rec) -> str:
    """A record's usage mark: "r12" (reads in the last 90 days, r0 if only older ones), "unread"
    (never read in any transcript), "" without usage evidence or for an unreadable file."""
    if usage is None or not rec.readable:
        return ""
    use = usage.by_path.get(rec.path)
    if use is None or not use.reads:
        return "unread"
    return f"r{use.reads_90}"

