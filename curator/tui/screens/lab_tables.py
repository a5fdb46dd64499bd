"""The retrieval lab's tables: the fused list (one rank column per running source, short headers
when the full ones leave the memory names too little room) and each source's own list."""

from __future__ import annotations

from contextlib import nullcontext

from rich.text import Text

from ...reports.fitting import unique_tails
from ...reports.retrieval_report import middle_cut, rank_cell, running_sources
from .base import cursor_kept

# a rank column's header when the full name leaves the memory names too little room
SHORT = {"route": "rte", "bm25": "bm25", "prior": "pri", "semantic": "sem", "graph": "gph"}
NAME_ROOM = 24  # below this many cells for the memory names, the rank columns take their short headers


def fill_fused(fused, result, room: int, again: bool, result_name) -> None:
    """The fused list in `fused` (a RowTable `room` cells wide); `again`: the same words on a
    newer snapshot, the cursor kept; `result_name(path, tail)`: a result's name (narrow: `tail`,
    the end of its path that tells it from the other results)."""
    # one column per running source, ranks as `curator retrieve` prints them; short headers
    # when the full ones would leave the names too little room (the reasons spell them out).
    # Each cell starts with its one-cell gap (the table's cell padding is 0).
    sources = running_sources(result)
    tokens = [f"{h.tokens:,}" for h in result.hits]
    tok_w = max([6, *map(len, tokens)])
    fixed = 3 + 1 + tok_w + 1 + sum(len(s) + 1 for s in sources) + 2  # #, memory's gap, tokens, ranks, scrollbar
    heads = list(sources) if room - fixed >= NAME_ROOM else [SHORT.get(s, s[:3]) for s in sources]
    # narrow: file names, with as many of their folders as tell same-named files apart (the
    # whole path is in the reasons below the table)
    narrow = unique_tails(h.path for h in result.hits) if room < 70 else None
    with cursor_kept(fused) if again else nullcontext():
        widths = fused.set_columns([(" #", 3), (" memory", None), (" " + "tokens".rjust(tok_w), tok_w + 1),
                                    *((" " + h, len(h) + 1) for h in heads)], room)
        for h, tok in zip(result.hits, tokens, strict=True):
            # near-copies shown once (retrieval/copies.py), counted after the name, which is cut
            copies = f" +{len(h.copies)} cop{'y' if len(h.copies) == 1 else 'ies'}" if h.copies else ""
            name = middle_cut(result_name(h.path, narrow and narrow[h.path]), widths[1] - 1 - len(copies)) + copies
            ranks = [rank_cell(h, s).rjust(w) for s, w in zip(sources, widths[3:], strict=True)]
            fused.add_row(f"{h.rank:>2}", Text(" " + name, style="bold", no_wrap=True),
                          tok.rjust(widths[2]), *ranks, key=h.path)


def show_sources(screen, sources, room: bool) -> None:
    """The per-source lists (`#lab-sources`) shown when there is `room`: no search fills them
    while they are hidden, so they are filled from the last result as they come back."""
    pane = screen.query_one("#lab-sources")
    shown, pane.display = pane.display, room
    if room and not shown:
        screen.call_after_refresh(lambda: fill_sources(screen, sources, screen.result))  # laid out first


def fill_sources(screen, sources, result) -> None:
    """Each of `sources`' own list (`#src-NAME` in `screen`), from `result` (None: emptied)."""
    per_source = result.per_source if result is not None else {}
    for s in sources:
        fill_source(screen.query_one(f"#src-{s}"), per_source.get(s, []))


def fill_source(table, items) -> None:
    """One source's own list: its first 8 memories and their scores."""
    cols = table.set_columns([("#", 1), ("memory", None), ("score", 5)], table.parent.size.width)
    names = unique_tails(path for path, _ in items[:8])  # (the memory system's name is in the fused list)
    for i, (path, score) in enumerate(items[:8], 1):
        name = names[path]
        table.add_row(str(i), Text(middle_cut(name, cols[1]), no_wrap=True), f"{score:.2f}", key=path)
