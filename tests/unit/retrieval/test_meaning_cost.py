"""What a query with meaning costs: its vector made on a thread while the words are scored (once,
the same vector), passage words counted without a Counter of each passage, the memories' keys
made once an engine, and the cached vectors read a row at a time and checked once per version."""

from __future__ import annotations

import threading
import zlib
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from curator.base.tokens import FakeTokenCounter
from curator.model import load_store
from curator.retrieval import RetrievalEngine, vector_files
from curator.retrieval import meaning as meaning_mod
from curator.retrieval.passage_rank import K1, B, packed, passage_scores
from curator.retrieval.wordpiece import shared
from tests.unit.retrieval.test_semantic import engine as semantic_engine
from tests.unit.retrieval.test_semantic import fresh_encoders  # noqa: F401 - the same autouse fixture

np = pytest.importorskip("numpy")


def engine(make_store):
    return semantic_engine(make_store, semantic=True)


def _counting(monkeypatch, eng, query: str, fail: bool = False) -> list[str]:
    """The threads the encoder ran the query alone on (its vector); `fail`: each run raises."""
    asked: list[str] = []
    encode = eng.semantic.encoder.encode

    def counted(texts, progress=None):
        if list(texts) == [query]:
            asked.append(threading.current_thread().name)
            if fail:
                raise RuntimeError("the model failed")
        return encode(texts, progress)

    monkeypatch.setattr(eng.semantic.encoder, "encode", counted)
    return asked


def test_the_query_vector_begun_beside_the_words_is_made_once_and_ranks_as_made_in_line(make_store, monkeypatch):
    eng = engine(make_store)
    asked = _counting(monkeypatch, eng, "quarantine flaky tests")
    threads = threading.active_count()
    begun = eng.search("quarantine flaky tests", k=3)
    assert threading.active_count() == threads  # the thread ended with its vector (a load may fork again)
    assert asked == ["curator-query"]  # begun in `search` on its thread, taken by `rank`: one model run
    eng.search("quarantine flaky tests", k=3)
    assert len(asked) == 1  # the same query again: its vector is kept
    lab = engine(make_store)  # the lab asks `unread`, then searches: both begin the vector, one run
    asked_lab = _counting(monkeypatch, lab, "postgres pool size")
    lab.unread("postgres pool size")
    lab.search("postgres pool size", k=3)
    assert asked_lab == ["curator-query"]
    monkeypatch.setattr(meaning_mod.Meaning, "begin", lambda self, query: None)
    inline = engine(make_store).search("quarantine flaky tests", k=3)
    assert [h.path for h in begun.hits] == [h.path for h in inline.hits]
    assert dict(begun.per_source["semantic"]) == pytest.approx(dict(inline.per_source["semantic"]), abs=1e-6)


def test_a_blank_query_begins_nothing_and_a_failed_vector_fails_the_query_as_before(make_store, monkeypatch):
    eng = engine(make_store)
    eng.semantic.begin("   ")
    assert eng.semantic._pending is None
    asked = _counting(monkeypatch, eng, "postgres pool size", fail=True)
    with pytest.raises(RuntimeError, match="the model failed"):
        eng.search("postgres pool size", k=3)
    assert asked == ["curator-query", "MainThread"]  # the thread's run failed; `rank`'s own fails the same way
    assert eng.semantic._pending is None  # nothing left waiting for the next query


def test_reading_ahead_never_waits_for_a_vector_being_made_and_the_search_takes_what_it_read(make_store, monkeypatch):
    eng = engine(make_store)
    release, asked = threading.Event(), []
    encode = eng.semantic.encoder.encode

    def slow(texts, progress=None):
        if list(texts) in (["postgres"], ["postgres pool"], ["postgres pool size"]):  # a query, not a memory
            asked.append(texts[0])
            if texts[0] == "postgres":
                assert release.wait(10)
        return encode(texts, progress)

    monkeypatch.setattr(eng.semantic.encoder, "encode", slow)
    eng.semantic.begin("postgres", wait=False)  # the lab, at a keystroke: the vector on its thread
    eng.semantic.begin("postgres pool", wait=False)  # the next keystroke, the first still being made: nothing waits
    assert asked == ["postgres"] and eng.semantic._pending[0] == "postgres"
    release.set()
    eng.semantic._pending[2].join(10)
    eng.semantic.begin("postgres pool size", wait=False)  # the first made: the words typed since are read
    eng.search("postgres pool size", k=3)
    assert asked == ["postgres", "postgres pool size"]  # the search asked no second run


