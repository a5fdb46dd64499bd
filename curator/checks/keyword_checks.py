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
    for path, idx in sorted(store.domain_indexes.items()):
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
                f"collision rate {rate:.0%} within this index: that share of its keywords fire on two or more of its rows "
                f"(ADR-017 abort criterion: over {th.collision_rate:.0%})",
                line=idx.header_line or 1,
            )
    _cross_index(ctx)


def _cross_index(ctx: Context) -> None:
    """Pairs of rows in different domain indexes sharing most of the smaller row's keywords.

    Not a collision: two rows listing the same file (the file is in two indexes on purpose,
    whichever row fires loads it), rows of an index of indexes (they route to indexes, which
    is what a second-level router's rows look like) and rows of `*-observations` sidecars."""
    store, limit = ctx.store, ctx.config.thresholds.collision_row
    rows = collision_rows(store)
    for a, b, n in collision_pairs(rows, limit):
        (path, row), (other_path, other) = rows[a], rows[b]
        m = min(len(row.keyword_set), len(other.keyword_set))
        ctx.add(
            "keywords.collision",
            path,
            f"shares {n} keywords with {other_path}:{other.line}, a row of another index: {n / m:.0%} "
            f"of the smaller row's {m}",
            line=row.line,
            target=other_path,
        )


def collision_rows(store) -> list[tuple[str, IndexRow]]:
    """Rows that can collide: in a domain index, with keywords, routing to at least one memory."""
    out = []
    for path, idx in sorted(store.domain_indexes.items()):
        for row in idx.rows:
            if not row.keyword_set:
                continue
            recs = [store.records.get(lk.target) for lk in row.links]
            if recs and all(r is not None and r.level < 2 for r in recs):
                continue  # a row of an index of indexes
            if row.links and all(lk.target.removesuffix(".md").endswith("-observations") for lk in row.links):
                continue  # an observations sidecar shares its topic's words by design
            out.append((path, row))
    return out


def collision_pairs(rows: list[tuple[str, IndexRow]], limit: float, method: str | None = None,
                    max_rows: int | None = None):
    """(a, b, shared) for rows of different indexes sharing ≥ `limit` of the smaller row's
    keywords and no target.

    A keyword on more than `max_rows` rows (MAX_ROWS_PER_KEYWORD) says nothing about one pair
    and is not counted as shared — by both methods, so answers do not depend on store size:
    prefix filtering (small stores) and counting pairs per keyword with numpy (large ones) give
    the same pairs; `method` forces one (the tests run both)."""
    if len(rows) < 2:
        return []
    cap = MAX_ROWS_PER_KEYWORD if max_rows is None else max_rows
    postings: dict[str, list[int]] = defaultdict(list)
    for i, (_, row) in enumerate(rows):
        for k in row.keyword_set:
            postings[k].append(i)
    method = method or ("prefix" if len(rows) <= PREFIX_UP_TO else "count")
    if method == "prefix":
        candidates = _prefix_pairs(rows, postings, limit, cap)
    else:
        candidates = shared_counts(postings.values(), len(rows), cap, min_shared=2)
    out = []
    for a, b, n in candidates:
        (path, row), (other_path, other) = rows[a], rows[b]
        if path == other_path or n < 2:
            continue
        m = min(len(row.keyword_set), len(other.keyword_set))
        if n < limit * m - 1e-9:
            continue
        if {lk.target for lk in row.links} & {lk.target for lk in other.links}:
            continue  # the same file listed in two indexes
        out.append((a, b, n))
    return sorted(out)


MAX_ROWS_PER_KEYWORD = 150  # a keyword on more rows than this says nothing about one pair
PREFIX_UP_TO = 3000  # rows; above this, counting pairs per keyword with numpy is faster


def _prefix_pairs(rows, postings, limit, cap):
    """Candidate pairs by prefix filtering (set-similarity joins): with the countable keywords
    (on ≤ `cap` rows) ordered rarest first, a pair sharing ≥ need = ceil(limit·m) of them, m the
    smaller row's size, shares one of that row's first m' − need + 1 (m' its countable ones).
    Yields (a, b, shared countable keywords) with a < b."""
    freq = {k: len(v) for k, v in postings.items()}
    common = frozenset(k for k, n in freq.items() if n > cap)
    sizes = [len(row.keyword_set) for _, row in rows]
    for i, (_, row) in enumerate(rows):
        m = sizes[i]
        kws = row.keyword_set - common if common else row.keyword_set
        need = max(2, math.ceil(limit * m - 1e-9))
        if len(kws) < need:
            continue
        seen: set[int] = set()
        for k in sorted(kws, key=lambda k: (freq[k], k))[: len(kws) - need + 1]:
            for j in postings[k]:
                # i is the smaller row of the pair (ties: the lower position probes)
                if j == i or j in seen or sizes[j] < m or (sizes[j] == m and j < i):
                    continue
                seen.add(j)
                n = len(kws & rows[j][1].keyword_set)
                if n >= need:
                    yield (min(i, j), max(i, j), n)
