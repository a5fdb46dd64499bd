"""transient.unpruned: a store that is mostly transient records (dated session and hand-off
logs) — one note for the store, since it is a tier nobody prunes rather than many problems."""

from __future__ import annotations

from ..model.findings import Severity
from .context import Context

SHARE = 0.5  # of the store's memories
AT_LEAST = 10


def run(ctx: Context) -> None:
    if ctx.paths is not None:
        return  # a re-check of some files: the share is judged on a full run
    memories = [r for r in ctx.store.records.values() if r.level == 2]
    transient = [r for r in memories if r.tier == "transient"]
    if len(transient) < AT_LEAST or len(transient) < SHARE * len(memories):
        return
    ttl = ctx.config.ttl_days.get("transient")
    tokens = sum(r.tokens or 0 for r in transient)
    example = min(r.path for r in transient)
    ctx.add(
        "transient.unpruned",
        ".",
        f"{len(transient)} of {len(memories)} memories are transient records ({tokens:,} tokens; e.g. {example}): "
        "a session log the agent reads alongside its knowledge, kept forever"
        + (f" — `curator prune` archives those older than {ttl} days" if ttl else ""),
        severity=Severity.INFO,
    )