def test_an_engine_makes_its_memories_keys_once(make_store):
    eng = engine(make_store)
    assert eng.semantic_keys() is eng.semantic_keys()
    assert len(eng.semantic_keys()) == len(eng.docs)


def _reference(rows, qterms, idf, avg):
    out = []
    for row in rows:
        counts, n, s = Counter(row[4]), len(row[4]), 0.0
        for t in qterms:
            if counts.get(t):
                s += idf.get(t, 0.0) * counts[t] / (counts[t] + K1 * (1 - B + B * n / avg))
        out.append(s)
    return out


WORDS = st.sampled_from(["pool", "rebase", "flaky", "clock", "worker", "fix", "test"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(WORDS, max_size=30), max_size=6), st.lists(WORDS, min_size=1, max_size=6),
       st.dictionaries(WORDS, st.floats(0, 5)), st.floats(1, 50))
def test_passage_scores_are_bm25_of_each_passage_exactly(passages, qterms, idf, avg):
    rows = [("", 1, "", "k", terms) for terms in passages]
    want = _reference(rows, qterms, idf, avg)
    assert passage_scores(rows, qterms, idf, avg) == want
    # the saved form: each passage's terms as one string and their count (passage_rank.packed)
    assert passage_scores([("", 1, "", "k", *packed(terms)) for terms in passages], qterms, idf, avg) == want


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="ab\x1e\x1f ", max_size=8), max_size=12), st.text(alphabet="ab\x1e\x1f", max_size=3))
def test_a_term_is_counted_whole_in_the_packed_form_and_a_text_with_the_marks_keeps_its_list(terms, term):
    joined, n = packed(terms, "".join(terms))
    assert n == len(terms)
    if any(c in "".join(terms) for c in "\x1e\x1f"):
        assert joined == terms  # kept as a list: the marks would make a term's count wrong
    elif term and "\x1e" not in term and "\x1f" not in term:
        assert joined.count(f"\x1e{term}\x1f") == terms.count(term)


def _saved(tmp_path, matrix):
    path = tmp_path / "v.npy"
    np.save(path, matrix)
    return path, zlib.crc32(np.ascontiguousarray(matrix).data)


def test_rows_read_one_at_a_time_are_the_saved_rows(tmp_path):
    matrix = np.random.default_rng(1).standard_normal((50, 8)).astype(np.float32)
    path, _crc = _saved(tmp_path, matrix)
    rows, offset = vector_files.mapped(path, rows=True)
    whole, same = vector_files.mapped(path, rows=False)
    assert offset == same and rows.shape == whole.shape == (50, 8) and len(rows) == 50
    assert all(np.array_equal(rows[i], matrix[i]) and np.array_equal(whole[i], matrix[i]) for i in range(50))
    with pytest.raises(IndexError):
        rows[50]


def test_vectors_are_read_in_full_once_a_version_and_a_rewritten_file_again(tmp_path, monkeypatch):
    matrix = np.arange(64, dtype=np.float32).reshape(8, 8)
    path, crc = _saved(tmp_path, matrix)
    _rows, offset = vector_files.mapped(path, rows=True)
    assert vector_files.checked(path, crc, offset)  # read in full, and stamped
    assert not vector_files.checked(path, crc + 1, offset)  # another CRC is not this stamp's
    reads = []
    real = zlib.crc32
    monkeypatch.setattr(zlib, "crc32", lambda data, start=0: reads.append(len(data)) or real(data, start))
    assert vector_files.checked(path, crc, offset) and reads == []  # this version: by its stamp
    data = bytearray(path.read_bytes())
    data[offset + 5] ^= 0xFF  # one damaged byte, written: a new version of the file
    path.write_bytes(bytes(data))
    assert not vector_files.checked(path, crc, offset) and reads


def test_an_engine_keeps_a_bounded_number_of_memories_passage_rows(make_store, monkeypatch):
    from curator.retrieval import passage_rank

    store = load_store(make_store({f"m/n{i}.md": f"# Note {i}\n\nWord{i} and the shared words.\n" for i in range(8)}),
                       token_counter=FakeTokenCounter())
    RetrievalEngine(store, persist=True)  # builds and saves the index
    eng = RetrievalEngine(store, persist=True)  # reads its rows from the saved index, as a warm process
    assert eng.index_state == "reused"
    monkeypatch.setattr(passage_rank, "ROWS_KEPT", 3)
    paths = [d.path for d in eng.docs]
    whole = {p: passage_rank.rows_of(eng.heads[i], eng.docs[i].body(), shared()) for i, p in enumerate(paths)}
    for p in paths:
        assert eng.rows_for([p]) == {p: whole[p]}
        assert len(eng.passages.__dict__["_rows_read"]) <= 4


