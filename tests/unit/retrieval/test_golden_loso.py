"""The leave-one-store-out bench's list cache (`--cache`), its grid, and the shipped fusion's
firsts at the defaults it fits."""

from __future__ import annotations

import pickle

from curator.base.config import RetrievalConfig
from curator.bench.golden import loso
from curator.retrieval.fusion import fuse


class _Cover:
    """Like passage_rank.Cover: answers for any memory, holds an engine (does not pickle)."""

    def __init__(self) -> None:
        self.engine = lambda: None

    def get(self, path: str, default: float = 0.0) -> float:
        return {"a.md": 1.0, "b.md": 0.5}.get(path, default)


def _rows():
    lists = {"bm25": [("a.md", 2.0), ("b.md", 1.0)], "semantic": [("b.md", 0.5), ("a.md", 0.4)], "cover": _Cover()}
    return [("store", "golden query", lists)]


def test_lists_of_keeps_cover_as_a_plain_dict_over_the_listed_memories(monkeypatch):
    monkeypatch.setattr(loso, "_lists", lambda engines: _rows())
    [(_name, _g, lists)] = loso.lists_of(None)
    assert lists["cover"] == {"a.md": 1.0, "b.md": 0.5}
    pickle.dumps(lists)  # what --cache writes


def test_cache_runs_the_sources_once_per_key(monkeypatch, tmp_path):
    monkeypatch.setattr(loso, "_lists", lambda engines: _rows())
    calls = []

    def engines():
        calls.append(1)
        return {}

    cache = tmp_path / "lists.pkl"
    first = loso.cached_rows(cache, "k1", engines)
    again = loso.cached_rows(cache, "k1", engines)
    assert len(calls) == 1 and again == first
    loso.cached_rows(cache, "k2", engines)  # the golden files or the retrieval code changed
    assert len(calls) == 2
    cache.write_bytes(b"not a pickle")
    assert loso.cached_rows(cache, "k2", engines) == first and len(calls) == 3
    assert not list(tmp_path.glob("*.tmp"))
    assert loso.cached_rows(None, "k2", engines) == first and len(calls) == 4  # no cache: always run


def test_the_cache_key_follows_the_golden_files(tmp_path):
    one, two = tmp_path / "one.yaml", tmp_path / "two.yaml"
    one.write_text("store: x\nqueries: []\n")
    two.write_text("store: y\nqueries: []\n")
    assert loso.cache_key([tmp_path], [one]) != loso.cache_key([tmp_path], [two])
    assert loso.cache_key([tmp_path], [one]) == loso.cache_key([tmp_path], [one])


def test_the_folds_fit_the_fusion_not_its_tie_breakers():
    sources = {"route", "bm25", "prior", "semantic", "prf"}
    narrow, wide = loso.combos(sources), loso.combos(sources, loso.WIDE)
    assert {w["route"] for w in narrow} == {0.05} and {w["prior"] for w in narrow} == {0.0}
    assert all("cover" not in w for w in narrow) and {w["cover"] for w in wide} == {0.0, 1.0}
    assert len(wide) == 8 * len(narrow)


def _fused_first(lists, sure: bool = True) -> str:
    cfg = RetrievalConfig()
    return fuse(lists, {**cfg.source_weights, "bm25": 1.0}, cfg.sure_margin if sure else 0.0)[0][0]


def test_at_the_defaults_a_sure_bm25_first_is_kept_against_a_model_that_is_not_sure():
    # BM25's second at 0.75 of its first (sure); the model prefers b by 0.08 of cosine (< 0.1):
    # the weighted sum alone would put b first
    lists = {"bm25": [("a", 10.0), ("b", 7.5), ("c", 1.0)], "semantic": [("b", 0.40), ("a", 0.32), ("c", 0.1)],
             "route": [], "prior": []}
    assert _fused_first(lists, sure=False) == "b"
    assert _fused_first(lists) == "a"


def test_at_the_defaults_meaning_wins_where_it_is_sure_and_words_are_not():
    # BM25 nearly tied (second at 0.97 of its first), the model 0.27 of cosine sure of b
    lists = {"bm25": [("a", 10.0), ("c", 9.7), ("b", 3.0)], "semantic": [("b", 0.54), ("c", 0.27), ("a", 0.20)],
             "route": [], "prior": []}
    assert _fused_first(lists) == "b"
    # and over BM25's sure first, when the model's lead is at least 0.1
    lists["bm25"] = [("a", 10.0), ("c", 5.0), ("b", 3.0)]
    assert _fused_first(lists) == "b"
