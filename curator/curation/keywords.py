"""Edit the keywords of one domain-index row, keeping the rest of the line as it was.

A row is addressed exactly: by its index, its line and its own text (`RowRef`). Two rows may
point at the same memory, so a target alone names a row only when it is the only one; a row
whose text changed since it was chosen is refused, never confused with its neighbour.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model import formats as fmts
from ..model.indexes import format_domain_row
from ..model.store import Store
from .draft import Draft
from .meters import meter
from .plan import CurationError, Plan
from .routes import recount_routes
from .validate import clean_keywords


@dataclass(frozen=True)
class RowRef:
    """The row a person chose: index, 1-based line and the row's text as they saw it (None:
    whatever the line holds now, as when it is named on the command line)."""

    index: str
    line: int
    text: str | None = None

    def __str__(self) -> str:
        return f"{self.index}:{self.line}"


class RowChanged(CurationError):
    """The chosen row is no longer at its line with its text (edited, moved twice, removed)."""


class AmbiguousRow(CurationError):
    """A target names more than one row of the index; `lines` lists them."""

    def __init__(self, index: str, target: str, lines: list[int]) -> None:
        self.lines = lines
        super().__init__(f"{index} has {len(lines)} rows for {target} (lines {', '.join(map(str, lines))}); "
                         f"name one: {index}:{lines[0]}")


def keyword_rows(store: Store, index: str):
    """The rows of an index that routes by keywords — a domain index, or the tiered store's
    memory-index.md (keywords before the colon) — else None."""
    idx = store.domain_indexes.get(index)
    if idx is not None:
        return idx.rows
    if store.format == fmts.SERENA_TIERED and store.l0 is not None and store.l0.path == index:
        return store.l0.rows
    return None


def _rows(store: Store, index: str):
    rows = keyword_rows(store, index)
    if rows is None:
        raise CurationError(f"{index} routes by no keywords (a domain index or memory-index.md does)")
    return rows


def find_row(store: Store, ref: RowRef):
    """The row `ref` names in this snapshot: the row at its line holding its text, else the one
    row holding that text elsewhere (lines added above it); anything else is RowChanged."""
    rows = _rows(store, ref.index)
    at = next((r for r in rows if r.line == ref.line), None)
    if at is not None and (ref.text is None or at.raw.strip() == ref.text.strip()):
        return at
    if ref.text is not None:
        same = [r for r in rows if r.raw.strip() == ref.text.strip()]
        if len(same) == 1:
            return same[0]
    if at is None and ref.text is None:
        raise CurationError(f"{ref.index} has no row at line {ref.line}")
    raise RowChanged(f"{ref} changed since it was chosen; nothing was written — pick the row again")


def row_for_target(store: Store, index: str, target: str):
    """The one row of `index` pointing at `target` (AmbiguousRow when there are several)."""
    rows = [r for r in _rows(store, index) if any(lk.target == target for lk in r.links)]
    if not rows:
        raise CurationError(f"{index} has no row for {target}")
    if len(rows) > 1:
        raise AmbiguousRow(index, target, [r.line for r in rows])
    return rows[0]


def plan_keywords(store: Store, index: str, target: str | None, keywords: list[str], *,
                  row: RowRef | None = None) -> Plan:
    """Set the keywords of the row `row` names (or, without it, of the one row for `target`)."""
    if row is not None:
        chosen = find_row(store, row)
    elif target is not None:
        chosen = row_for_target(store, index, target)
    else:
        raise CurationError(f"which row of {index}? (give its target or the row)")
    if not chosen.links:
        raise CurationError(f"{index}:{chosen.line} links no memory; edit it by hand")
    kws = clean_keywords(keywords)
    if not kws:
        raise CurationError("give at least one keyword")
    target = chosen.links[0].target
    draft = Draft(store.root, "keywords", f"keywords of {target} in {index}:{chosen.line}", store)
    line = draft.line(index, chosen.line)
    cells = line.split("|")
    if len(cells) >= 4:  # "", keywords, file, ""
        cells[1] = f" {' '.join(kws)} "
        draft.replace_line(index, chosen.line, "|".join(cells))
    elif index not in store.domain_indexes and ":" in line:  # memory-index.md: `|kw kw: [name](path) (N), …`
        lead, _, rest = line.partition(":")
        bar = lead[: len(lead) - len(lead.lstrip())] + ("|" if lead.lstrip().startswith("|") else "")
        draft.replace_line(index, chosen.line, f"{bar}{' '.join(kws)}:{rest}")
    else:
        draft.replace_line(index, chosen.line, format_domain_row(kws, target))
    u, collisions = meter(store, index, kws, replacing_line=chosen.line)
    draft.notes.append(f"row uniqueness {u:.0%}, {len(collisions)} row(s) share two or more words")
    recount_routes(store, draft, store.counter)
    return draft.plan()
