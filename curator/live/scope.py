"""What the app's screens show: the whole repository (every memory source, and what only shows
across them) or one source, narrowed by the user. Pure: the app's header, overview, Problems and
Budgets count through here, the same way `curator check` counts, so the numbers agree.

A scope is `None` (the whole repository), a source's index in the workbench, or `INSTRUCTIONS`: what
is the repository's rather than one memory system's — the findings of the instruction files beside
the memory (CLAUDE.md, AGENTS.md, rules) and those across memory systems. A source's scope counts
as `curator check SOURCE` does; the sources' scopes and `INSTRUCTIONS` sum to the whole."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..model.findings import Finding, Severity

WHOLE = None
INSTRUCTIONS = "instructions"  # the instruction files' findings (never a source's index)
Scope = int | str | None  # WHOLE, a source's index, or INSTRUCTIONS


def is_source(scope) -> bool:
    """Is `scope` one memory source (not the whole repository, not the instruction files)?"""
    return isinstance(scope, int)


@dataclass(frozen=True, slots=True)
class Scoped:
    """A finding with the source it belongs to (None: found across sources)."""

    source: int | None
    finding: Finding  # its path is relative to that source's store (to the repository across sources)
    where: str  # the path as shown in the whole repository (the source's folder first)


def short_name(spec) -> str:
    """A source in a few letters: `.serena/memories` → serena, `.claude/memory` → claude,
    `docs/good-experience` → docs/good-experience (user folders keep their ~ form)."""
    rel = source_name(spec).strip("/")
    if rel.startswith("~"):
        return rel
    first = rel.split("/", 1)[0]
    return first.lstrip(".") if first.startswith(".") else rel


def prefix_of(spec, single: bool) -> str:
    return "" if single or spec.rel in (".", "") else spec.rel.rstrip("/") + "/"


def scope_name(bench, scope: Scope) -> str:
    """The scope in words, as the screens write it."""
    loaded = bench.loaded()
    if scope == INSTRUCTIONS:
        return "instruction files" + (", across systems" if getattr(bench, "cross", None) else "")
    if not isinstance(scope, int) or scope >= len(bench.sources):
        if len(loaded) <= 1:
            return source_name(bench.sources[loaded[0][0]].spec) if loaded else "nothing loaded"
        return f"whole repository ({len(loaded)} memory systems)"
    return source_name(bench.sources[scope].spec)


def source_name(spec) -> str:
    """A source as the screens name it: its folder in the repository (`.serena/memories`). A store
    opened as the folder itself (its folder is ".") is named by its path in its repository, else
    by its folder's name — never "." (`curator .serena/memories` showed ". 54 files")."""
    if spec.rel not in (".", ""):
        return spec.rel
    from pathlib import Path

    from ..base.paths import store_repository

    root = Path(spec.root)
    repo = store_repository(root, None, spec.fmt or "")
    try:
        rel = root.resolve().relative_to(repo.resolve()).as_posix() if repo is not None else ""
    except (ValueError, OSError):
        rel = ""
    return rel if rel not in ("", ".") else (root.resolve().name or str(root))


def next_scope(bench, scope):
    """whole → each loaded source in turn → the instruction files (when there are some beside the
    memory) → whole."""
    order = [None] + [i for i, _ in bench.loaded()]
    if has_instructions(bench):
        order.append(INSTRUCTIONS)
    i = order.index(scope) if scope in order else 0
    return order[(i + 1) % len(order)]


def has_instructions(bench) -> bool:
    """Does the repository hold instruction files beside its memory, or findings across its memory
    systems (a scope of their own)?"""
    model = getattr(bench, "instructions", None)
    return bool(getattr(bench, "instruction_findings", None) or getattr(bench, "cross", None)) \
        or bool(model is not None and model.agents)


def scoped_findings(bench, scope) -> list[Scoped]:
    """Every finding in the scope, worst first: a source's own, the repository's (instruction
    files and across systems), or all of them in the whole repository."""
    single = bool(getattr(bench.layout, "single", False))
    out: list[Scoped] = []
    instructions = list(getattr(bench, "instruction_findings", ()))
    if scope == INSTRUCTIONS:
        out = [Scoped(None, f, f.path) for f in (*bench.cross, *instructions)]
    else:
        for i, s in bench.loaded():
            if scope is not None and i != scope:
                continue
            pre = prefix_of(s.spec, single)
            for f in s.workspace.findings:
                out.append(Scoped(i, f, pre + f.path if f.path != "." else (pre.rstrip("/") or ".")))
        if scope is None:  # what only shows across sources, and the instruction files beside them
            out += [Scoped(None, f, f.path) for f in (*bench.cross, *instructions)]
    out.sort(key=lambda x: (-x.finding.severity, x.finding.check, x.where, x.finding.line or 0))
    return out


def scope_counts(bench, scope) -> Counter:
    """Findings per severity in the scope (what `curator check` sums for the same sources)."""
    return Counter(x.finding.severity for x in scoped_findings(bench, scope))


def scope_totals(bench, scope) -> dict:
    """files, records, tokens and findings per severity in the scope, as `curator check
    --format json` reports them in its summary."""
    files = records = tokens = 0
    estimated = False
    if scope == INSTRUCTIONS:
        model = getattr(bench, "instructions", None)
        files = getattr(model, "files", 0) if model is not None else 0
    for i, s in bench.loaded():
        if scope is not None and i != scope:
            continue
        store = s.workspace.store
        files += len(store.records)
        records += sum(1 for r in store.records.values() if r.level == 2)
        tokens += store.total_tokens
        estimated = estimated or store.encoding == "estimate"
    c = scope_counts(bench, scope)
    return {"files": files, "records": records, "tokens": tokens, "estimated": estimated,
            "errors": c[Severity.ERROR], "warnings": c[Severity.WARNING], "infos": c[Severity.INFO]}


def total_findings(bench) -> int:
    """Every finding of the whole repository, as `curator check` totals them (`curator watch`
    says this after each change, memory or instruction file)."""
    return sum(scope_counts(bench, None).values())


def startup_overs(bench, scope) -> tuple[int, int]:
    """(sources whose start-up load is over its cap, sources) in the scope."""
    from ..budgets.startup import startup_of

    over = n = 0
    for i, s in bench.loaded():
        if scope is not None and i != scope:
            continue
        n += 1
        over += startup_of(s.workspace.store).over
    return over, n
