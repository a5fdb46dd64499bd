"""Refresh stale L0 `(N)` token counts: only the stale rows change."""

from __future__ import annotations

from ..model.findings import Finding
from ..model.store import Store
from .fix import plan_fixes
from .plan import NothingToDo, Plan


def plan_refresh(store: Store, findings: list[Finding]) -> Plan:
    stale = [f for f in findings if f.check == "tokens.stale-count" and f.fix is not None]
    if not stale:
        raise NothingToDo("every L0 token count is current", "refresh")
    plan = plan_fixes(store, stale, {"tokens.stale-count"}, counter=store.counter)
    plan.operation, plan.title = "refresh", f"refresh {len(stale)} stale token count(s)"
    return plan
