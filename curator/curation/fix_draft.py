"""The plan drafted from the fixes `fix.plan_fixes` chose: drops first (a dropped row is not
also re-pointed or re-counted), then one step per kind of fix (`_STEPS`, by the fix's type),
then the routes of pruned files dropped and the counts of changed files refreshed."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..model.findings import (
    DropRow,
    Finding,
    Frontmatter,
    IndexOrphan,
    ListEntry,
    MergeEntry,
    Prune,
    PruneMany,
    RefreshCount,
    Relink,
    RepointRow,
    RouteIndex,
    SplitIndex,
    Unlink,
)
from ..model.indexes import IndexLink, format_domain_row, format_l0_row
from ..model.list_entry import merged_entry
from ..model.store import Store
from .draft import Draft, repoint, set_count
from .plan import Plan
from .relinks import linked_already, relink, unlink
from .routes import archive_path, drop_routes, recount_routes


@dataclass
class _Drafting:
    """What the steps share: the store, the draft being written, the counter, and what earlier
    steps did (rows dropped, indexes routed, files pruned)."""

    store: Store
    draft: Draft
    counter: object = None
    dropped: dict[str, set[int]] = field(default_factory=dict)  # index → its rows dropped by this plan
    routed: set[str] = field(default_factory=set)
    pruned: list[str] = field(default_factory=list)

    def was_dropped(self, index: str, line: int) -> bool:
        return line in self.dropped.get(index, set())


def draft_fixes(store: Store, chosen: list[Finding], counter=None) -> Plan:
    d = _Drafting(store, Draft(store.root, "fix", "fix drift", store), counter)
    for f in chosen:
        if isinstance(f.fix, (DropRow, MergeEntry)):
            _drop(d, f.fix)
    done: set = set()
    for f in chosen:
        fix = f.fix
        if fix in done or isinstance(fix, (DropRow, MergeEntry)):
            continue
        done.add(fix)
        step = _STEPS.get(type(fix))
        if step is not None:
            step(d, fix)
    drop_routes(store, d.draft, d.pruned)
    recount_routes(store, d.draft, counter)
    return d.draft.plan()


def _drop(d: _Drafting, fix: DropRow | MergeEntry) -> None:
    """A repeated row dropped (its keywords kept in the first row), or a repeated entry merged
    into the first; either stays when what it says cannot be kept."""
    if isinstance(fix, DropRow):
        if fix.reason == "repeated" and not _merge_into_first(d, fix.index, fix.line, fix.target):
            return  # its keywords could not be kept: the row stays
        d.dropped.setdefault(fix.index, set()).add(fix.line)
        d.draft.replace_line(fix.index, fix.line, None)
    elif _merge_entry(d.store, d.draft, fix):
        d.dropped.setdefault(fix.index, set()).add(fix.line)


def _repoint_row(d: _Drafting, fix: RepointRow) -> None:
    if d.was_dropped(fix.index, fix.line):
        return
    if (current := d.draft.current_line(fix.index, fix.line)) is not None:
        d.draft.replace_line(fix.index, fix.line, repoint(current, fix.old, fix.new))


def _refresh_count(d: _Drafting, fix: RefreshCount) -> None:
    if d.was_dropped(fix.index, fix.line):
        return
    if d.counter is not None and fix.target in d.draft.touched():
        return  # the target changes in this plan: recount_routes sets its new count
    if (current := d.draft.current_line(fix.index, fix.line)) is None:
        return
    l0_rows = d.store.l0.rows if d.store.l0 else []
    raw = next((lk.raw for r in l0_rows if r.line == fix.line for lk in r.links if lk.target == fix.target), fix.target)
    new = set_count(current, raw, fix.count)
    if new == current:  # no "(N)" yet: add one after the link
        new = _add_count(current, raw, fix.count)
    d.draft.replace_line(fix.index, fix.line, new)


def _index_orphan(d: _Drafting, fix: IndexOrphan) -> None:
    row_kws = list(fix.keywords)
    if not row_kws:
        from .orphans import suggest_row_keywords

        row_kws = suggest_row_keywords(d.store, fix.path, fix.index, [])[0] or []
        if not row_kws:
            return
    d.draft.append_line(fix.index, format_domain_row(row_kws, fix.path))


def _route_index(d: _Drafting, fix: RouteIndex) -> None:
    store, index = d.store, fix.index
    if index in d.routed or store.l0 is None:
        return
    d.routed.add(index)
    name = index.removesuffix(".md")
    route_kws = list(fix.keywords) or [name.removeprefix("skills-").removesuffix("-index")]
    link = IndexLink(name, index, index, store.records[index].tokens)
    d.draft.append_line(store.l0.path, format_l0_row(route_kws, [link], store.l0.dialect))


def _relink(d: _Drafting, fix: Relink) -> None:
    if (current := d.draft.current_line(fix.path, fix.line)) is None:
        return
    if linked_already(d.draft, fix.path, fix.line, fix.new):  # another fix of this plan links it
        d.draft.replace_line(fix.path, fix.line, unlink(current, fix.old))
    else:
        d.draft.replace_line(fix.path, fix.line, relink(current, fix.old, fix.new))


def _unlink(d: _Drafting, fix: Unlink) -> None:
    if (current := d.draft.current_line(fix.path, fix.line)) is not None:
        d.draft.replace_line(fix.path, fix.line, unlink(current, fix.old))


def _from_text(d: _Drafting, fix: ListEntry | Frontmatter | SplitIndex) -> None:
    from .drafts import draft_fix

    draft_fix(d.store, d.draft, fix)


def _prune(d: _Drafting, fix: Prune) -> None:
    d.draft.move(fix.path, archive_path(d.store.root, fix.path))
    d.pruned.append(fix.path)


def _prune_many(d: _Drafting, fix: PruneMany) -> None:
    for path in fix.paths:
        if path in d.store.records and path not in d.pruned:
            d.draft.move(path, archive_path(d.store.root, path))
            d.pruned.append(path)


_STEPS: dict[type, Callable[[_Drafting, Any], None]] = {
    RepointRow: _repoint_row,
    RefreshCount: _refresh_count,
    IndexOrphan: _index_orphan,
    RouteIndex: _route_index,
    Relink: _relink,
    Unlink: _unlink,
    ListEntry: _from_text,
    Frontmatter: _from_text,
    SplitIndex: _from_text,
    Prune: _prune,
    PruneMany: _prune_many,
}


def raw_lines(store: Store, index: str) -> dict[int, str]:
    return {r.line: r.raw for r in dict(store.all_indexes()).get(index, [])}


def _merge_entry(store: Store, draft: Draft, fix: MergeEntry) -> bool:
    """The repeated entry line's hook added to the first line (as this plan leaves it), then
    the repeat dropped. False (both lines stay) when either is no longer an entry line."""
    first, repeat = draft.current_line(fix.index, fix.first), raw_lines(store, fix.index).get(fix.line)
    merged = merged_entry(first, repeat) if first is not None and repeat is not None else None
    if merged is None:
        return False
    if merged != first:
        draft.replace_line(fix.index, fix.first, merged)
    draft.replace_line(fix.index, fix.line, None)
    return True


def _merge_into_first(d: _Drafting, index: str, line: int, target: str) -> bool:
    """Before a repeated row is dropped, the first row for the same target takes its keywords
    (an exact duplicate row loses nothing). False when they cannot be kept there."""
    store, draft = d.store, d.draft
    rows = dict(store.all_indexes()).get(index, [])
    dup = next((r for r in rows if r.line == line), None)
    first = next((r for r in rows if r.line != line and not d.was_dropped(index, r.line)
                  and any(lk.target == target for lk in r.links)), None)
    if dup is None or first is None or first.line > line:
        return not (dup and dup.keywords)  # nowhere to keep its keywords
    have = {k.lower() for k in first.keywords}
    current = draft.current_line(index, first.line)
    if current is None:
        return False
    # keywords the first row already took in this plan count as had
    have |= {w.lower() for w in re.split(r"[\s,;:|]+", current) if w}
    extra = [k for k in dup.keywords if k.lower() not in have]
    if not extra:
        return True
    merged = _add_keywords(current, extra, store.l0 is not None and index == store.l0.path)
    if merged == current:
        return False
    draft.replace_line(index, first.line, merged)
    return True


def _add_keywords(line: str, extra: list[str], is_l0: bool) -> str:
    add = " ".join(extra)
    if is_l0 and ":" in line and not line.lstrip().startswith("| "):
        kw, rest = line.split(":", 1)
        return f"{kw.rstrip()} {add}:{rest}"
    cells = line.split("|")
    if len(cells) >= 4:
        cells[1] = f" {cells[1].strip()} {add} "
        return "|".join(cells)
    return line


def _add_count(line: str, raw: str, count: int) -> str:
    marker = f"]({raw})"
    at = line.find(marker)
    if at < 0:
        return line
    end = at + len(marker)
    return line[:end] + f" ({count})" + line[end:]
