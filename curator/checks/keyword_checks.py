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


MAX_ROWS_PER_KEYWORD = 150  # a keyword on more rows than this says nothing about one pair


def _cross_index(ctx: Context) -> None:
    """Pairs of rows in different domain indexes sharing most of the smaller row's keywords.

    Overlaps are counted for every pair that shares a keyword at once, with numpy: each keyword
    contributes all pairs of its rows; equal pair codes are then counted by sorting. Keywords on
    very many rows say nothing about a pair and are skipped.
    """
    import numpy as np

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
    lists = [plist for plist in postings.values() if 1 < len(plist) <= MAX_ROWS_PER_KEYWORD]
    total = sum(len(p) * (len(p) - 1) // 2 for p in lists)
    if not total:
        return
    n_rows = len(rows)
    codes = np.empty(total, dtype=np.int64)  # one preallocated array: pair code = i·n + j
    at = 0
    for plist in lists:
        arr = np.asarray(plist, dtype=np.int64)
        i, j = np.triu_indices(len(arr), 1)
        codes[at : at + len(i)] = arr[i] * n_rows + arr[j]
        at += len(i)
    pair_codes, shared = np.unique(codes, return_counts=True)
    del codes
    a, b = pair_codes // n_rows, pair_codes % n_rows
    sizes = np.asarray([len(row.keyword_set) for _, row in rows])
    index_of = {path: k for k, path in enumerate(store.domain_indexes)}
    owner = np.asarray([index_of[path] for path, _ in rows])
    smaller = np.minimum(sizes[a], sizes[b])
    hit = (shared >= 2) & (shared >= limit * smaller - 1e-9) & (owner[a] != owner[b])
    for x, y, n, m in zip(a[hit].tolist(), b[hit].tolist(), shared[hit].tolist(), smaller[hit].tolist(), strict=True):
        (path, row), (other_path, other) = rows[x], rows[y]
        ctx.add(
            "keywords.collision",
            path,
            f"shares {n} of {m} keywords ({n / m:.0%}) with {other_path}:{other.line}",
            line=row.line,
            target=other_path,
        )
