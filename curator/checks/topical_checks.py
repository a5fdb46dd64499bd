"""duplicate.topic: two memories on the same topic with little shared text (`…_BEST_PRACTICES`
beside `…_CONSOLIDATED_BEST_PRACTICES`), found by meaning when the semantic source is on.

Each memory's opening (its name and first 126 word pieces: what it says it is about) as a static
vector distilled from the retrieval source's model (retrieval/static.py: no model run, so a cold
check pays for meaning what it pays for words), in the store's IDF, centred on the store's mean;
pairs at least `THRESHOLD` alike, beside the textual `duplicate.near` (a pair it reports is not
repeated), unless their names make them two records (`topic_records`: two days' records, two
incidents of an experience log, two numbered items of a series). The threshold is fitted leave-one-store-out on the corpus over a maintainer's reading
of the pairs (`python -m curator.bench.topical`). Without the semantic source the check is silent.

A re-check of one edited memory compares it with the rest (`TopicIndex`, kept by the workspace:
the store's IDF and centre as the last full run made them), never every pair again."""

from __future__ import annotations

from .context import Context
from .topic_records import distinct_records

THRESHOLD = 0.745  # cosine of the static openings; fitted (F0.5) on the corpus's read pairs (bench/topical.py)
MIN_WORDS = 30  # shorter bodies (stubs, empty files) embed alike whatever they say
BLOCK = 128  # rows of the similarity matrix at a time: a 10k store holds 128 × n floats (5 MB), never n × n
CHECK = "duplicate.topic"


def embedder(store):
    """The vectors the face handed in with the store (`LoadOptions.meaning`: `meaning()` → a
    function (store, records) → vectors, a matrix of unit rows or an object with `.matrix` and
    `.vector(text)`), or None without the semantic source."""
    meaning = store.meaning
    return meaning() if meaning is not None else None


def candidates(store, counts=None) -> list:
    """The memories compared; `counts` (a `base.cache.ContentCache`, the checks' facts cache)
    keeps each body's word count by content, so a later run of the same texts reads none."""
    return [r for r in store.memories() if _candidate(store, r, counts)]


def _candidate(store, r, counts=None) -> bool:
    from ..model.tiering import is_log

    return (r.kind in ("memory", "experience") and r.readable and r.level == 2 and not is_log(store.config, r)
            and _long_enough(r, counts))


def _long_enough(r, counts=None) -> bool:
    key = r.content_hash
    if counts is None or not key:
        return len(r.body().split()) >= MIN_WORDS
    return counts.get(f"topic.words\0{key}", lambda: len(r.body().split())) >= MIN_WORDS


def _embed(store, recs):
    embed = embedder(store)
    if embed is None or not recs:
        return None
    return embed(store, recs)


def topical_pairs(store, threshold: float = THRESHOLD, counts=None) -> list[tuple[str, str, float]]:
    """(path, path, cosine) of every pair at or above `threshold`; [] without the source."""
    if embedder(store) is None:  # before reading every body: without vectors there is nothing to compare
        return []
    recs = candidates(store, counts)
    space = _embed(store, recs) if len(recs) >= 2 else None
    if space is None:
        return []
    matrix = getattr(space, "matrix", space)
    out = []
    for start in range(0, len(recs), BLOCK):
        sims = matrix[start : start + BLOCK] @ matrix[start:].T  # each pair once: half the products
        for i, j in zip(*(sims >= threshold).nonzero(), strict=True):
            a, b = start + int(i), start + int(j)
            if a < b:
                out.append((recs[a].path, recs[b].path, float(sims[i, j])))
        del sims  # before the next block is made, not after
    return out


def _said(ctx: Context) -> set[frozenset]:
    return {frozenset((f.path, f.target)) for f in ctx.findings if f.check == "duplicate.near"}


def _report(ctx: Context, pairs, textual: set[frozenset]) -> None:
    records = ctx.store.records
    for a, b, cos in pairs:
        if frozenset((a, b)) in textual or a.rsplit("/", 1)[-1] == b.rsplit("/", 1)[-1]:
            continue  # said already, or an experience entry and its summary twin
        if distinct_records(records[a], records[b]):
            continue  # alike in meaning, but two records by their names (topic_records.py)
        ctx.add(CHECK, b, f"same topic as {a} (meaning {cos:.2f} alike, little shared text): "
                "merge them into one memory, or say in each what the other does not", target=a)


def run(ctx: Context) -> None:
    if ctx.paths is not None:
        return  # a re-check of some files goes through TopicIndex (the workspace keeps one)
    _report(ctx, topical_pairs(ctx.store, counts=ctx.facts_cache), _said(ctx))


class TopicIndex:
    """Every candidate memory's vector in the space of the last full run, by path: what an edited
    memory is compared with. Built on the first re-check, handed from workspace to workspace."""

    def __init__(self, paths: list[str], matrix, space, counts=None) -> None:
        self.paths, self.matrix, self.space, self.counts = paths, matrix, space, counts
        self.row = {p: i for i, p in enumerate(paths)}

    @classmethod
    def build(cls, store, counts=None) -> TopicIndex | None:
        """`counts`: the word-count cache of whoever runs the checks (the workspace's facts cache)."""
        if embedder(store) is None:  # off: a re-check must not read every body to learn it
            return None
        recs = candidates(store, counts)
        space = _embed(store, recs)
        if space is None or not hasattr(space, "vector"):
            return None
        return cls([r.path for r in recs], space.matrix.copy(), space, counts)

    def replace(self, store, path: str) -> None:
        """The memory at `path` as it is now: its new vector, or out of the index (gone, or no
        longer a candidate). A new memory is placed in the last full run's space."""
        np = self.space.table.np
        rec = store.records.get(path)
        i = self.row.get(path)
        if rec is None or not _candidate(store, rec, self.counts):
            if i is not None:
                self.matrix = np.delete(self.matrix, i, axis=0)
                del self.paths[i]
                self.row = {p: k for k, p in enumerate(self.paths)}
            return
        vector = self.space.vector_of(rec)
        if i is None:
            self.matrix = np.vstack([self.matrix, vector[None, :]])
            self.row[path] = len(self.paths)
            self.paths.append(path)
        else:
            self.matrix[i] = vector

    def pairs_of(self, path: str, threshold: float = THRESHOLD) -> list[tuple[str, str, float]]:
        i = self.row.get(path)
        if i is None:
            return []
        sims = self.matrix @ self.matrix[i]
        out = []
        for j in (sims >= threshold).nonzero()[0].tolist():
            if j != i:
                a, b = sorted((path, self.paths[j]))
                out.append((a, b, float(sims[j])))
        return out


def recheck(ctx: Context, index: TopicIndex, paths) -> None:
    """duplicate.topic of the edited memories against the rest (ctx: the whole new snapshot)."""
    textual = _said(ctx)
    seen = set()
    for p in paths:
        for a, b, cos in index.pairs_of(p):
            if (a, b) not in seen:
                seen.add((a, b))
                _report(ctx, [(a, b, cos)], textual)
