"""tokens.stale-count and budget.over: the numbers an agent pays for."""

from __future__ import annotations

from .. import budgets
from ..model.findings import RefreshCount
from .context import Context


def run(ctx: Context) -> None:
    store = ctx.store
    if ctx.wants("tokens.stale-count") and store.l0 is not None and store.encoding != "none":
        for row, link in store.l0.links():
            rec = store.records.get(link.target)
            if rec is None or rec.tokens is None:
                continue
            real = rec.tokens
            if link.count == real:
                continue
            if link.count is None:
                message = f"{link.target} has no token count (it is {real})"
            elif link.count == 0:
                message = f"{link.target} count is the (0) placeholder (it is {real})"
            else:
                message = f"{link.target} is counted ({link.count}) but is {real} tokens"
            ctx.add(
                "tokens.stale-count",
                store.l0.path,
                message,
                line=row.line,
                target=link.target,
                fix=RefreshCount(store.l0.path, row.line, link.target, real),
            )
    if not ctx.wants("budget.over") or store.encoding == "none":
        return
    approx = " (estimated)" if store.encoding == "estimate" else ""
    tiered = store.adapter.is_tiered
    over = budgets.over_budget(store)
    if not tiered:
        _over_in_one(ctx, [o for o in over if store.records[o[0]].level == 2], approx)
        over = []
    size_reported = ctx.config.severity.get("size.chars") != "off"
    warn_chars = ctx.config.thresholds.size_warn_chars
    for path, tokens, limit, what in over:
        rec = store.records[path]
        if size_reported and rec.level == 2 and rec.chars >= warn_chars:
            continue  # size.chars already says this file is too big; one finding, not two
        line = None
        if store.records[path].level == 0:
            past = budgets.lines_past(store, path, limit)
            line = past[0].line if past else None
        ctx.add(
            "budget.over",
            path,
            f"{what} is {tokens:,} tokens{approx}, over its {limit:,} budget"
            # a budget curator keeps, not a cap an agent cuts at: never "falls past" (tokens says within)
            + (f"; it passes the budget at line {line} (the agent still reads every line)" if line else ""),
            line=line,
        )
    limits = store.config.budgets.tiers
    totals = dict.fromkeys(limits, 0)
    if limits:
        for r in store.records.values():
            if r.tier in totals:
                totals[r.tier] += r.tokens or 0
    for tier, limit in limits.items():
        total = totals[tier]
        if total > limit:
            ctx.add("budget.over", ".", f"{tier} tier is {total:,} tokens{approx}, over its {limit:,} budget")
    load = budgets.startup_load(store) if tiered else None
    if load is not None and load.over:
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
