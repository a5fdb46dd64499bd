"""Sources → tiers → folders → records, with token and finding badges."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from rich.text import Text
from textual.binding import Binding
from textual.widgets import Tree

from .budget_bar import compact as _tokens

TIER_ORDER = ("semantic", "reflexion", "transient", "session")


@dataclass(frozen=True, slots=True)
class NodeRef:
    """What a tree node stands for: a source (path None) or one record of it."""

    source: int
    path: str | None = None


class StoreTree(Tree[str]):
    """Node data is the record path (or None for a group)."""

    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False, id="tree-down", tooltip="Next item"),
        Binding("k", "cursor_up", "Up", show=False, id="tree-up", tooltip="Previous item"),
    ]
    HELP = "The store by tier and folder. Badges: tokens, ✖ errors, ▲ warnings. Enter opens a folder."

    def __init__(self, **kwargs) -> None:
        super().__init__("store", **kwargs)
        self.show_root = False
        self.guide_depth = 3
        self._path_nodes: dict[str, object] = {}

    def label_for(self, name: str, tokens: int, badge: str, style: str = "") -> Text:
        # the badge before the count: on a narrow terminal the count is what gets cut
        text = Text(name, style=style)
        if badge:
            text.append(f" {badge}", style="bold red" if "✖" in badge else "yellow")
        text.append(f" {_tokens(tokens)}", style="dim")
        return text

    def show(self, workspace, repo=None) -> None:
        """(Re)build from a workspace — or from every source of a repository — keeping the cursor
        on the same record when it still exists. Tiers show; folders below them start folded."""
        current = self.cursor_node.data if self.cursor_node else None
        self.clear()
        self._path_nodes = {}
        loaded = repo.loaded() if repo is not None else []
        if len(repo.sources if repo is not None else []) > 1:
            for i, src in enumerate(repo.sources):
                ws = src.workspace
                if ws is None:
                    self.root.add_leaf(Text(f"{src.name} — cannot load: {src.error}", style="red"),
                                       data=NodeRef(i))
                    continue
                label = self.label_for(f"{src.name}", ws.store.total_tokens, ws.badge(None), "bold")
                label.append(f"  {src.spec.label}", style="dim italic")
                node = self.root.add(label, data=NodeRef(i), expand=True)
                self._path_nodes[NodeRef(i)] = node
                self._source(node, ws, i)
        else:
            index = loaded[0][0] if loaded else 0
            self._source(self.root, workspace, index)
        if isinstance(current, NodeRef) and current in self._path_nodes:
            self.select_ref(current)
        else:
            self.cursor_line = 0

    def _source(self, parent, workspace, source: int) -> None:
        store = workspace.store
        records = list(store.records.values())
        indexes = [r for r in records if r.level < 2]
        if indexes:
            paths = [r.path for r in indexes]
            group = parent.add(
                self.label_for("Indexes", sum(r.tokens or 0 for r in indexes), workspace.badge(paths), "bold"),
                expand=False,
            )
            for r in sorted(indexes, key=lambda r: (r.level, r.path)):
                self._leaf(group, r, workspace, source)
        by_tier: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
        for r in records:
            if r.level == 2 or not r.readable:
                folder = r.folder or "(top level)"
                by_tier[r.tier][folder].append(r)
        for tier in sorted(by_tier, key=lambda t: (TIER_ORDER.index(t) if t in TIER_ORDER else 9, t)):
            folders = by_tier[tier]
            all_recs = [r for rs in folders.values() for r in rs]
            label = self.label_for(tier, sum(r.tokens or 0 for r in all_recs),
                                   workspace.badge([r.path for r in all_recs]), "bold")
            label.append(f" ({len(all_recs)})", style="dim")
            tier_node = parent.add(label, expand=False)
            for folder in sorted(folders):
                recs = folders[folder]
                node = tier_node.add(
                    self.label_for(f"{folder}/" if folder != "(top level)" else folder,
                                   sum(r.tokens or 0 for r in recs), workspace.badge([r.path for r in recs])),
                    expand=False,
                )
                for r in sorted(recs, key=lambda r: r.path):
                    self._leaf(node, r, workspace, source)

    def _leaf(self, parent, rec, workspace, source: int = 0) -> None:
        style = "" if rec.readable else "red"
        ref = NodeRef(source, rec.path)
        node = parent.add_leaf(self.label_for(rec.name, rec.tokens or 0, workspace.badge([rec.path]), style), data=ref)
        self._path_nodes[ref] = node

    def select_ref(self, ref: NodeRef) -> bool:
        node = self._path_nodes.get(ref)
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
            repo = getattr(self.app, "repo", None)
            source = repo.current if repo is not None else 0
        return self.select_ref(NodeRef(source, path))

    def _move_to(self, node) -> None:
        self.move_cursor(node)
        self.scroll_to_node(node)
