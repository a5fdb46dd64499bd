"""transient.expired: records older than their tier's TTL (prunable).

A folder with many expired records of one tier (a store of dated session logs nobody prunes)
gets one finding with the count, the oldest and a few examples, not one line per log: the fix
(`curator prune`, or this finding's) archives them all at once. The finding is about the folder,
so the check reads every record on each run (a re-check agrees with a full run)."""

from __future__ import annotations

from datetime import date

from ..model.findings import Prune, PruneMany
from .context import Context

MANY = 5  # expired records of one tier in one folder: from this many on, one finding for them
EXAMPLES = 3


def run(ctx: Context) -> None:
    store = ctx.store
    ttl = ctx.config.ttl_days
    groups: dict[tuple[str, str], list[tuple[int, str]]] = {}
    for path, rec in store.records.items():
        days = ttl.get(rec.tier)
        if days is None or rec.level != 2 or not rec.date:
            continue
        try:
            age = (store.today - date.fromisoformat(rec.date)).days
        except ValueError:
            continue
        if age > days:
            folder = path.rsplit("/", 1)[0] if "/" in path else "."
            groups.setdefault((folder, rec.tier), []).append((age, path))
    for (folder, tier), old in sorted(groups.items()):
        days = ttl[tier]
        if len(old) < MANY:
            for age, path in sorted(old, key=lambda x: x[1]):
                ctx.add("transient.expired", path, f"{age} days old; the {tier} tier keeps records {days} days",
                        fix=Prune(path))
            continue
        old.sort(key=lambda x: (-x[0], x[1]))
        where = "" if folder == "." else f" in {folder}/"
        examples = ", ".join(p for _, p in old[1:1 + EXAMPLES])
        ctx.add("transient.expired", folder,
                f"{len(old)} {tier} records{where} are past the {tier} tier's {days} days "
                f"(oldest {old[0][1]}, {old[0][0]} days old; e.g. {examples})",
                fix=PruneMany(tuple(sorted(p for _, p in old))))
