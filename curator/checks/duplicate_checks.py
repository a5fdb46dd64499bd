"""duplicate.near: memories that say the same thing twice.

8-word shingles; a pair is near-duplicate at Jaccard ≥ 0.5 or containment ≥ 0.8, and exact
after normalising. Candidates come from an inverted index of *sampled* shingles (those whose
first word hashes to 0 mod 8 — content-defined, so equal text samples equally), which keeps a
10,000-file store fast; every candidate pair is then verified on its full shingle sets.
"""

from __future__ import annotations

from .context import Context
from .facts import facts_for, shingle_prints, words_of

MAX_POSTING = 40

def run(ctx: Context) -> None:
    import numpy as np

    th = ctx.config.thresholds
    n = th.shingle
    all_facts = facts_for(ctx)
    docs = [r for r in ctx.store.memories() if r.kind in ("memory", "experience")]
    exact: dict[bytes, str] = {}
    reported: set[tuple[str, str]] = set()
    prints: list[np.ndarray] = []
    owners: list[np.ndarray] = []
    for i, r in enumerate(docs):
        facts = all_facts[r.path]
        if not facts.words:
            continue
        if facts.exact in exact:
            first = exact[facts.exact]
            reported.add((first, r.path))
            ctx.add("duplicate.near", r.path, f"same text as {first} (after normalising)", target=first)
            continue
        exact[facts.exact] = r.path
        if facts.words >= n and facts.fingerprints:
            prints.append(np.asarray(facts.fingerprints, dtype=np.int64))
            owners.append(np.full(len(facts.fingerprints), i, dtype=np.int32))
    if not prints:
        return
    # Candidate pairs: documents sharing a sampled shingle, found by sorting flat arrays.
    h, o = np.concatenate(prints), np.concatenate(owners)
    order = np.argsort(h, kind="stable")
    h, o = h[order], o[order]
    starts = np.flatnonzero(np.r_[True, h[1:] != h[:-1]])
    lengths = np.diff(np.r_[starts, len(h)])
    keep = (lengths > 1) & (lengths <= MAX_POSTING)
    pairs: set[tuple[int, int]] = set()
    for start, length in zip(starts[keep].tolist(), lengths[keep].tolist(), strict=True):
        members = sorted(set(o[start : start + length].tolist()))
        for a in range(len(members)):
            for b in range(a + 1, len(members)):
                pairs.add((members[a], members[b]))
    full: dict[int, set[int]] = {}

    def shingles(i: int) -> set[int]:
        if i not in full:
            full[i] = shingle_prints(words_of(docs[i].body()), n, False)
        return full[i]

    for a, b in sorted(pairs):
        pa, pb = docs[a].path, docs[b].path
        if (pa, pb) in reported or (pb, pa) in reported:
            continue
        sa, sb = shingles(a), shingles(b)
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
