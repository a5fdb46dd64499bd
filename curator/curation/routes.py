"""What an operation does to the indexes around the files it moves: routes to removed files are
dropped, the L0 route of a new row is added or extended, L0 counts of changed files are redone,
and archived records get a place in `.curator/archive` that never overwrites."""

from __future__ import annotations

import re

from ..model.indexes import IndexLink, IndexRow, format_l0_link, format_l0_row
from ..model.store import Store
from ..model.vocabulary import content_words
from .draft import Draft, remove_link, set_count

ARCHIVE = ".curator/archive"


def archive_path(root, path: str) -> str:
    """Where an archived record goes: `.curator/archive/<path>`, or `<stem>~N.md` beside it when a
    record of that name was archived before (an archive never overwrites)."""
    while path.startswith("../"):  # a record of an included folder beside the store
        path = path[3:]
    first = f"{ARCHIVE}/{path}"
    stem, dot, ext = first.rpartition(".")
    candidate, n = first, 2
    while (root / candidate).exists():
        candidate = f"{stem}~{n}{dot}{ext}"
        n += 1
    return candidate


def drop_routes(store: Store, draft: Draft, paths: list[str]) -> None:
    """Index rows and L0 links that route to files this plan removes: a row with only such
    links is dropped, a row with others loses just those links (no dead rows left behind)."""
    gone = set(paths)
    rows: dict[tuple[str, int], IndexRow] = {}
    for path in paths:
        for route in store.routes_to.get(path, []):
            rows[(route.index, route.row.line)] = route.row
    for (index, line_no), row in sorted(rows.items()):
        links = [lk for lk in row.links if not lk.mention]  # a name in backticks is no entry of its own
        dead = [lk for lk in links if lk.target in gone]
        if not dead:
            continue  # a line of prose that names the file in passing keeps what else it says
        if len(dead) == len(links):
            draft.replace_line(index, line_no, None)
            continue
        line = draft.current_line(index, line_no)
        if line is None:
            continue
        for lk in dead:
            line = remove_link(line, lk.raw)
        draft.replace_line(index, line_no, line)


def route_new_row(store: Store, draft: Draft, index: str, kws: list[str], dest: str | None = None,
                  content: str | None = None, counter=None) -> None:
    """Make sure L0 routes to the index. Of the L0 rows that already do, the one whose words
    overlap the new row's most is extended: its missing words (up to 3) and, when that row also
    links memories directly (the store's own habit), a link to the new file with its count."""
    l0 = store.l0
    if l0 is None:
        draft.notes.append("no memory-index.md: add a route to the index by hand")
        return
    rows = [r for r in l0.rows if any(link.target == index for link in r.links)]
    if rows:
        wanted = set(kws) | set(content_words(content or ""))
        row = max(rows, key=lambda r: (len(wanted & r.keyword_set), -r.line))
        line = draft.current_line(l0.path, row.line)
        if not line or l0.dialect != "sections" or ":" not in line:
            return
        missing = [k for k in kws if k not in row.keyword_set][:3]
        if missing:
            head, rest = line.split(":", 1)
            line = f"{head} {' '.join(missing)}:{rest}"
        direct = [lk for lk in row.links if lk.target in store.records and store.records[lk.target].level == 2]
        if dest and direct:
            count = counter.count(content) if counter is not None and content is not None else 0
            name = dest.rsplit("/", 1)[-1].removesuffix(".md")
            line = line.rstrip() + ", " + format_l0_link(IndexLink(name, dest, dest, count))
        draft.replace_line(l0.path, row.line, line)
    else:
        name = index.rsplit("/", 1)[-1].removesuffix(".md")
        row_kws = [name.removeprefix("skills-").removesuffix("-index")] + kws[:6]
        draft.append_line(l0.path, format_l0_row(row_kws, [IndexLink(name, index, index, 0)], l0.dialect))


def recount_routes(store: Store, draft: Draft, counter) -> None:
    """L0 `(N)` counts of every file this plan changes, so the operation leaves no stale count."""
    l0 = store.l0
    if l0 is None or counter is None:
        return
    changed = {p for p in draft.touched() if p != l0.path}
    for row in l0.rows:
        for link in row.links:
            if link.target not in changed or link.count is None:
                continue
            text = draft.after_text(link.target)
            line = draft.current_line(l0.path, row.line)
            if text is None or line is None:
                continue
            new = set_count(line, link.raw, counter.count(text))
            if new != line:
                draft.replace_line(l0.path, row.line, new)
    # routes this plan appends: count their targets as the plan leaves them
    for i, line in enumerate(draft.appended(l0.path)):
        for target in re.findall(r"\]\(([^)\s]+)\) \(\d+\)", line):
            text = draft.after_text(target)
            if text is not None:
                line = set_count(line, target, counter.count(text))
        draft.set_appended(l0.path, i, line)
