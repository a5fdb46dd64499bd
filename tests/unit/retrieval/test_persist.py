"""The saved BM25 index: reused when warm, updated or rebuilt when a file changes or goes, pruned,
never shared between two stores, and a damaged file only means a rebuild."""

from __future__ import annotations

import marshal
import shutil

import pytest

from curator.base.tokens import FakeTokenCounter
from curator.cli import main
from curator.model import load_store
from curator.retrieval import RetrievalEngine, bm25, persist
from curator.retrieval import engine as engine_mod

FILES = {
    "deploy-checklist.md": "# Deploy checklist\n\nTag the release, run migrations, watch the dashboards.\n",
    "cache-layout.md": "# Cache layout\n\nKeys are content hashes; entries expire after a week.\n",
    "review-etiquette.md": "# Review etiquette\n\nAsk questions, suggest, never demand; batch small nits.\n",
    "flaky-tests.md": "# Flaky tests\n\nQuarantine, then fix the clock or the ordering that makes them flaky.\n",
    "pool-sizing.md": "# Pool sizing\n\nSize the postgres pool to the worker count.\n",
}


def engine(root) -> RetrievalEngine:
    return RetrievalEngine(load_store(root, token_counter=FakeTokenCounter()), persist=True)


def top(eng, query, k=3):
    return [h.path for h in eng.search(query, k=k, source="bm25").hits]


def test_second_engine_reuses_the_saved_index(make_store):
    root = make_store(FILES)
    first = engine(root)
    assert first.index_state == "built"
    assert (persist.folder_for(root) / "index.marshal").is_file()
    second = engine(root)
    assert second.index_state == "reused"
    for q in ("postgres pool", "flaky clock ordering", "release migrations"):
        assert top(first, q) == top(second, q)
        assert first.search(q).hits[0].path == second.search(q).hits[0].path


def test_edited_file_is_reindexed_and_others_keep_their_terms(make_store):
    root = make_store(FILES)
    engine(root)
    (root / "pool-sizing.md").write_text("# Pool sizing\n\nSize the pgbouncer pool to the worker count.\n")
    eng = engine(root)
    assert eng.index_state == "updated"  # same indexes: unchanged memories' terms were reused
    assert top(eng, "pgbouncer") == ["pool-sizing.md"]
    assert "postgres" not in eng.doc_terms[eng.position["pool-sizing.md"]]
    assert engine(root).index_state == "reused"


def test_deleted_file_is_pruned_from_the_saved_index(make_store):
    root = make_store(FILES)
    engine(root)
    (root / "cache-layout.md").unlink()
    eng = engine(root)
    assert eng.index_state == "updated"
    assert "cache-layout.md" not in top(eng, "content hashes expire", k=5)
    saved = persist.load(root)
    assert [p for p, _ in saved.keys] == sorted(p for p in FILES if p != "cache-layout.md")
    assert len(saved.terms()) == len(FILES) - 1
    # one generation on disk: the old terms file went with the deleted memory's entry
    assert len(list(persist.folder_for(root).glob("terms-*.marshal"))) == 1


def test_a_changed_index_rebuilds_every_head(make_store):
    files = {**FILES, "memory-index.md": "| Keywords | File |\n|---|---|\n| sizing pool | [pool-sizing](pool-sizing.md) |\n"}
    root = make_store(files)
    engine(root)
    (root / "memory-index.md").write_text(
        "| Keywords | File |\n|---|---|\n| hikari connections | [pool-sizing](pool-sizing.md) |\n")
    eng = engine(root)
    assert eng.index_state == "built"  # index keywords are part of each memory's head
    assert top(eng, "hikari") == ["pool-sizing.md"]


def test_two_stores_never_share_a_saved_index(make_store):
    a, b = make_store(FILES, name="a"), make_store(FILES, name="b")
    assert persist.folder_for(a) != persist.folder_for(b)
    engine(a)
    eng_b = engine(b)
    assert eng_b.index_state == "built"  # identical files, but another store: nothing borrowed
    (b / "pool-sizing.md").write_text("# Pool sizing\n\nonly in b: pgbouncer\n")
    assert top(engine(b), "pgbouncer") == ["pool-sizing.md"]
    assert top(engine(a), "pgbouncer") == []


