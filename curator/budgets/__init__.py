"""Token views of a store: per tier, domain and file; the start-up load against its budget;
ADR-017's cost model per domain (tiered retrieval vs one consolidated file)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..base.config import glob_match
from ..base.tokens import estimate
from ..model.indexes import DomainIndex
from ..model.store import Store


@dataclass(slots=True)
class CapLine:
    path: str
    line: int
    text: str
    cumulative: int


@dataclass(slots=True)
class StartupLoad:
    budget: int
    tokens: int
    files: list[tuple[str, int]]
    past_cap: list[CapLine]

    @property
    def over(self) -> bool:
        return self.tokens > self.budget


@dataclass(slots=True)
class DomainCost:
    index: str
    domain: str
    entries: int  # memories the index routes to (that exist)
    index_tokens: int  # L1
    memory_tokens: int  # all its memories = the consolidated file
    avg_entry: float
    tiered_cached: float  # L1 + one average L2
    tiered_uncached: float  # L0 + L1 + one average L2
    savings_cached: float  # % against consolidated
    savings_uncached: float
    break_even: int | None  # entries retrieved at which tiered (cached) stops paying


@dataclass(slots=True)
class BudgetReport:
    encoding: str
    total: int
    tiers: dict[str, int]
    domain_tokens: dict[str, int]  # domain → its index plus the memories it routes to
    domains: list[DomainCost]
    files: list[tuple[str, str, int]]  # (path, tier, tokens), largest first
    startup: StartupLoad
    l0_tokens: int
    over_budget: list[tuple[str, int, int, str]] = field(default_factory=list)  # path, tokens, budget, what

    @property
    def estimated(self) -> bool:
        return self.encoding == "estimate"


_LINES: dict[tuple, list[int]] = {}  # (encoding, content hash) -> tokens of each line


def line_tokens(store: Store, text: str, content_hash: str | None = None) -> list[int]:
    """Tokens of each line (with its newline), through the store's cached counter; with the
    text's `content_hash`, kept for the next snapshot (a file's lines are counted once)."""
    counter = store.counter
    key = (getattr(counter, "encoding", "estimate"), content_hash) if content_hash else None
    if key is not None and key in _LINES:
        return _LINES[key]
    lines = text.splitlines(keepends=True)
    out = [estimate(ln) for ln in lines] if counter is None else counter.count_many([("", ln) for ln in lines])
    if key is not None:
        if len(_LINES) > 64:
            _LINES.pop(next(iter(_LINES)))
        _LINES[key] = out
    return out


def startup_files(store: Store) -> list[str]:
    """The files the agent loads at start-up: a view of the snapshot (it reads which files
    there are, so an edited memory keeps it)."""
    from ..model.store import NAMES

    def build() -> list[str]:
        out: list[str] = []
        for glob in store.config.startup_load:
            for path, rec in store.records.items():
                if rec.readable and path not in out and glob_match(path, glob):
                    out.append(path)
        return out

    return store.view("budgets.startup_files", build, reads={NAMES})


def startup_load(store: Store) -> StartupLoad:
    budget = store.config.budgets.startup
    files = [(p, store.records[p].tokens or 0) for p in startup_files(store)]
    past: list[CapLine] = []
    running, crossed = 0, False
    for path, tokens in files:
        if not crossed and running + tokens <= budget:
            running += tokens
            continue
        # the cap falls inside (or before) this file: name its lines from where it is crossed
        crossed = True
        past += lines_past(store, path, budget, already=running)
        running = past[-1].cumulative if past and past[-1].path == path else running + tokens
    return StartupLoad(budget, sum(t for _, t in files), files, past)


def lines_past(store: Store, path: str, cap: int, already: int = 0) -> list[CapLine]:
    """Lines of one file that fall past `cap` tokens, `already` tokens being loaded before it."""
    rec = store.records[path]
    out, running = [], already
    counts = line_tokens(store, rec.text, rec.content_hash)
    for no, (line, n) in enumerate(zip(rec.text.splitlines(), counts, strict=False), 1):
        running += n
        if running > cap and line.strip():
            out.append(CapLine(path, no, line, running))
    return out


def domain_tokens(store: Store) -> dict[str, int]:
    """Tokens per domain: each memory counted once, under the domain index that routes to it,
    else under its folder (so orphans and unindexed tiers still show up somewhere)."""
    out: dict[str, int] = {}
    records = store.records
    for name, paths in _domain_members(store).items():
        out[name] = sum(records[p].tokens or 0 for p in paths)
    return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))


def _domain_members(store: Store) -> dict[str, list[str]]:
    """Domain name -> its index and memories (a view: it reads the indexes and the names)."""
    from ..model.store import INDEXES, NAMES

    def build() -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        names = {path: idx.domain for path, idx in store.domain_indexes.items()}
        for path, name in names.items():
            out.setdefault(name, []).append(path)
        for rec in store.memories():
            index = store.domain_of(rec.path)
            if index is not None:
                name = names[index]
            else:
                name = rec.path.split("/", 1)[0] + "/" if "/" in rec.path else "(top level)"
            out.setdefault(name, []).append(rec.path)
        return out

    return store.view("budgets.domain_members", build, reads={INDEXES, NAMES})


def domain_costs(store: Store) -> list[DomainCost]:
    l0_rec = store.records.get(store.l0.path) if store.l0 else None
    l0 = (l0_rec.tokens if l0_rec is not None else 0) or 0
    out = []
    for path, idx, targets in _domain_targets(store):
        index_tokens = store.records[path].tokens or 0
        mem = sum(store.records[t].tokens or 0 for t in targets)
        n = len(targets)
        avg = mem / n if n else 0.0
        cached = index_tokens + avg
        uncached = l0 + cached
        out.append(
            DomainCost(
                index=path,
                domain=idx.domain,
                entries=n,
                index_tokens=index_tokens,
                memory_tokens=mem,
                avg_entry=avg,
                tiered_cached=cached,
                tiered_uncached=uncached,
                savings_cached=_savings(cached, mem),
                savings_uncached=_savings(uncached, mem),
                break_even=_break_even(index_tokens, avg, mem, n),
            )
        )
    return out


def _domain_targets(store: Store) -> list[tuple[str, DomainIndex, list[str]]]:
    """(index path, index, the memories its rows reach) per domain index: a view of the
    snapshot (it reads the indexes and the names)."""
    from ..model.store import INDEXES, NAMES

    def build():
        out = []
        for path, idx in sorted(store.domain_indexes.items()):
            targets: dict[str, None] = {}
            for row in idx.rows:
                for link in row.links:
                    rec = store.records.get(link.target)
                    if rec is not None and rec.level == 2:
                        targets[link.target] = None
            out.append((path, idx, list(targets)))
        return out

    return store.view("budgets.domain_targets", build, reads={INDEXES, NAMES})


def _savings(tiered: float, consolidated: float) -> float:
    return 0.0 if consolidated <= 0 else (1 - tiered / consolidated) * 100


def _break_even(index_tokens: int, avg: float, consolidated: int, n: int) -> int | None:
    """Smallest k with L1 + k·avg ≥ consolidated; None if even all n entries stay cheaper."""
    if avg <= 0:
        return None
    k = max(1, math.ceil((consolidated - index_tokens) / avg))
    return k if k <= n else None


def size_histogram(store: Store, edges=(0, 100, 250, 500, 1000, 2000, 4000, 8000)) -> list[tuple[str, int]]:
    """Memory sizes in token buckets, for a plot."""
    counts = [0] * len(edges)
    for rec in store.memories():
        t = rec.tokens or 0
        i = max(j for j, e in enumerate(edges) if t >= e)
        counts[i] += 1
    labels = [f"{a}–{b}" for a, b in zip(edges, edges[1:], strict=False)] + [f"{edges[-1]}+"]
    return list(zip(labels, counts, strict=True))


def over_budget(store: Store) -> list[tuple[str, int, int, str]]:
    b = store.config.budgets
    out = []
    for path, rec in store.records.items():
        if not rec.readable or rec.tokens is None:
            continue
        if rec.level == 0:
            limit, what = b.l0, "L0 index"
        elif rec.level == 1:
            limit, what = b.domain_index, "domain index"
        else:
            limit, what = b.memory, "memory"
        if rec.tokens > limit:
            out.append((path, rec.tokens, limit, what))
    return out


def build_report(store: Store) -> BudgetReport:
    tiers: dict[str, int] = {}
    ranked = []
    for path, rec in store.records.items():
        if rec.readable:
            tiers[rec.tier] = tiers.get(rec.tier, 0) + (rec.tokens or 0)
            ranked.append((-(rec.tokens or 0), path, rec.tier))
    ranked.sort()  # most tokens first, then by path (tuples compare in C: no key function)
    files = [(path, tier, -neg) for neg, path, tier in ranked]
    l0 = store.records[store.l0.path].tokens or 0 if store.l0 else 0
    return BudgetReport(
        encoding=store.encoding,
        total=store.total_tokens,
        tiers=tiers,
        domain_tokens=domain_tokens(store),
        domains=domain_costs(store),
        files=files,
        startup=startup_load(store),
        l0_tokens=l0,
        over_budget=over_budget(store),
    )
