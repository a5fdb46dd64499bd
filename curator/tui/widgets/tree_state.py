"""The store tree's folds and cursor kept across a rebuild: a write that changes the tree's shape
(a promote, its undo, a prune) builds it again, and the reader keeps the folders they opened and
their place — never the tree folded back with the cursor at the top."""

from __future__ import annotations

import re
from contextlib import contextmanager

from .tree_labels import NodeRef, label_name

_COUNT = re.compile(r" \(\d+\)$")  # a group's record count, "semantic (36)": it changes with a write


def node_key(node) -> tuple:
    """A node's place by names, from the top: the same folder before and after a rebuild."""
    names = []
    while node is not None and node.parent is not None:
        names.append(_COUNT.sub("", label_name(node.label.plain)))
        node = node.parent
    return tuple(reversed(names))


@contextmanager
def kept_folds(tree, fill):
    """Rebuild `tree` inside the block; then open again every folder open before it (`fill`
    builds a lazy folder's leaves first) and, when the cursor's own node is gone, put the
    cursor on its deepest ancestor still there (else the same line)."""
    opened: set[tuple] = set()
    nodes = list(tree.root.children)
    while nodes:
        node = nodes.pop()
        if node.is_expanded and node.children:
            opened.add(node_key(node))
            nodes.extend(node.children)
    cursor = tree.cursor_node
    where = node_key(cursor) if cursor is not None else ()
    line = tree.cursor_line
    state = {"moved": False}
    yield state
    found = {}
    nodes = list(tree.root.children)
    while nodes:
        node = nodes.pop()
        key = node_key(node)
        found[key] = node
        if key in opened and node.allow_expand:
            fill(node)
            node.expand()
            nodes.extend(node.children)
    if state["moved"]:
        return
    for depth in range(len(where), 0, -1):
        node = found.get(where[:depth])
        if node is not None:
            tree.call_after_refresh(tree.move_cursor, node)
            return
    tree.cursor_line = max(0, min(line, tree.last_line))


def unique_names(source: int, paths: list[str]) -> dict:
    """{NodeRef: name} for the records of one folder node whose file names repeat there (an
    Indexes group's six README.md): each named by as much of its path as tells them apart."""
    from collections import Counter

    base = Counter(p.rsplit("/", 1)[-1] for p in paths)
    out = {}
    for p in paths:
        if base[p.rsplit("/", 1)[-1]] < 2:
            continue
        parts = p.split("/")
        for k in range(2, len(parts) + 1):
            tail = "/".join(parts[-k:])
            if sum(1 for q in paths if q == tail or q.endswith("/" + tail)) == 1:
                break
        out[NodeRef(source, p)] = tail
    return out