def test_saved_index_of_a_gone_store_is_pruned(make_store):
    gone, kept = make_store(FILES, name="gone"), make_store(FILES, name="kept")
    engine(gone)
    folder = persist.folder_for(gone)
    assert folder.is_dir()
    shutil.rmtree(gone)
    engine(kept)  # any save sweeps folders of stores that no longer exist
    assert not folder.exists()
    assert persist.folder_for(kept).is_dir()


@pytest.mark.parametrize("damage", ["index", "terms", "garbage-meta"])
def test_damaged_saved_files_mean_a_rebuild_not_a_crash(make_store, damage):
    root = make_store(FILES)
    engine(root)
    folder = persist.folder_for(root)
    if damage == "index":
        (folder / "index.marshal").write_bytes(b"\x00not marshal")
    elif damage == "terms":
        for f in folder.glob("terms-*.marshal"):
            f.write_bytes(b"")
    else:
        (folder / "index.marshal").write_bytes(marshal.dumps(["a", "list", "not", "a", "dict"]))
    eng = engine(root)
    assert top(eng, "postgres pool")[0] == "pool-sizing.md"
    assert engine(root).index_state == "reused"


@pytest.fixture
def large(monkeypatch):
    """Treat 3+ memories as a large store, so the numpy / mmap backends run on a small fixture."""
    monkeypatch.setattr(bm25, "PYTHON_UP_TO", 2)
    monkeypatch.setattr(engine_mod, "PYTHON_UP_TO", 2)


def test_large_store_warm_index_is_memory_mapped_and_ranks_alike(make_store, large):
    root = make_store(FILES)
    cold = engine(root)
    assert cold.bm25.backend == "numpy"
    warm = engine(root)
    assert warm.index_state == "reused" and warm.bm25.backend == "mmap"
    queries = ("postgres pool", "flaky clock ordering", "release migrations dashboards", "zzz")
    expected = {q: [(h.path, round(h.score, 5)) for h in cold.search(q, source="bm25").hits] for q in queries}
    for q in queries:
        assert [(h.path, round(h.score, 5)) for h in warm.search(q, source="bm25").hits] == expected[q]
        assert warm.bm25.contains("postgr", warm.position["pool-sizing.md"]) == cold.bm25.contains(
            "postgr", cold.position["pool-sizing.md"])
    small = RetrievalEngine(load_store(root, token_counter=FakeTokenCounter()), persist=False)
    small.bm25 = bm25.BM25Index(small.doc_terms, backend="python")

    def every_list(eng, q):
        r = eng.search(q)
        return [h.path for h in r.hits], {s: [(p, round(x, 5)) for p, x in v] for s, v in r.per_source.items()}

    reference = {q: every_list(small, q) for q in queries}
    for q in queries:  # prior overlap and fusion agree across the python, mmap and numpy backends
        assert every_list(cold, q) == every_list(warm, q) == reference[q]
    warm.prepare()  # a long-lived engine switches to numpy over the same mapped arrays
    assert warm.bm25.backend == "numpy"
    for q in queries:
        assert [(h.path, round(h.score, 5)) for h in warm.search(q, source="bm25").hits] == expected[q]
        assert every_list(warm, q) == reference[q]


def test_large_store_truncated_array_is_rebuilt(make_store, large):
    root = make_store(FILES)
    engine(root)
    for f in persist.folder_for(root).glob("data-*.npy"):
        f.write_bytes(f.read_bytes()[:20])
    eng = engine(root)
    assert eng.index_state == "updated" and eng.bm25.backend == "numpy"  # terms reused, arrays remade
    assert top(eng, "postgres pool")[0] == "pool-sizing.md"
    assert engine(root).bm25.backend == "mmap"  # and saved again


