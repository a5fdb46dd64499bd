"""What the app's screens show: the whole repository (every memory source, and what only shows
across them) or one source, narrowed by the user. Pure: the app's header, overview, Problems and
Budgets count through here, the same way `curator check` counts, so the numbers agree.

A scope is `None` (the whole repository) or a source's index in the session."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..model.findings import Finding, Severity

WHOLE = None


@dataclass(frozen=True, slots=True)
class Scoped:
    """A finding with the source it belongs to (None: found across sources)."""

    source: int | None
    finding: Finding  # its path is relative to that source's store (to the repository across sources)
    where: str  # the path as shown in the whole repository (the source's folder first)


def short_name(spec) -> str:
    """A source in a few letters: `.serena/memories` → serena, `.claude/memory` → claude,
    `docs/good-experience` → docs/good-experience (user folders keep their ~ form)."""
    rel = spec.rel.strip("/")
    if rel.startswith("~"):
        return rel
    first = rel.split("/", 1)[0]
    return first.lstrip(".") if first.startswith(".") else rel


def prefix_of(spec, single: bool) -> str:
    return "" if single or spec.rel in (".", "") else spec.rel.rstrip("/") + "/"


def scope_name(session, scope: int | None) -> str:
    """The scope in words, as the screens write it."""
    loaded = session.loaded()
    if scope is None or scope >= len(session.sources):
        if len(loaded) <= 1:
            return session.sources[loaded[0][0]].name if loaded else "nothing loaded"
        return f"whole repository ({len(loaded)} memory systems)"
    return session.sources[scope].name


def next_scope(session, scope: int | None) -> int | None:
    """whole → each loaded source in turn → whole."""
    order = [None] + [i for i, _ in session.loaded()]
    i = order.index(scope) if scope in order else 0
    return order[(i + 1) % len(order)]


def scoped_findings(session, scope: int | None) -> list[Scoped]:
    """Every finding in the scope, worst first (the cross-source ones only in the whole)."""
    single = bool(getattr(session.layout, "single", False))
    out: list[Scoped] = []
    for i, s in session.loaded():
        if scope is not None and i != scope:
            continue
        pre = prefix_of(s.spec, single)
        for f in s.workspace.findings:
            out.append(Scoped(i, f, pre + f.path if f.path != "." else (pre.rstrip("/") or ".")))
    if scope is None:  # what only shows across sources, and the instruction files beside them
        out += [Scoped(None, f, f.path) for f in (*session.cross, *getattr(session, "instruction_findings", ()))]
    out.sort(key=lambda x: (-x.finding.severity, x.finding.check, x.where, x.finding.line or 0))
    return out


def scope_counts(session, scope: int | None) -> Counter:
    """Findings per severity in the scope (what `curator check` sums for the same sources)."""
    return Counter(x.finding.severity for x in scoped_findings(session, scope))


def scope_totals(session, scope: int | None) -> dict:
    """files, records, tokens and findings per severity in the scope, as `curator check
    --format json` reports them in its summary."""
    files = records = tokens = 0
    estimated = False
    for i, s in session.loaded():
        if scope is not None and i != scope:
            continue
        store = s.workspace.store
        files += len(store.records)
        records += sum(1 for r in store.records.values() if r.level == 2)
        tokens += store.total_tokens
        estimated = estimated or store.encoding == "estimate"
    c = scope_counts(session, scope)
    return {"files": files, "records": records, "tokens": tokens, "estimated": estimated,
            "errors": c[Severity.ERROR], "warnings": c[Severity.WARNING], "infos": c[Severity.INFO]}


def startup_overs(session, scope: int | None) -> tuple[int, int]:
    """(sources whose start-up load is over its cap, sources) in the scope."""
    from ..budgets.startup import startup_of

    over = n = 0
    for i, s in session.loaded():
        if scope is not None and i != scope:
            continue
        n += 1
        over += startup_of(s.workspace.store).over
    return over, n
