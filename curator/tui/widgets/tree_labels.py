"""The store tree's labels at the width they are drawn: a name, then a usage mark, badges, the
token count and (for a source) its format in words. Narrow, a label says less — never its
count, and never only the part of its name it shares with its neighbours."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rich.text import Text


@dataclass(frozen=True, slots=True)
class NodeRef:
    """What a tree node stands for: a source (path None) or one record of it."""

    source: int
    path: str | None = None


# a label's tail after its name: its usage mark, badges, token count (never cut: a cut count
# looks like a real, smaller number) and, for a source, its format in words
TAIL = re.compile(r"(?P<mark> (?:r\d+|unread))?(?P<badges>(?: [✖▲●]\d+)*)(?P<count> [\d,.]+[kM]?)(?P<desc>  \S.*)?$")


def label_name(plain: str) -> str:
    """A label's name, without its tail."""
    tail = TAIL.search(plain)
    return plain[: tail.start()] if tail else plain


def fit_label(text: Text, room: int, neighbours=()) -> Text:
    """`text` (a tree label) in `room` cells: the source's format dropped first, then the usage
    mark, then the badges, then the name cut with an ellipsis where it keeps what tells it from
    its `neighbours` (`fitting.distinct_cut`); the token count is never cut."""
    if text.cell_len <= room:
        return text
    plain = text.plain
    tail = TAIL.search(plain)
    if tail is None or tail.start() == 0:
        out = text.copy()
        out.truncate(room, overflow="ellipsis")
        return out
    name = text[: tail.start()]
    counted = re.search(r" \(\d+\)$", name.plain)  # a group's "(36)" is not name: 5 cells of the word besides
    least = min(name.cell_len, 5 + (len(counted.group(0)) if counted else 0))
    parts = {k: text[tail.start(k): tail.end(k)] if tail.group(k) else Text() for k in ("mark", "badges", "count", "desc")}
    for drop in ("desc", "mark", "badges", None):
        if drop is not None and (drop not in parts or not parts[drop].plain):
            continue
        keep = Text.assemble(*(parts[k] for k in ("mark", "badges", "count", "desc") if k in parts))
        if name.cell_len + keep.cell_len <= room:
            return Text.assemble(name, keep)
        if least + keep.cell_len <= room or drop is None:
            return Text.assemble(_cut_name(name, max(2, room - keep.cell_len), neighbours), keep)
        parts.pop(drop)
    return text


def _cut_name(name: Text, width: int, neighbours) -> Text:
    """The name in `width` cells (its styles kept), an ellipsis where it is cut."""
    from .fitting import distinct_cut

    plain = name.plain
    counted = re.search(r" \(\d+\)$", plain)  # "semantic (36)": the count stays whole, the word gives way
    if counted and width > len(counted.group(0)) + 1:
        keep = len(counted.group(0))
        return Text.assemble(_cut_name(name[: -keep], width - keep, neighbours), name[-keep:])
    if len(plain) != name.cell_len:  # wide characters: cut at the end, by cells
        out = name.copy()
        out.truncate(width, overflow="ellipsis")
        return out
    pieces = distinct_cut(plain, width, neighbours)
    out = Text()
    for i, (a, b) in enumerate(pieces):
        if i:
            out.append("…")
        out.append_text(name[a:b])
    if pieces[-1][1] < len(plain):
        out.append("…")
    return out


def neighbours(node, places: dict) -> list[str]:
    """The names of the siblings above and below `node` (sorted rows: the ones it shares the
    most with), so a cut name keeps what tells it from them. `places` caches each parent's
    children's places."""
    parent = node.parent
    if parent is None:
        return []
    children = parent.children
    order = places.get(id(parent))
    if order is None or order[0] != len(children):
        order = places[id(parent)] = (len(children), {id(c): i for i, c in enumerate(children)})
    i = order[1].get(id(node))
    if i is None:
        return []
    return [label_name(children[j].label.plain) for j in (i - 1, i + 1) if 0 <= j < len(children)]


def depth_of(tree, node) -> int:
    depth, parent = 0, node.parent
    while parent is not None and parent is not tree.root:
        depth, parent = depth + 1, parent.parent
    return depth


def min_width(tree) -> int:
    """The narrowest the tree may be: every visible line keeps a letter of its name, an
    ellipsis and its whole token count (plus the scrollbar)."""
    need = 0
    nodes = [(node, 0) for node in tree.root.children]
    while nodes:
        node, level = nodes.pop()
        tail = TAIL.search(node.label.plain)
        need = max(need, level * tree.guide_depth + 2 + (len(tail.group("count")) if tail else 0))
        if node.is_expanded:
            nodes.extend((child, level + 1) for child in node.children)
    return need + 1