def test_no_persistence_when_asked_or_estimating(make_store, monkeypatch, capsys):
    root = make_store(FILES)
    RetrievalEngine(load_store(root, token_counter=FakeTokenCounter()), persist=False)
    assert not persist.folder_for(root).exists()
    monkeypatch.setenv("CURATOR_TOKENS", "estimate")  # read by the faces, which pass persist=False
    (root / "golden-queries.yaml").write_text("- query: postgres pool\n  expect: [pool-sizing.md]\n", encoding="utf-8")
    for argv, said in ((["retrieve", "postgres pool", "--store", str(root)], "pool-sizing.md"),
                       (["eval", "--store", str(root)], "hit@5 1.00")):
        assert main(argv) == 0
        assert said in capsys.readouterr().out
        assert not persist.folder_for(root).exists()
    # the engine reads no environment: told nothing, it keeps its index
    RetrievalEngine(load_store(root, token_counter=FakeTokenCounter()))
    assert persist.folder_for(root).exists()


def test_small_store_warm_index_is_mapped_and_written_as_real_npy_files(make_store):
    import numpy as np

    root = make_store(FILES)
    cold = engine(root)
    assert cold.bm25.backend == "python"  # a small store builds without numpy
    warm = engine(root)
    assert warm.index_state == "reused" and warm.bm25.backend == "mmap"
    for q in ("postgres pool", "flaky clock ordering", "release migrations dashboards", "zzz"):
        a, b = cold.search(q), warm.search(q)
        assert [(h.path, round(h.score, 5)) for h in a.hits] == [(h.path, round(h.score, 5)) for h in b.hits]
    folder = persist.folder_for(root)
    saved = persist.load(root)
    data = np.load(next(folder.glob("data-*.npy")))  # numpy reads what was written without it
    assert data.dtype == np.float32 and list(data) == list(saved.views()[0])
    warm.prepare()
    assert warm.bm25.backend == "mmap"  # small: numpy is never worth importing


