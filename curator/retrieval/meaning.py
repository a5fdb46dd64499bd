"""The semantic source: the sentence model reads the memories that words or static vectors say may
answer, each by its head and by the passages the query reaches.

1. Candidates: BM25's first CANDIDATES memories (with their best passages, passage_rank) and the
   static vectors' first CANDIDATES (static.py: every memory, no model run). Held out on the 21
   golden stores, the memory the query wants is among them for 99.5% of the queries; ranking only
   them is also better than ranking every memory (the model's near misses are left out).
2. Each candidate is read by the model as its head (name, title, description, index keywords and
   the start of its body: one vector, as the source always had) and as its PASSAGES passages the
   query's words reach best (else its first ones) — the model sees the memory, not its first lines.
3. A candidate scores the mean of its head's cosine and its best passage's: a memory whose one
   section answers rises, a long one is not favoured for having many passages (the best of many
   is high by chance; the head keeps it honest).
4. The heads are read first. A candidate only the static vectors brought (not among BM25's
   first) whose head the model reads FAR_BELOW under the best head is scored by its head alone:
   its passages are not read. Held out over the 21 golden stores this ranks every query's fused
   list as before (semantic alone a little better) and reads a fifth fewer texts (golden README).

Vectors are cached by content (the head by memory, a passage by its text), so the model runs only
for memories and passages it has not read: the first query on a 1,000-memory store reads about
80 texts, not 1,000 memories' worth; onnxruntime is imported only when a vector must be computed
(one query's own vector is made with numpy, on a thread while its words are scored: `begin`).
`progress(done, total)` hears how that goes.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

CANDIDATES = 20
PASSAGES = 2
FAR_BELOW = 0.1  # cosine under the best head: a static-only candidate's passages are not read
STATIC_CHUNK = 256  # memories whose static vectors are made together (meaning.static_matrix)


@dataclass(frozen=True, slots=True)
class Match:
    """Why the model placed a memory where it did: its head's cosine and its best passage's."""

    head: float
    passage: float
    heading: str  # the best passage's heading path ("" before the first heading)
    line: int
    excerpt: str
    read: bool = True  # False: scored by its head alone, its passages not read (FAR_BELOW)

    @property
    def score(self) -> float:
        return (self.head + self.passage) / 2


class Meaning:
    def __init__(self, engine, encoder, table, progress=None) -> None:
        from .semantic import EmbeddingCache
        from .static import DIM, SHA256

        self.engine, self.encoder, self.table, self.progress = engine, encoder, table, progress
        root = engine.store.root
        self.head_cache = EmbeddingCache.open(root, encoder.digest, rows=True)
        self.passage_cache = EmbeddingCache.open(root, f"{encoder.digest}-passages", rows=True)
        self.static_cache = EmbeddingCache.open(root, f"static-{SHA256[next(iter(SHA256))][:12]}", DIM)
        self._static = None
        self._static_lock = threading.Lock()
        self.embedded = 0  # texts the model read for this engine (0 when everything was cached)
        self.matches: dict[str, Match] = {}  # of the last query
        self._last_plan: tuple | None = None  # (query, its plan): `_plan`
        self._last_query: tuple | None = None  # (query, its vector): `_query_vector`
        self._pending: tuple | None = None  # (query, the future of its vector, its thread): `begin`

    # -- the static vectors of every memory ---------------------------------------------------

    def static_matrix(self):
        """Every memory's static vector (the plain table weights: a memory's vector is its own,
        whatever the store holds, so it is cached by content)."""
        with self._static_lock:  # built once: a search that starts while `prepare` builds it waits for it
            if self._static is None:
                self._static = self._static_build()
        return self._static

    def _static_build(self):
        np = self.table.np
        keys = self.engine.semantic_keys()
        matrix = self.static_cache.matrix_for(keys)
        if matrix is not None:
            return matrix
        from .static import DIM

        missing = [i for i, k in enumerate(keys) if k not in self.static_cache.vectors]
        ones = np.ones(self.table.vocab, dtype=np.float32)
        # a few hundred texts at a time: every bag alive at once (10,000 memories' piece ids and
        # counts as Python objects) took ~190 MB, held by the allocator after
        for start in range(0, len(missing), STATIC_CHUNK):
            part = missing[start:start + STATIC_CHUNK]
            bags = [self.table.bag(t) for t in self.engine.semantic_texts(part)]
            self.static_cache.put([keys[i] for i in part], self.table.embed(bags, ones))
        matrix = (np.stack([self.static_cache.vectors[k] for k in keys]) if keys
                  else np.zeros((0, DIM), dtype=np.float32))
        self.static_cache.dirty = True  # saved in this order: the next process maps it as is
        self.static_cache.flush(keys, matrix)
        self.static_cache.vectors = {}  # each row is in the matrix now (~12 MB at 10,000 memories)
        return matrix

    # -- one query ----------------------------------------------------------------------------

    def candidates(self, query: str, bm25_list: list[tuple[str, float]]) -> list[int]:
        np = self.table.np
        eng = self.engine
        first = [eng.position[p] for p, _ in bm25_list[:CANDIDATES] if p in eng.position]
        matrix = self.static_matrix()
        if len(matrix):
            ones = np.ones(self.table.vocab, dtype=np.float32)
            q = self.table.embed([self.table.bag(query)], ones)[0]
            sims = np.asarray(matrix @ q)
            k = min(CANDIDATES, len(sims))
            top = np.argpartition(-sims, k - 1)[:k]
            first += sorted(top.tolist(), key=lambda i: (-float(sims[i]), i))
        return list(dict.fromkeys(first))

    def rank(self, query: str, qterms: list[str], bm25_list: list[tuple[str, float]]) -> list[tuple[str, float]]:
        """(path, score) of the candidates, best first; `self.matches` says why."""
        eng = self.engine
        self.matches = {}
        if not eng.docs or not query.strip():
            return []
        cand, keys, rows, picks = self._plan(query, qterms, bm25_list)
        heads, passages = self._missing(cand, keys, rows, picks)
        pending = len(heads) + sum(len(want) for _, want in passages)
        # heads, then passages: one session (the app: one reader process) for both reads
        with self.encoder.holding():
            self._embed_missing(cand, keys, rows, {i: [] for i in cand}, pending)  # the heads first
            qv = self._query_vector(query)
            cos = self._head_cosines(cand, keys, qv)  # each head read once (a row of the cache file each)
            kept = self._pruned(cand, keys, picks, bm25_list, qv, cos)
            skipped = {i for i in cand if picks[i] and not kept[i]}
            picks = kept
            self._embed_missing(cand, keys, rows, picks, offset=len(heads))
        out = []
        for i in cand:
            path = eng.docs[i].path
            head = cos[i]
            best, at = -1.0, None
            for k in picks[i]:
                row = rows[path][k]
                vec = self.passage_cache.vectors.get(row[3])
                c = float(vec @ qv) if vec is not None else -1.0
                if c > best:
                    best, at = c, row
            if at is not None:
                m = Match(head, best, at[0], at[1], at[2])
            else:  # skipped (FAR_BELOW), or no passage vector to compare: the head alone
                m = Match(head, head, "", 1, "", read=i not in skipped)
            self.matches[path] = m
            out.append((path, m.score))
        out.sort(key=lambda x: (-x[1], eng.position[x[0]]))
        return out

    def _plan(self, query: str, qterms: list[str], bm25_list: list[tuple[str, float]]):
        """(candidates, every memory's key, the candidates' passage rows, the passages read of each)."""
        from .passage_rank import chosen, idf_of, row_length

        key = (query, tuple(qterms), tuple(bm25_list[:CANDIDATES]))
        last = self._last_plan  # `unread` then `rank` of one query plan it once (one tuple: thread-safe)
        if last is not None and last[0] == key:
            return last[1]
        eng = self.engine
        cand = self.candidates(query, bm25_list)
        rows = eng.rows_for([eng.docs[i].path for i in cand])
        idf = idf_of(eng.bm25, qterms)
        lengths = [row_length(r) for p in rows for r in rows[p]]
        avg = sum(lengths) / len(lengths) if lengths else 1.0
        plan = cand, eng.semantic_keys(), rows, {i: chosen(rows[eng.docs[i].path], qterms, idf, avg, PASSAGES) for i in cand}
        self._last_plan = (key, plan)
        return plan

    def unread(self, query: str, qterms: list[str], bm25_list: list[tuple[str, float]]) -> int:
        """How many texts (heads and passages) the model must read before `rank` can answer
        `query`: 0 when every vector is cached (the answer then takes milliseconds)."""
        if not self.engine.docs or not query.strip():
            return 0
        cand, keys, rows, picks = self._plan(query, qterms, bm25_list)
        heads, passages = self._missing(cand, keys, rows, picks)
        if not heads and passages:  # every head read: the passages `rank` would skip are not counted
            qv = self._query_vector(query)
            _, passages = self._missing(cand, keys, rows, self._pruned(cand, keys, picks, bm25_list, qv))
        return len(heads) + sum(len(want) for _, want in passages)

    def begin(self, query: str, wait: bool = True) -> None:
        """Start the query's vector on a thread of its own while the words are scored: the model
        run releases the GIL, so at 10,000 memories a query costs its longer half, not the sum.
        The thread ends with its vector (a load after it may still fork to count: model.loading).
        `wait=False` (the lab, as a person types): while an earlier vector is still being made,
        nothing is started — the caller, the UI thread, never waits for one."""
        pending = self._pending
        if not query.strip() or not self.engine.docs or query in ((self._last_query or ("",))[0],
                                                                  (pending or ("",))[0]):
            return  # made, or being made
        if not wait and pending is not None and not pending[1].done():
            return
        self._settle()
        import threading
        from concurrent.futures import Future

        made: Future = Future()

        def run() -> None:
            try:
                made.set_result(self.encoder.encode([query]))
            except BaseException as exc:  # noqa: BLE001 - raised again where the vector is asked for
                made.set_exception(exc)

        thread = threading.Thread(target=run, name="curator-query")
        try:
            thread.start()
        except RuntimeError:  # no new thread (the interpreter is exiting): made in line when asked for
            return
        self._pending = (query, made, thread)

    def _settle(self) -> None:
        """Wait for a vector begun and not asked for: one model run at a time from this source."""
        pending, self._pending = self._pending, None
        if pending is not None:
            try:
                self._last_query = (pending[0], pending[1].result()[0])
            except Exception:  # noqa: BLE001 - it is made again, and fails there, when asked for
                self._last_query = None
            pending[2].join()

    def _query_vector(self, query: str):
        """The query's vector, made once for `unread` and `rank` of the same query."""
        self._settle()
        last = self._last_query
        if last is None or last[0] != query:
            last = self._last_query = (query, self.encoder.encode([query])[0])
        return last[1]

    def _head_cosines(self, cand: list[int], keys: list[str], qv) -> dict[int, float]:
        return {i: float(self.head_cache.vectors[keys[i]] @ qv) for i in cand}

    def _pruned(self, cand: list[int], keys: list[str], picks, bm25_list, qv, cos=None) -> dict[int, list[int]]:
        """`picks` without the passages of static-only candidates whose head is FAR_BELOW the best
        head (every candidate's head is read by now)."""
        eng = self.engine
        cos = self._head_cosines(cand, keys, qv) if cos is None else cos
        if not cos:
            return picks
        floor = max(cos.values()) - FAR_BELOW
        lexical = {eng.position[p] for p, _ in bm25_list[:CANDIDATES] if p in eng.position}
        return {i: ([] if i not in lexical and cos[i] < floor else want) for i, want in picks.items()}

    def _progress_from(self, offset: int, whole: int):
        """`self.progress` told of one batch of texts as part of the query's whole reading."""
        outer = self.progress
        if outer is None:
            return None
        return lambda done, _n: outer(offset + done, whole)

    def _missing(self, cand: list[int], keys: list[str], rows, picks) -> tuple[list[int], list[tuple[int, list[int]]]]:
        """The candidates whose head is not cached, and each candidate's chosen passages that are not."""
        eng = self.engine
        heads = [i for i in cand if keys[i] not in self.head_cache.vectors]
        passages = [(i, want) for i in cand
                    if (want := [k for k in picks[i] if rows[eng.docs[i].path][k][3] not in self.passage_cache.vectors])]
        return heads, passages

    def _embed_missing(self, cand: list[int], keys: list[str], rows, picks, total: int = 0, offset: int = 0) -> None:
        """Run the model on the heads and chosen passages not cached yet, in one batch. Progress
        counts from `offset` (texts read before) to `total` (or what is read now, when larger);
        with nothing left to read after `offset` texts, the reading is done at offset/offset."""
        from .passages import split
        from .wordpiece import shared

        eng = self.engine
        heads, passages = self._missing(cand, keys, rows, picks)
        texts, owners = [], []
        if heads:
            texts += eng.semantic_texts(heads)
            owners += [("head", keys[i]) for i in heads]
        for i, want in passages:
            path = eng.docs[i].path
            made = split(eng.heads[i], eng.docs[i].body(), shared())  # the texts are not kept: cut again
            for k in want:
                if k < len(made):
                    texts.append(made[k].text)
                    owners.append(("passage", rows[path][k][3]))
        if not texts:
            if offset and self.progress is not None:
                self.progress(offset, offset)  # every passage left was skipped or cached
            return
        progress = self._progress_from(offset, max(total, offset + len(texts)))
        if progress is not None and offset == 0:
            progress(0, len(texts))  # said before the model loads (0.2–0.4 s), not after its first batch
        vecs = self.encoder.encode(texts, progress)
        self.embedded += len(texts)
        for (kind, key), v in zip(owners, vecs, strict=True):
            (self.head_cache if kind == "head" else self.passage_cache).put([key], [v])
        # the heads' file holds the store's memories only (a gone memory's vector goes with it)
        kept = [k for k in dict.fromkeys(keys) if k in self.head_cache.vectors]
        if kept and self.head_cache.dirty:
            self.head_cache.flush(kept, self.head_cache.stacked(kept))
        self.passage_cache.flush_all()
