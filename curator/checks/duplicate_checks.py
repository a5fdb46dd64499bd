"""duplicate.near: memories that say the same thing twice.

8-word shingles; a pair is near-duplicate at Jaccard ≥ 0.5 or containment ≥ 0.8, and exact
after normalising. Candidates come from an inverted index of *sampled* shingles (those whose
first word hashes to 0 mod 4 — content-defined, so equal text samples equally), which keeps a
10,000-file store fast; every candidate pair is then verified on its full shingle sets.
"""

from __future__ import annotations

import re
import zlib
from collections import defaultdict

from .context import Context

NORMAL = re.compile(r"[^a-z0-9]+")
SAMPLE_MOD = 4
MAX_POSTING = 40


def _words(text: str) -> list[str]:
    return NORMAL.sub(" ", text.lower()).split()


def _shingles(words: list[str], n: int, sampled: bool) -> set[int]:
    if len(words) < n:
        return {hash(tuple(words))} if words else set()
    if sampled:
        return {
            hash(tuple(words[i : i + n]))
            for i in range(len(words) - n + 1)
            if zlib.crc32(words[i].encode()) % SAMPLE_MOD == 0
        }
    return {hash(tuple(words[i : i + n])) for i in range(len(words) - n + 1)}


def run(ctx: Context) -> None:
    th = ctx.config.thresholds
    n = th.shingle
    docs = [r for r in ctx.store.memories() if r.kind in ("memory", "experience")]
    words = {r.path: _words(r.body()) for r in docs}
    exact: dict[int, str] = {}
    reported: set[tuple[str, str]] = set()
    for r in docs:
        w = words[r.path]
        if not w:
            continue
        key = hash(" ".join(w))
        if key in exact:
            reported.add((exact[key], r.path))
            ctx.add("duplicate.near", r.path, f"same text as {exact[key]} (after normalising)", target=exact[key])
        else:
            exact[key] = r.path
    # candidate pairs from sampled shingles
    crc_cache: dict[str, bool] = {}
    postings: dict[int, list[int]] = defaultdict(list)
    paths = [r.path for r in docs]
    for i, p in enumerate(paths):
        w = words[p]
        if len(w) < n:
            continue
        keep = []
        for j in range(len(w) - n + 1):
            first = w[j]
            ok = crc_cache.get(first)
            if ok is None:
                ok = crc_cache[first] = zlib.crc32(first.encode()) % SAMPLE_MOD == 0
            if ok:
                keep.append(hash(tuple(w[j : j + n])))
        for h in set(keep):
            postings[h].append(i)
    shared: dict[tuple[int, int], int] = defaultdict(int)
    for plist in postings.values():
        if 1 < len(plist) <= MAX_POSTING:
            for a in range(len(plist)):
                for b in range(a + 1, len(plist)):
                    shared[(plist[a], plist[b])] += 1
    full: dict[str, set[int]] = {}
    for (a, b), _count in shared.items():
        pa, pb = paths[a], paths[b]
        if (pa, pb) in reported or (pb, pa) in reported:
            continue
        sa = full.get(pa) or full.setdefault(pa, _shingles(words[pa], n, False))
        sb = full.get(pb) or full.setdefault(pb, _shingles(words[pb], n, False))
        inter = len(sa & sb)
        if not inter:
            continue
        jac = inter / len(sa | sb)
        cont = inter / min(len(sa), len(sb))
        if jac >= th.near_jaccard or cont >= th.near_containment:
            ctx.add(
                "duplicate.near",
                pb,
                f"near-duplicate of {pa} (Jaccard {jac:.2f}, containment {cont:.2f})",
                target=pa,
            )