def test_dropping_the_kept_rows_never_breaks_a_search_reading_them_on_another_thread(monkeypatch):
    """The app's searches run on threads, a superseded one still running: one thread starting a
    new set of kept rows must not empty the set the other is reading (KeyError, review)."""
    import random
    import sys
    from types import SimpleNamespace

    from curator.retrieval import passage_rank

    monkeypatch.setattr(passage_rank, "ROWS_KEPT", 100)

    class Saved:
        def passages_of(self, idx):
            return {i: [("h", 1, "e", "k", ["w"])] for i in idx}

    docs = [SimpleNamespace(path=f"m{i}.md") for i in range(2000)]
    eng = SimpleNamespace(position={d.path: i for i, d in enumerate(docs)}, docs=docs, heads=[""] * 2000,
                          bm25=None, _saved=Saved())
    part = passage_rank.PassageRanker(eng)
    errors: list[str] = []

    def run(seed: int) -> None:
        rng = random.Random(seed)
        for _ in range(600):
            paths = [docs[rng.randrange(2000)].path for _ in range(60)]
            try:
                assert set(part.rows_for(paths)) == set(paths)
            except Exception as exc:  # noqa: BLE001 - counted, then asserted below
                errors.append(repr(exc))
                return

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch as often as they can
    try:
        threads = [threading.Thread(target=run, args=(s,)) for s in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert errors == []


def test_the_vectors_saved_again_are_the_rows_read_and_the_ones_put(tmp_path):
    """`SavedVectors.stacked` (what a cache writes back after a query read new texts): the whole
    file read once, its rows taken by index, the vectors put since in their places."""
    from curator.retrieval.vector_cache import SavedVectors

    matrix = np.random.default_rng(2).standard_normal((40, 8)).astype(np.float32)
    path, _crc = _saved(tmp_path, matrix)
    keys = [f"k{i}" for i in range(40)]
    for rows in (True, False):
        saved = SavedVectors(keys, vector_files.mapped(path, rows)[0])
        saved["new"] = np.full(8, 7.0, dtype=np.float32)
        saved["k3"] = np.zeros(8, dtype=np.float32)  # a key's vector put again
        order = ["new", "k39", "k3", "k0", "k3"]
        want = np.stack([saved[k] for k in order])
        assert np.array_equal(saved.stacked(order), want) and want[1].tolist() == matrix[39].tolist()
    assert SavedVectors(keys, vector_files.mapped(path, True)[0]).stacked([]).shape[0] == 0


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text("abcde", min_size=1, max_size=3), st.sampled_from([0.0, 0.1, 0.25, 0.5, 1.0, 2.0])),
       st.integers(0, 8))
def test_the_heaviest_expansion_words_are_those_a_full_sort_gives(weight, n):
    from curator.retrieval.feedback import heaviest

    assert heaviest(weight, n) == sorted(weight.items(), key=lambda kv: (-kv[1], kv[0]))[:n]


def test_the_static_vectors_are_built_a_chunk_at_a_time_once_whoever_asks_first(make_store, monkeypatch):
    """meaning.static_matrix: the bags of a few memories at a time (every bag alive at once took
    ~190 MB at 10,000 memories), the same matrix as in one go; a search that asks while `prepare`
    builds it waits for that build instead of making a second one."""
    whole = engine(make_store).semantic.static_matrix()
    monkeypatch.setattr(meaning_mod, "STATIC_CHUNK", 1)
    eng = engine(make_store)
    eng.semantic.static_cache.vectors, eng.semantic.static_cache._loaded = {}, ()  # nothing saved
    built: list[int] = []
    embed = eng.semantic.table.embed
    started, go = threading.Event(), threading.Event()

    def slow(bags, *args):
        built.append(len(bags))
        started.set()
        go.wait(5)
        return embed(bags, *args)

    monkeypatch.setattr(eng.semantic.table, "embed", slow)
    got = []
    threads = [threading.Thread(target=lambda: got.append(eng.semantic.static_matrix())) for _ in range(2)]
    threads[0].start()
    started.wait(5)
    threads[1].start()
    go.set()
    for t in threads:
        t.join(10)
    assert built == [1] * len(eng.docs)  # one memory a chunk, each once
    assert got[0] is got[1] and np.allclose(got[0], whole, atol=1e-6)
    assert eng.semantic.static_cache.vectors == {}  # the rows live in the matrix only
