"""duplicate.near: memories that say the same thing twice.

8-word shingles; a pair is near-duplicate at Jaccard ≥ 0.5 or containment ≥ 0.8, and exact
after normalising. Candidates come from an inverted index of *sampled* shingles (those whose
first word hashes to 0 mod 8 — content-defined, so equal text samples equally), which keeps a
10,000-file store fast; every candidate pair is then verified on its full shingle sets.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Protocol

from ..model.tiering import is_log
from .context import Context
from .facts import content_body, facts_for, shingle_prints, words_of
from .pairs import shared_counts

MAX_POSTING = 40


def _same(first: str) -> str:
    """What an exact copy is, as `facts.content_body` compares: never "same text" for two files
    whose Related lists differ, without saying that those are set aside."""
    return f"same text as {first}, apart from case, spacing and its Related/References/tags sections"


def _both_logs(config, a, b) -> bool:
    """Two session logs (transient records, or the dated logs of a store without tiers) alike is
    no finding: a hook writes them from one template, and they are pruned or kept, never merged."""
    return is_log(config, a) and is_log(config, b)


def run(ctx: Context) -> None:
    th = ctx.config.thresholds
    n = th.shingle
    all_facts = facts_for(ctx)
    docs = [r for r in ctx.store.memories() if r.kind in ("memory", "experience")]
    exact: dict[bytes, str] = {}
    reported: set[tuple[str, str]] = set()
    owners: list[int] = []
    prints: list[Sequence[int]] = []
    for i, r in enumerate(docs):
        facts = all_facts[r.path]
        if not facts.words:
            continue
        if facts.exact in exact:
            first = exact[facts.exact]
            reported.add((first, r.path))
            if _both_logs(ctx.config, ctx.store.records[first], r):
                continue
            ctx.add("duplicate.near", r.path, _same(first), target=first)
            continue
        exact[facts.exact] = r.path
        if facts.words >= n and facts.fingerprints:
            owners.append(i)
            prints.append(facts.fingerprints)
    # candidates: documents sharing a sampled shingle; verified on their full shingle sets
    candidates = shared_counts(_groups(owners, prints), len(docs), MAX_POSTING)
    full: dict[int, set[int]] = {}

    def shingles(i: int) -> set[int]:
        if i not in full:
            full[i] = shingle_prints(words_of(content_body(docs[i].body())), n, False)
        return full[i]

    for a, b, _shared in candidates:
        pa, pb = docs[a].path, docs[b].path
        if (pa, pb) in reported or (pb, pa) in reported or _both_logs(ctx.config, docs[a], docs[b]):
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


def _groups(owners: list[int], prints: list[Sequence[int]]):
    """Documents grouped by shared fingerprint. A dict for small stores; for large ones numpy
    sorts one flat array (a dict of ~700k fingerprints at 10k files costs ~1 s)."""
    if len(owners) <= 3000:
        groups: dict[int, list[int]] = {}
        for i, fps in zip(owners, prints, strict=True):
            for fp in fps:
                groups.setdefault(fp, []).append(i)
        return [g for g in groups.values() if len(g) > 1]
    import numpy as np

    h = np.fromiter((fp for fps in prints for fp in fps), dtype=np.int64)
    o = np.repeat(np.asarray(owners, dtype=np.int64), [len(fps) for fps in prints])
    order = np.argsort(h, kind="stable")
    h, o = h[order], o[order]
    starts = np.flatnonzero(np.r_[True, h[1:] != h[:-1]])
    lengths = np.diff(np.r_[starts, len(h)])
    keep = (lengths > 1) & (lengths <= MAX_POSTING)
    return [o[a : a + n].tolist() for a, n in zip(starts[keep].tolist(), lengths[keep].tolist(), strict=True)]


class FingerprintIndex(Protocol):
    """{fingerprint: the memories holding it}, as a re-check reads it."""

    def get(self, fp: int, default: tuple[()] = (), /) -> Collection[str]: ...


def near_duplicates_of(ctx: Context, path: str, fp_index: FingerprintIndex) -> None:
    """duplicate.near for one (edited) memory against the rest, through a fingerprint index
    {fingerprint: paths} kept by the caller, so a re-check does not rescan the store."""
    th = ctx.config.thresholds
    rec = ctx.store.records.get(path)
    if rec is None or not rec.readable or rec.level != 2:
        return
    facts = facts_for(ctx, [path])[path]
    if not facts.words:
        return
    # an exact copy is reported once, against the first copy by path, and compared no further
    for other in sorted(fp_index.get(facts.fingerprints[0], ()) if facts.fingerprints else ()):
        if other != path and facts_for(ctx, [other])[other].exact == facts.exact:
            if _both_logs(ctx.config, rec, ctx.store.records[other]):
                return
            first, second = sorted((path, other))
            ctx.add("duplicate.near", second, _same(first), target=first)
            return
    candidates: set[str] = set()
    for fp in facts.fingerprints:
        others = fp_index.get(fp, ())
        if len(others) < MAX_POSTING:
            candidates.update(others)
    candidates.discard(path)
    mine = shingle_prints(words_of(content_body(rec.body())), th.shingle, False)
    for other in sorted(candidates):
        orec = ctx.store.records.get(other)
        if orec is None or not orec.readable or _both_logs(ctx.config, rec, orec):
            continue
        theirs = shingle_prints(words_of(content_body(orec.body())), th.shingle, False)
        inter = len(mine & theirs)
        if not inter:
            continue
        jac = inter / len(mine | theirs)
        cont = inter / min(len(mine), len(theirs))
        first, second = sorted((path, other))
        if jac >= th.near_jaccard or cont >= th.near_containment:
            ctx.add("duplicate.near", second,
                    f"near-duplicate of {first} (Jaccard {jac:.2f}, containment {cont:.2f})", target=first)
