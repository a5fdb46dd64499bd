"""Promote a transient or reflexion record to semantic knowledge."""

from __future__ import annotations

import re
from datetime import date

import yaml

from ..model.indexes import format_domain_row
from ..model.records import Record
from ..model.store import Store
from .draft import Draft, rebase_links, repoint, set_count
from .meters import meter, suggest
from .plan import CurationError, Plan
from .routes import archive_path, recount_routes, route_new_row
from .validate import clean_keywords, memory_name

TRANSIENT_ONLY = ("date", "session_id", "agent", "task", "target", "status", "project", "completion", "severity")


def plan_promote(
    store: Store,
    src: str,
    dest: str,
    index: str,
    keywords: list[str] | None = None,
    source_action: str = "archive",
    today: date | None = None,
    counter=None,
) -> Plan:
    rec, dest = _checked(store, src, dest, index, source_action)
    draft = Draft(store.root, "promote", f"promote {src} → {dest}", store)
    content = _memory_text(rec, src, dest, today or store.today)
    draft.create(dest, content)
    kws = clean_keywords(keywords or suggest(store, rec.body(), index))
    if not kws:
        raise CurationError("no keywords: give some with --keywords")
    _route(store, draft, src, dest, index, kws, content, counter, repoint=source_action != "keep")
    if source_action == "archive":
        draft.move(src, archive_path(store.root, src))
    elif source_action == "remove":
        draft.delete(src)
    recount_routes(store, draft, counter)
    return draft.plan()


def _checked(store: Store, src: str, dest: str, index: str, source_action: str) -> tuple[Record, str]:
    """The record promoted and the memory's path as it will be written; CurationError when the
    promotion cannot be made (no such record, not transient, unreadable, no folder, not a
    semantic tier, ...)."""
    rec = store.records.get(src)
    if rec is None:
        raise CurationError(f"{src} is not in the store")
    if rec.tier not in ("transient", "reflexion"):
        raise CurationError(f"{src} is {rec.tier}; only transient and reflexion records are promoted")
    if not rec.readable:
        raise CurationError(f"{src} cannot be read ({rec.error})")
    dest = memory_name(store.root, dest)
    if "/" not in dest:
        raise CurationError("give the memory a folder, like git/git-new-topic.md")
    tier = store.config.tier_for(re.sub(r"^(\.\./)+", "", dest))
    if tier != "semantic":
        raise CurationError(f"{dest} would be in the {tier} tier; promote into a semantic folder (e.g. knowledge/ or a domain folder)")
    if index not in store.domain_indexes:
        raise CurationError(f"{index} is not a domain index of this store")
    if source_action not in ("archive", "remove", "keep"):
        raise CurationError("source action must be archive, remove or keep")
    return rec, dest


def _memory_text(rec: Record, src: str, dest: str, today: date) -> str:
    """The new memory: the record's frontmatter without what only a transient record carries,
    where it came from and when, and its body with links rebased and a report's heading made
    knowledge's."""
    meta = {k: v for k, v in rec.frontmatter.items() if k not in TRANSIENT_ONLY}
    source_date = None
    try:
        source_date = date.fromisoformat(rec.date) if rec.date else None
    except ValueError:
        pass
    meta = {"source": src, "source_date": source_date, "promoted": today, **meta}
    meta = {k: v for k, v in meta.items() if v not in (None, "")}
    front = yaml.safe_dump(meta, sort_keys=False, allow_unicode=True).strip()
    body = rebase_links(rec.body().lstrip("\n"), src, dest)
    # "# Validation: X" becomes "# X": the record is knowledge now, not a report
    body = re.sub(r"^(#\s+)(?:Validation|Reflection|Reflect|Session)\s*:\s*(\w)",
                  lambda m: m.group(1) + m.group(2).upper(), body, count=1, flags=re.I)
    return f"---\n{front}\n---\n\n{body}" + ("" if body.endswith("\n") else "\n")


def _route(store: Store, draft: Draft, src: str, dest: str, index: str, kws: list[str], content: str, counter,
           *, repoint: bool) -> None:
    """Rows that linked the record now link the memory it became (with its count), so its
    routing survives; a new row or L0 link is only added where none was re-pointed."""
    repointed = _repoint_routes(store, draft, src, dest, content, counter) if repoint else set()
    if index in repointed:
        draft.notes.append(f"the row of {index} that linked {src} now links {dest}")
    else:
        draft.append_line(index, format_domain_row(kws, dest))
        u, collisions = meter(store, index, kws)
        draft.notes.append(f"row uniqueness {u:.0%}"
                           + (f"; shares words with {collisions[0][0]}:{collisions[0][1]}" if collisions else ""))
    l0_links_it = store.l0 is not None and store.l0.path in repointed
    route_new_row(store, draft, index, kws, None if l0_links_it else dest, content, counter)


def _repoint_routes(store: Store, draft: Draft, src: str, dest: str, content: str, counter) -> set[str]:
    """Re-point every index row linking `src` at `dest`; the indexes touched."""
    touched = set()
    for route in store.routes_to.get(src, []):
        line = draft.current_line(route.index, route.row.line)
        if line is None:
            continue
        new = repoint(line, route.link.raw, dest)
        if route.link.count is not None and counter is not None:
            new = set_count(new, dest, counter.count(content))
        draft.replace_line(route.index, route.row.line, new)
        touched.add(route.index)
    return touched
