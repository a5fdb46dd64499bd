"""Promote a transient or reflexion record to semantic knowledge."""

from __future__ import annotations

import re
from datetime import date

import yaml

from ..model.indexes import format_domain_row
from ..model.store import Store
from .draft import Draft, rebase_links
from .meters import meter, suggest
from .plan import CurationError, Plan
from .routes import archive_path, drop_routes, recount_routes, route_new_row
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
    root = store.root
    rec = store.records.get(src)
    if rec is None:
        raise CurationError(f"{src} is not in the store")
    if rec.tier not in ("transient", "reflexion"):
        raise CurationError(f"{src} is {rec.tier}; only transient and reflexion records are promoted")
    if not rec.readable:
        raise CurationError(f"{src} cannot be read ({rec.error})")
    dest = memory_name(root, dest)
    if "/" not in dest:
        raise CurationError("give the memory a folder, like git/git-new-topic.md")
    tier = store.config.tier_for(re.sub(r"^(\.\./)+", "", dest))
    if tier != "semantic":
        raise CurationError(f"{dest} would be in the {tier} tier; promote into a semantic folder (e.g. knowledge/ or a domain folder)")
    if index not in store.domain_indexes:
        raise CurationError(f"{index} is not a domain index of this store")
    if source_action not in ("archive", "remove", "keep"):
        raise CurationError("source action must be archive, remove or keep")
    today = today or store.today
    draft = Draft(root, "promote", f"promote {src} → {dest}")

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
    content = f"---\n{front}\n---\n\n{body}" + ("" if body.endswith("\n") else "\n")
    draft.create(dest, content)

    kws = clean_keywords(keywords or suggest(store, rec.body(), index))
    if not kws:
        raise CurationError("no keywords: give some with --keywords")
    draft.append_line(index, format_domain_row(kws, dest))
    u, collisions = meter(store, index, kws)
    draft.notes.append(f"row uniqueness {u:.0%}" + (f"; shares words with {collisions[0][0]}:{collisions[0][1]}" if collisions else ""))

    route_new_row(store, draft, index, kws, dest, content, counter)

    if source_action == "archive":
        draft.move(src, archive_path(store.root, src))
    elif source_action == "remove":
        draft.delete(src)
    if source_action != "keep":
        drop_routes(store, draft, [src])
    recount_routes(store, draft, counter)
    return draft.plan()
