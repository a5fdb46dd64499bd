"""transient.expired: records older than their tier's TTL (prunable)."""

from __future__ import annotations

from datetime import date

from ..model.findings import Prune
from .context import Context


def run(ctx: Context) -> None:
    store = ctx.store
    ttl = ctx.config.ttl_days
    for path in ctx.file_paths():
        rec = store.records[path]
        days = ttl.get(rec.tier)
        if days is None or rec.level != 2 or not rec.date:
            continue
        try:
            age = (store.today - date.fromisoformat(rec.date)).days
        except ValueError:
            continue
        if age > days:
            ctx.add(
                "transient.expired",
                path,
                f"{age} days old; the {rec.tier} tier keeps records {days} days",
                fix=Prune(path),
            )
