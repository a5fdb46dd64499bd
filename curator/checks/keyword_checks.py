"""keywords.*: per-row uniqueness in strict indexes, too few keywords, collisions."""

from __future__ import annotations

from collections import defaultdict

from ..model.indexes import IndexRow
from .context import Context


def row_uniqueness(row_keywords: frozenset[str], others: list[frozenset[str]]) -> float:
    """Share of a row's keywords used by no other row of its index (a lone row is 1.0)."""
    if not row_keywords:
        return 0.0
    used = set().union(*others) if others else set()
    return len(row_keywords - used) / len(row_keywords)


def collision_rate(rows: list[IndexRow]) -> float:
    """Share of an index's distinct keywords used by two or more rows (ADR-017 abort: > 30%)."""
    counts: dict[str, int] = defaultdict(int)
    for row in rows:
        for k in row.keyword_set:
            counts[k] += 1
    if not counts:
        return 0.0
    return sum(1 for n in counts.values() if n > 1) / len(counts)


def run(ctx: Context) -> None:
    store, th = ctx.store, ctx.config.thresholds
    for path, idx in store.domain_indexes.items():
        sets = [row.keyword_set for row in idx.rows]
        strict = ctx.config.is_strict_index(idx.name)
        for i, row in enumerate(idx.rows):
            if len(row.keyword_set) < th.min_keywords:
                ctx.add(
                    "keywords.too-few",
                    path,
                    f"row has {len(row.keyword_set)} keyword(s); at least {th.min_keywords} (ADR-017 recommends 10–15)",
                    line=row.line,
                    target=row.links[0].target if row.links else None,
                )
            if strict and row.keyword_set:
                u = row_uniqueness(row.keyword_set, sets[:i] + sets[i + 1 :])
                if u < th.uniqueness:
                    ctx.add(
                        "keywords.uniqueness",
                        path,
                        f"only {u:.0%} of this row's keywords are its own (needs {th.uniqueness:.0%})",
                        line=row.line,
                        target=row.links[0].target if row.links else None,
                    )
        rate = collision_rate(idx.rows)
        if len(idx.rows) > 1 and rate > th.collision_rate:
            ctx.add(
                "keywords.collision",
                path,
                f"collision rate {rate:.0%}: that share of its keywords fire on two or more rows "
                f"(ADR-017 abort criterion: over {th.collision_rate:.0%})",
                line=idx.header_line or 1,
            )
    _cross_index(ctx)


def _cross_index(ctx: Context) -> None:
    """Pairs of rows in different domain indexes sharing most of the smaller row's keywords."""
    store, limit = ctx.store, ctx.config.thresholds.collision_row
    rows: list[tuple[str, IndexRow]] = [
        (path, row) for path, idx in store.domain_indexes.items() for row in idx.rows if row.keyword_set
    ]
    postings: dict[str, list[int]] = defaultdict(list)
    for i, (_, row) in enumerate(rows):
        for k in row.keyword_set:
            postings[k].append(i)
    for i, (path, row) in enumerate(rows):
        shared: dict[int, int] = defaultdict(int)
        for k in row.keyword_set:
            plist = postings[k]
            if len(plist) > 400:  # a keyword on hundreds of rows says nothing about a pair
                continue
            for j in plist:
                if j > i and rows[j][0] != path:
                    shared[j] += 1
        for j, n in shared.items():
            other_path, other = rows[j]
            smaller = min(len(row.keyword_set), len(other.keyword_set))
            if n >= 2 and n / smaller >= limit:
                ctx.add(
                    "keywords.collision",
                    path,
                    f"shares {n} of {smaller} keywords ({n / smaller:.0%}) with {other_path}:{other.line}",
                    line=row.line,
                    target=other_path,
                )
