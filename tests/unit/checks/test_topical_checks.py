"""duplicate.topic (issue 23): pairs alike in meaning above the fitted cosine, beside the
textual near-duplicates; silent without the semantic source."""

from __future__ import annotations

import numpy as np

from curator.base.tokens import FakeTokenCounter
from curator.checks import run_checks, topical_checks
from curator.checks.facts import default_cache
from curator.model import load_store


def words(tag: str) -> str:
    return " ".join(f"{tag}{i}" for i in range(40))  # no shared text: never a textual near-duplicate


def fake_embed(topics: dict[str, list[float]]):
    """An encoder standing in for the semantic source: each file's vector by its name."""

    def embed(store, records):
        m = np.array([topics[r.path] for r in records], dtype=np.float32)
        return m / np.linalg.norm(m, axis=1, keepdims=True)

    return lambda: embed


def files():
    return {"best_practices.md": f"# Best practices\n\n{words('a')}\n",
            "consolidated_best_practices.md": f"# Consolidated\n\n{words('b')}\n",
            "deploy.md": f"# Deploy\n\n{words('c')}\n", "stub.md": "# Stub\n\ntoo short\n"}


def test_a_pair_on_one_topic_is_reported_once(make_store, monkeypatch):
    root = make_store(files())
    monkeypatch.setattr(topical_checks, "embedder", fake_embed(
        {"best_practices.md": [1, 0.1, 0], "consolidated_best_practices.md": [1, 0.2, 0], "deploy.md": [0, 0, 1]}))
    found = [f for f in run_checks(load_store(root, token_counter=FakeTokenCounter()), facts_cache=default_cache())
             if f.check == "duplicate.topic"]
    assert [(f.path, f.target) for f in found] == [("consolidated_best_practices.md", "best_practices.md")]
    assert "same topic as best_practices.md" in found[0].message


def test_below_the_threshold_or_without_the_source_nothing_is_said(make_store, monkeypatch):
    root = make_store(files())
    monkeypatch.setattr(topical_checks, "embedder", fake_embed(
        {"best_practices.md": [1, 0.5, 0], "consolidated_best_practices.md": [0.5, 1, 0], "deploy.md": [0, 0, 1]}))
    store = load_store(root, token_counter=FakeTokenCounter())
    assert not [f for f in run_checks(store, facts_cache=default_cache()) if f.check == "duplicate.topic"]  # cosine 0.80
    monkeypatch.setattr(topical_checks, "embedder", lambda: None)
    assert not [f for f in run_checks(store, facts_cache=default_cache()) if f.check == "duplicate.topic"]
