"""keywords.*: per-row uniqueness in strict indexes, too few keywords, collisions."""

from __future__ import annotations

import math
from collections import defaultdict

from ..model.indexes import IndexRow
from .context import Context
from .pairs import shared_counts


def row_uniqueness(row_keywords: frozenset[str], others: list[frozenset[str]]) -> float:
    """Share of a row's keywords used by no other row of its index (a lone row is 1.0)."""
    if not row_keywords:
        return 0.0
    used = set().union(*others) if others else set()
    return len(row_keywords - used) / len(row_keywords)


def _rows_per_keyword(rows: list[IndexRow]) -> dict[str, int]:
    """How many rows of an index use each keyword (a row's own keywords have 1): the same
    answer as `row_uniqueness` against every other row, in one pass instead of one per pair."""
    counts: dict[str, int] = defaultdict(int)
    for row in rows:
        for k in row.keyword_set:
            counts[k] += 1
    return counts


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
        strict = ctx.config.is_strict_index(idx.name)
        rows_with = _rows_per_keyword(idx.rows) if strict else {}  # linear: one pass, then a lookup per keyword
        for row in idx.rows:
            if len(row.keyword_set) < th.min_keywords:
                ctx.add(
                    "keywords.too-few",
                    path,
                    f"row has {len(row.keyword_set)} keyword(s); at least {th.min_keywords} (ADR-017 recommends 10–15)",
                    line=row.line,
                    target=row.links[0].target if row.links else None,
                )
            if strict and row.keyword_set:
                u = sum(1 for k in row.keyword_set if rows_with[k] == 1) / len(row.keyword_set)
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


MAX_ROWS_PER_KEYWORD = 150  # a keyword on more rows than this says nothing about one pair


def _cross_index(ctx: Context) -> None:
    """Pairs of rows in different domain indexes sharing most of the smaller row's keywords."""
    store, limit = ctx.store, ctx.config.thresholds.collision_row
    rows: list[tuple[str, IndexRow]] = [
        (path, row) for path, idx in store.domain_indexes.items() for row in idx.rows if row.keyword_set
    ]
    if len(rows) < 2:
        return
    postings: dict[str, list[int]] = defaultdict(list)
    for i, (_, row) in enumerate(rows):
        for k in row.keyword_set:
            postings[k].append(i)
    pairs = _prefix_pairs(rows, postings, limit) if len(rows) <= PREFIX_UP_TO else (
        (a, b, n) for a, b, n in shared_counts(postings.values(), len(rows), MAX_ROWS_PER_KEYWORD, min_shared=2)
    )
    for a, b, n in pairs:
        (path, row), (other_path, other) = rows[a], rows[b]
        if path == other_path or n < 2:
            continue
        m = min(len(row.keyword_set), len(other.keyword_set))
        if n >= limit * m - 1e-9:
            ctx.add(
                "keywords.collision",
                path,
                f"shares {n} of {m} keywords ({n / m:.0%}) with {other_path}:{other.line}",
                line=row.line,
                target=other_path,
            )


PREFIX_UP_TO = 3000  # rows; above this, counting every pair with numpy is faster


def _prefix_pairs(rows, postings, limit):
    """Candidate pairs by prefix filtering (set-similarity joins): with keywords ordered rarest
    first, a pair sharing ≥ ceil(limit·m) of the smaller row's m keywords shares one of that
    row's first m − ceil(limit·m) + 1. Yields (a, b, shared) with a < b."""
    freq = {k: len(v) for k, v in postings.items()}
    sizes = [len(row.keyword_set) for _, row in rows]
    for i, (_, row) in enumerate(rows):
        kws, m = row.keyword_set, sizes[i]
        need = max(2, math.ceil(limit * m - 1e-9))
        seen: set[int] = set()
        for k in sorted(kws, key=lambda k: (freq[k], k))[: max(0, m - need + 1)]:
            plist = postings[k]
            if len(plist) > MAX_ROWS_PER_KEYWORD:
                continue
            for j in plist:
                # i is the smaller row of the pair (ties: the lower position probes)
                if j == i or j in seen or sizes[j] < m or (sizes[j] == m and j < i):
                    continue
                seen.add(j)
                n = len(kws & rows[j][1].keyword_set)
                if n >= need:
                    yield (min(i, j), max(i, j), n)
