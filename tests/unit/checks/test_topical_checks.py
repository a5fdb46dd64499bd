"""duplicate.topic (issue 23): pairs alike in meaning above the fitted cosine, beside the
textual near-duplicates; silent without the semantic source."""

from __future__ import annotations

import numpy as np

from curator.base.tokens import FakeTokenCounter
from curator.checks import run_checks, topical_checks
from curator.checks.facts import default_cache
from curator.model import load_store
from curator.model.loader import LoadOptions


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


def test_a_pair_on_one_topic_is_reported_once(make_store):
    root = make_store(files())
    meaning = fake_embed(
        {"best_practices.md": [1, 0.1, 0], "consolidated_best_practices.md": [1, 0.2, 0], "deploy.md": [0, 0, 1]})
    store = load_store(root, token_counter=FakeTokenCounter(), meaning=meaning)
    found = [f for f in run_checks(store, facts_cache=default_cache()) if f.check == "duplicate.topic"]
    assert [(f.path, f.target) for f in found] == [("consolidated_best_practices.md", "best_practices.md")]
    assert "same topic as best_practices.md" in found[0].message


def test_below_the_threshold_or_without_the_source_nothing_is_said(make_store):
    root = make_store(files())
    meaning = fake_embed(
        {"best_practices.md": [1, 0.5, 0], "consolidated_best_practices.md": [0.4, 1, 0.6], "deploy.md": [0, 0, 1]})
    store = load_store(root, token_counter=FakeTokenCounter(), meaning=meaning)
    assert not [f for f in run_checks(store, facts_cache=default_cache()) if f.check == "duplicate.topic"]  # cosine 0.65
    for off in (None, lambda: None):  # no source handed in, or one that is not installed
        store = load_store(root, token_counter=FakeTokenCounter(), meaning=off)
        assert not [f for f in run_checks(store, facts_cache=default_cache()) if f.check == "duplicate.topic"]


DOCKER = ("docker image build cache layers multi stage builder smaller runtime base alpine pinned digest "
          "registry push tag release pipeline buildkit secrets mount ssh agent forwarding reproducible "
          "timestamps sbom provenance attestation scan vulnerabilities weekly rebuild policy owners")


def test_a_recheck_compares_the_edited_memory_with_the_rest_and_agrees_with_a_full_run(make_store, monkeypatch):
    """The static vectors (no fake): a memory rewritten in other words joins or leaves a topic
    pair, and the re-check (TopicIndex: one memory against the rest) says what a full run says."""
    from curator.live import semantic_embedder
    from curator.live.workspace import open_workspace

    monkeypatch.delenv("CURATOR_NO_SEMANTIC", raising=False)
    words = DOCKER.split()
    files = {"docker-builds.md": f"# Docker builds\n\n{DOCKER}\n",
             "containers.md": "# Containers\n\n" + " ".join(reversed(words)) + "\n",  # the same words, no shared 8-word run
             "billing.md": "# Billing\n\n" + " ".join(f"invoice{i} tax{i} refund{i}" for i in range(15)) + "\n",
             "auth.md": "# Auth\n\n" + " ".join(f"token{i} session{i} oauth{i}" for i in range(15)) + "\n"}
    root = make_store(files)

    def topics(ws):
        return sorted((f.path, f.target) for f in ws.findings if f.check == "duplicate.topic")

    ws = open_workspace(root, LoadOptions(token_counter=FakeTokenCounter(), meaning=semantic_embedder))
    assert topics(ws) == [("docker-builds.md", "containers.md")]
    for text in ("# Containers\n\n" + " ".join(f"pager{i} oncall{i} rota{i}" for i in range(15)) + "\n",
                 files["containers.md"]):
        (root / "containers.md").write_text(text)
        ws = ws.recheck("containers.md")
        assert ws._topics is not None  # compared through the index, not the whole store again
        assert topics(ws) == topics(open_workspace(root, LoadOptions(token_counter=FakeTokenCounter(), meaning=semantic_embedder)))
    assert topics(ws) == [("docker-builds.md", "containers.md")]


def test_no_hidden_switch_the_vectors_come_with_the_load_options(make_store):
    """duplicate.topic has vectors only when the one who loads the store hands them in
    (`LoadOptions.meaning`); importing a module plugs in nothing. `curator` hands them in for
    every command (`cli.common.load_options`) and the app with its settings."""
    import subprocess
    import sys

    code = ("import curator.live, curator.live.workspace, curator.live.workbench, curator.cli.common\n"
            "from curator.model.loader import LoadOptions\n"
            "from curator.live import semantic_embedder\n"
            "assert LoadOptions().meaning is None, 'plugged in by an import'\n"
            "assert curator.cli.common.load_options().meaning is semantic_embedder\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    root = make_store(files())
    assert topical_checks.embedder(load_store(root)) is None
    assert topical_checks.embedder(load_store(root, meaning=fake_embed({}))) is not None


def test_a_run_without_meaning_never_replays_the_findings_of_a_run_with_it(make_store, monkeypatch):
    """The store cache keeps a whole run's findings: whether vectors were handed in (and not
    turned off) is part of what they depend on, both ways."""
    from curator.base.config import meaning_off

    root = make_store(files())
    embed = fake_embed(
        {"best_practices.md": [1, 0.1, 0], "consolidated_best_practices.md": [1, 0.2, 0], "deploy.md": [0, 0, 1]})()

    def meaning():  # as the static vectors do: nothing while CURATOR_NO_SEMANTIC=1
        return lambda store, records: None if meaning_off(store.config.retrieval) else embed(store, records)

    def topics(**options):
        store = load_store(root, token_counter=FakeTokenCounter(), **options)
        return [f.path for f in run_checks(store) if f.check == "duplicate.topic"]  # through the store cache

    monkeypatch.delenv("CURATOR_NO_SEMANTIC", raising=False)  # (the suite turns it off)
    assert topics(meaning=meaning) == ["consolidated_best_practices.md"]
    assert topics(meaning=None) == []
    monkeypatch.setenv("CURATOR_NO_SEMANTIC", "1")
    assert topics(meaning=meaning) == []
    monkeypatch.delenv("CURATOR_NO_SEMANTIC")
    assert topics(meaning=meaning) == ["consolidated_best_practices.md"]


def test_every_pair_is_found_once_whatever_the_blocks_the_products_are_made_in(make_store, monkeypatch):
    """The similarity products go a block of rows at a time against the rows from that block on
    (each pair once): pairs within a block, across blocks and in the last short block all count."""
    rng = np.random.default_rng(3)
    names = [f"m{i:02d}.md" for i in range(13)]
    base = rng.normal(size=(4, 8))
    topics = {n: list(base[i % 4] + rng.normal(scale=0.05, size=8)) for i, n in enumerate(names)}
    root = make_store({n: f"# {n}\n\n{words(n[:3])}\n" for n in names})
    store = load_store(root, token_counter=FakeTokenCounter(), meaning=fake_embed(topics))
    vectors = fake_embed(topics)()(store, [store.records[n] for n in names])
    sims = vectors @ vectors.T
    want = {(names[a], names[b]) for a in range(13) for b in range(a + 1, 13) if sims[a, b] >= topical_checks.THRESHOLD}
    assert len(want) == 6 + 3 + 3 + 3  # each topic's pairs (4, 3, 3 and 3 memories)
    for block in (2, 3, 5, 128):
        monkeypatch.setattr(topical_checks, "BLOCK", block)
        got = topical_checks.topical_pairs(store)
        assert {(a, b) for a, b, _ in got} == want and len(got) == len(want)
