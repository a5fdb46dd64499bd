"""Pairs of items that share keys, with how many keys each pair shares.

Both the cross-index keyword collision check and near-duplicate detection reduce to this. Small
inputs are counted in plain Python (no numpy import, which alone costs ~80 ms of a 1,000-file
run); large ones with numpy, sorting pair codes instead of filling a dict of millions of pairs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import combinations

NUMPY_FROM = 50_000  # pairs; below this plain Python beats importing numpy (~80 ms)


def shared_counts(
    groups: Iterable[list[int]], n_items: int, max_group: int, min_shared: int = 1
) -> list[tuple[int, int, int]]:
    """(a, b, shared) for a < b sharing at least `min_shared` keys, from groups of item ids that
    share one key each. Groups larger than `max_group` are skipped (a key on that many items
    says nothing about a pair)."""
    usable = [sorted(set(g)) for g in groups if 1 < len(g) <= max_group]
    usable = [g for g in usable if len(g) > 1]
    total = sum(len(g) * (len(g) - 1) // 2 for g in usable)
    if not total:
        return []
    if total < NUMPY_FROM:
        counts: Counter = Counter()
        for g in usable:
            counts.update(combinations(g, 2))
        return [(a, b, n) for (a, b), n in sorted(counts.items()) if n >= min_shared]
    import numpy as np

    codes = np.empty(total, dtype=np.int64)  # one preallocated array: pair code = a·n + b
    at = 0
    tri: dict[int, tuple] = {}
    for g in usable:
        arr = np.asarray(g, dtype=np.int64)
        k = len(arr)
        if k not in tri:
            tri[k] = np.triu_indices(k, 1)
        i, j = tri[k]
        codes[at : at + len(i)] = arr[i] * n_items + arr[j]
        at += len(i)
    pair_codes, shared = np.unique(codes, return_counts=True)
    keep = shared >= min_shared
    pair_codes, shared = pair_codes[keep], shared[keep]
    return list(zip((pair_codes // n_items).tolist(), (pair_codes % n_items).tolist(), shared.tolist(), strict=True))