def test_warm_retrieve_process_never_imports_numpy(make_store):
    import subprocess
    import sys

    root = make_store(FILES)
    engine(root)
    code = ("import sys; from curator.model import load_store; from curator.retrieval import RetrievalEngine; "
            "from curator.base.tokens import FakeTokenCounter; "
            f"e = RetrievalEngine(load_store({str(root)!r}, token_counter=FakeTokenCounter()), persist=True); "
            "r = e.search('postgres pool'); "
            "print(e.index_state, e.bm25.backend, r.hits[0].path, 'numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["reused", "mmap", "pool-sizing.md", "False"]


def test_the_old_shared_terms_cache_is_removed(make_store):
    from curator.base.locations import cache_dir

    legacy = cache_dir() / "terms.pickle"
    legacy.parent.mkdir(parents=True, exist_ok=True)
    legacy.write_bytes(b"every store's terms, never pruned")
    engine(make_store(FILES))
    assert not legacy.exists()


def test_a_store_without_memories_saves_and_maps_an_empty_index(make_store):
    root = make_store({"memory-index.md": "| Keywords | File |\n|---|---|\n"})
    assert engine(root).search("anything").hits == []
    warm = engine(root)
    assert warm.index_state == "reused" and warm.bm25.backend == "mmap"
    assert warm.search("anything").hits == [] and warm.why("gone.md", "anything") == "not in the store"


def test_a_blob_file_reads_each_memory_alone_and_refuses_damage_and_short_files(tmp_path):
    """blob_file.BlobFile: the per-memory files (passages, docterms, routes) held open, one read
    a memory; a damaged byte, an index out of range or a file that ends early is None, never a
    wrong blob."""
    from curator.retrieval.blob_file import BlobFile

    blobs = [[("Heading", i, "excerpt", f"k{i}", ["word"] * i)] for i in range(6)]
    path = tmp_path / "passages-g.bin"
    path.write_bytes(persist._doc_terms_bytes(blobs))
    reader = BlobFile(path, 6)
    assert reader.read([4, 0, 5]) == {4: blobs[4], 0: blobs[0], 5: blobs[5]}
    assert reader.read([6]) is None and reader.read([-1]) is None
    with pytest.raises(ValueError):
        BlobFile(path, 7)  # not the count the index names
    data = bytearray(path.read_bytes())
    data[-3] ^= 0xFF  # inside the last blob
    path.write_bytes(bytes(data))
    damaged = BlobFile(path, 6)
    assert damaged.read([5]) is None and damaged.read([1]) == {1: blobs[1]}
    path.write_bytes(bytes(data[:-10]))  # ends early
    assert BlobFile(path, 6).read([5]) is None
    path.write_bytes(bytes(data[:20]))  # not even its tables
    with pytest.raises(ValueError):
        BlobFile(path, 6)


def test_a_rows_file_is_written_a_memory_at_a_time_never_whole():
    """`_write_rows` (passages, docterms, routes): the bytes the readers expect — n, the offsets,
    the CRCs, then the blobs — written one blob at a time, the header filled in after."""
    import io
    import struct
    import zlib

    class Recording(io.BytesIO):
        biggest = 0

        def write(self, b):
            self.biggest = max(self.biggest, len(b))
            return super().write(b)

    items = [[("Heading", i, "excerpt " * 100, f"k{i}", ["word"] * i)] for i in range(40)]
    out = Recording()
    out.write(b"before")  # a file already holding something: offsets are from where the rows start
    persist._write_rows(out, items, len(items))
    blobs = [marshal.dumps(i) for i in items]
    offsets = [sum(len(b) for b in blobs[:k]) for k in range(len(blobs) + 1)]
    want = (struct.pack(f"<q{len(offsets)}q", len(items), *offsets)
            + struct.pack(f"<{len(blobs)}I", *map(zlib.crc32, blobs)) + b"".join(blobs))
    assert out.getvalue() == b"before" + want and out.tell() == len(out.getvalue())
    assert out.biggest <= max(max(map(len, blobs)), 8 * (len(items) + 2))  # never the whole file at once


def test_the_rows_written_as_they_are_made_are_the_rows_and_a_write_that_fails_leaves_the_text(make_store, monkeypatch):
    """A build makes each memory's passage rows as the saved index writes them (never all held):
    the engine that built it reads back exactly the rows of each memory's text; a save that fails
    half-way through them leaves an engine that makes them from the text, with the same answers."""
    from curator.retrieval.passage_rank import rows_of
    from curator.retrieval.wordpiece import shared

    root = make_store({**FILES, **{f"note-{i}.md": f"# Note {i}\n\nPostgres pool note {i}.\n" for i in range(30)}})
    built = engine(root)
    paths = [d.path for d in built.docs]
    want = {d.path: rows_of(h, d.body(), shared()) for d, h in zip(built.docs, built.heads, strict=True)}
    assert built.rows_for(paths) == want
    answers = [h.path for h in built.search("postgres pool size", k=5).hits]

    persist.forget(root)
    real = persist._write_rows

    def half(fh, items, n):
        if isinstance(items, list):  # the terms and routes; the passages come as they are made
            return real(fh, items, n)
        for k, _ in enumerate(items):  # the passages: a disk that fills half-way through
            if k == 10:
                raise OSError("no space left on device")
        return None

    monkeypatch.setattr(persist, "_write_rows", half)
    failed = engine(root)
    assert not any(persist.folder_for(root).glob("passages-*.bin"))
    assert failed.rows_for(paths) == want
    assert [h.path for h in failed.search("postgres pool size", k=5).hits] == answers


def test_an_array_is_saved_as_npy_from_its_own_bytes(tmp_path):
    """The saved arrays (.npy 1.0) are written from the array's own buffer, not a copy of it:
    numpy reads back the same values, for numpy arrays and for `array.array`s (the Python backend)."""
    from array import array

    np = pytest.importorskip("numpy")
    for arr in (np.arange(7, dtype=np.float32) / 3, np.arange(5, dtype=np.int64), array("i", [3, 1, 4, 1, 5])):
        head, body = persist._npy_parts(arr)
        assert body.obj is arr  # a view on the array
        path = tmp_path / "a.npy"
        persist._atomic(path, head, body)
        assert np.array_equal(np.load(path), np.asarray(arr)) and len(head) % 64 == 0  # numpy's own alignment
