"""A large store's first retrieval index is built and saved by a child (retrieval/index_child.py):
the app opens what it saved instead of building it in its own memory."""

from __future__ import annotations

from curator.base.tokens import FakeTokenCounter
from curator.model import load_store
from curator.retrieval import RetrievalEngine, index_child, persist

FILES = {f"notes/topic-{i}.md": f"# Topic {i}\n\nThe deploy of service {i} waits for the canary.\n" for i in range(6)}


def _store(make_store):
    return load_store(make_store(FILES), token_counter=FakeTokenCounter())


def test_a_large_stores_first_index_is_saved_by_a_child_and_opened_here(make_store, monkeypatch):
    store = _store(make_store)
    monkeypatch.setattr(index_child, "ELSEWHERE_FROM", 5)
    assert persist.load(store.root) is None
    assert index_child.build_elsewhere(store, len(store.records))
    assert persist.load(store.root) is not None
    engine = RetrievalEngine(store, persist=True)
    assert engine.index_state == "reused"  # the child's index is this store's, as the app reads it
    assert engine.search("canary deploy").hits
    assert not index_child.build_elsewhere(store, len(store.records))  # saved once: never again


def test_a_small_store_or_a_failing_child_leaves_the_build_to_the_app(make_store, monkeypatch):
    store = _store(make_store)
    assert not index_child.build_elsewhere(store, len(store.records))  # 6 memories: built here
    assert persist.load(store.root) is None
    monkeypatch.setattr(index_child, "ELSEWHERE_FROM", 5)
    monkeypatch.setattr(index_child, "__name__", "curator.retrieval.no_such_module")
    assert not index_child.build_elsewhere(store, len(store.records))
    assert RetrievalEngine(store, persist=True).index_state == "built"
