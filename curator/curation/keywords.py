"""Edit the keywords of one domain-index row, keeping the rest of the line as it was."""

from __future__ import annotations

from ..model.indexes import format_domain_row
from ..model.store import Store
from .draft import Draft
from .meters import meter
from .plan import CurationError, Plan
from .routes import recount_routes
from .validate import clean_keywords


def plan_keywords(store: Store, index: str, target: str, keywords: list[str]) -> Plan:
    idx = store.domain_indexes.get(index)
    if idx is None:
        raise CurationError(f"{index} is not a domain index")
    rows = [r for r in idx.rows if any(lk.target == target for lk in r.links)]
    if not rows:
        raise CurationError(f"{index} has no row for {target}")
    kws = clean_keywords(keywords)
    if not kws:
        raise CurationError("give at least one keyword")
    row = rows[0]
    draft = Draft(store.root, "keywords", f"keywords of {target} in {index}", store)
    line = draft.line(index, row.line)
    cells = line.split("|")
    if len(cells) >= 4:  # "", keywords, file, ""
        cells[1] = f" {' '.join(kws)} "
        draft.replace_line(index, row.line, "|".join(cells))
    else:
        draft.replace_line(index, row.line, format_domain_row(kws, target))
    u, collisions = meter(store, index, kws, replacing_line=row.line)
    draft.notes.append(f"row uniqueness {u:.0%}, {len(collisions)} row(s) share two or more words")
    recount_routes(store, draft, store.counter)
    return draft.plan()
