"""duplicate.topic: two memories on the same topic with little shared text (`…_BEST_PRACTICES`
beside `…_CONSOLIDATED_BEST_PRACTICES`), found by meaning when the semantic source is there.

Pairs whose embeddings (the retrieval source's encoder, cached by content) are at least
`THRESHOLD` alike, beside the textual `duplicate.near` (a pair it reports is not repeated).
The threshold is fitted leave-one-store-out on the corpus (`python -m curator.bench.topical`).
Without the semantic source the check is silent."""

from __future__ import annotations

from .context import Context

THRESHOLD = 0.88  # cosine; fitted (F0.5) leaving one corpus store out: 0.875–0.88 on every fold
MIN_WORDS = 30  # shorter bodies (stubs, empty files) embed alike whatever they say
BLOCK = 512  # rows of the similarity matrix at a time (a 10k store never holds n × n)


_provider = None  # set by the layer that owns the semantic source (checks sit below retrieval)


def provide_embedder(provider) -> None:
    """`provider()` → the semantic source's `embed_records(store, records)` or None (off)."""
    global _provider
    _provider = provider


def embedder():
    """The semantic source's `embed_records(store, records)`, or None without it."""
    return _provider() if _provider is not None else None


def candidates(store) -> list:
    from ..model.tiering import is_log

    return [r for r in store.memories() if r.kind in ("memory", "experience") and r.readable
            and not is_log(store.config, r) and len(r.body().split()) >= MIN_WORDS]


def topical_pairs(store, threshold: float = THRESHOLD) -> list[tuple[str, str, float]]:
    """(path, path, cosine) of every pair at or above `threshold`; [] without the source."""
    embed = embedder()
    recs = candidates(store)
    if embed is None or len(recs) < 2:
        return []
    matrix = embed(store, recs)
    if matrix is None:
        return []
    out = []
    for start in range(0, len(recs), BLOCK):
        sims = matrix[start : start + BLOCK] @ matrix.T
        for i, j in zip(*(sims >= threshold).nonzero(), strict=True):
            a, b = start + int(i), int(j)
            if a < b:
                out.append((recs[a].path, recs[b].path, float(sims[i, j])))
    return out


def run(ctx: Context) -> None:
    if ctx.paths is not None:
        return  # judged on a full run (a re-check of one memory does not embed the store)
    textual = {frozenset((f.path, f.target)) for f in ctx.findings if f.check == "duplicate.near"}
    for a, b, cos in topical_pairs(ctx.store):
        if frozenset((a, b)) in textual or a.rsplit("/", 1)[-1] == b.rsplit("/", 1)[-1]:
            continue  # said already, or an experience entry and its summary twin
        ctx.add("duplicate.topic", b, f"same topic as {a} (meaning {cos:.2f} alike, little shared text): "
                "merge them into one memory, or say in each what the other does not", target=a)
