"""tokens.stale-count and budget.over: the numbers an agent pays for."""

from __future__ import annotations

from .. import budgets
from ..model.findings import RefreshCount
from ..model.indexes import L0Index
from .context import Context


def run(ctx: Context) -> None:
    """One check per budget, side by side: the index's counts, then each file, each tier and
    the start-up load against its budget."""
    store = ctx.store
    if ctx.wants("tokens.stale-count") and store.l0 is not None and store.encoding != "none":
        _stale_counts(ctx, store.l0)
    if not ctx.wants("budget.over") or store.encoding == "none":
        return
    approx = " (estimated)" if store.encoding == "estimate" else ""
    over = budgets.over_budget(store)
    if store.adapter.is_tiered:
        _files_over(ctx, over, approx)
    else:
        _over_in_one(ctx, [o for o in over if store.records[o[0]].level == 2], approx)
    _tiers_over(ctx, approx)
    if store.adapter.is_tiered:
        _startup_over(ctx, approx)


def _stale_counts(ctx: Context, l0: L0Index) -> None:
    """tokens.stale-count: each count the always-loaded index gives that the file's is not."""
    store = ctx.store
    for row, link in l0.links():
        rec = store.records.get(link.target)
        if rec is None or rec.tokens is None or link.count == rec.tokens:
            continue
        real = rec.tokens
        if link.count is None:
            message = f"{link.target} has no token count (it is {real})"
        elif link.count == 0:
            message = f"{link.target} count is the (0) placeholder (it is {real})"
        else:
            message = f"{link.target} is counted ({link.count}) but is {real} tokens"
        ctx.add("tokens.stale-count", l0.path, message, line=row.line, target=link.target,
                fix=RefreshCount(l0.path, row.line, link.target, real))


def _files_over(ctx: Context, over, approx: str) -> None:
    """budget.over on each file over its budget (a file size.chars reports already: once)."""
    store = ctx.store
    size_reported = ctx.config.severity.get("size.chars") != "off"
    warn_chars = ctx.config.thresholds.size_warn_chars
    for path, tokens, limit, what in over:
        rec = store.records[path]
        if size_reported and rec.level == 2 and rec.chars >= warn_chars:
            continue  # size.chars already says this file is too big; one finding, not two
        line = None
        if rec.level == 0:
            past = budgets.lines_past(store, path, limit)
            line = past[0].line if past else None
        ctx.add(
            "budget.over",
            path,
            f"{what} is {tokens:,} tokens{approx}, over its {limit:,} budget"
            + (" (budgets.l0: the index's own, not the start-up budget)" if what == "L0 index" else "")
            # a budget curator keeps, not a cap an agent cuts at: never "falls past" (tokens says within)
            + (f"; it passes the budget at line {line} (the agent still reads every line)" if line else ""),
            line=line,
        )


def _tiers_over(ctx: Context, approx: str) -> None:
    """budget.over on each tier whose files add up past the tier's budget."""
    limits = ctx.store.config.budgets.tiers
    totals = dict.fromkeys(limits, 0)
    for r in ctx.store.records.values() if limits else ():
        if r.tier in totals:
            totals[r.tier] += r.tokens or 0
    for tier, limit in limits.items():
        if totals[tier] > limit:
            ctx.add("budget.over", ".", f"{tier} tier is {totals[tier]:,} tokens{approx}, over its {limit:,} budget")


def _startup_over(ctx: Context, approx: str) -> None:
    """budget.over on the start-up load (a tiered store's), at the first line past the cap."""
    store = ctx.store
    load = budgets.startup_load(store)
    if load is None or not load.over:
        return
    first = load.past_cap[0] if load.past_cap else None
    ctx.add(
        "budget.over",
        first.path if first else (store.l0.path if store.l0 else "."),
        f"start-up load is {load.tokens:,} tokens{approx}, over its {load.budget:,} budget"
        + (f"; {len(load.past_cap)} line(s) fall past the cap" if load.past_cap else ""),
        line=first.line if first else None,
    )


def _over_in_one(ctx: Context, over, approx: str) -> None:
    """Formats without ADR-017's atomic-memory rule: memories over the budget are one finding
    for the store (how many, the largest), not a warning on every long note."""
    if not over:
        return
    over = sorted(over, key=lambda o: -o[1])
    limit = over[0][2]
    largest = ", ".join(f"{p} ({t:,})" for p, t, _, _ in over[:3])
    total = len([r for r in ctx.store.records.values() if r.level == 2])
    ctx.add(
        "budget.over",
        ".",
        f"{len(over)} of {total} memories are over the {limit:,}-token memory budget{approx} — each "
        f"read loads it whole; largest: {largest}",
    )  # a warning, as budget.over is everywhere: the header must not read "nothing wrong" over it
