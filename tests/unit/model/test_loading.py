"""A load whose token counts are made while the checks run (`model.counting.Loading`): the
finished snapshot and its findings are exactly those of a load that counts first."""

from __future__ import annotations

import os
import sys
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from curator.base import tokens
from curator.base.tokens import ESTIMATE, FakeTokenCounter, TiktokenCounter
from curator.checks import run_checks
from curator.checks.facts import default_cache
from curator.live.workspace import open_workspace
from curator.model.loader import LoadOptions, begin_load, load_store

BUDGET = 40  # tokens a memory may have (budgets.memory in the store's .curator.yaml)


def _text_of(counter, tokens_wanted: int) -> str:
    """A memory of exactly `tokens_wanted` tokens whose UTF-8 length is far more than that."""
    words = ["# Cache\n"]
    while counter.count("".join(words)) < tokens_wanted:
        words.append(" retry")
    text = "".join(words)
    assert counter.count(text) == tokens_wanted
    return text


@pytest.fixture
def store_root(make_store, tmp_path):
    counter = TiktokenCounter(tmp_path / "probe.json")
    over = _text_of(counter, BUDGET + 1)  # over its budget by one token
    under = _text_of(counter, BUDGET)  # at its budget, though its bytes are well over it
    assert len(under.encode()) > BUDGET
    return make_store({
        ".curator.yaml": f"budgets:\n  memory: {BUDGET}\n",
        "memory-index.md": "# Memory index\n\n| Keywords | File |\n|---|---|\n"
                           "| cache retry over | [cache-index](cache-index.md) |\n",
        "cache-index.md": "| Keywords | File |\n|---|---|\n"
                          "| cache retry over one two | [over](cache/over.md) |\n"
                          "| cache retry under one two | [under](cache/under.md) |\n",
        "cache/over.md": over,
        "cache/under.md": under,
    })


def _sync(root, tmp_path):
    """Count first, then check (the path every caller took before)."""
    counter = TiktokenCounter(tmp_path / "sync.json")
    store = load_store(root, token_counter=counter, use_cache=False)
    return store, run_checks(store, facts_cache=default_cache())


def _budget_paths(findings) -> set[str]:
    return {f.path for f in findings if f.check == "budget.over"}


def test_counting_while_checking_gives_the_snapshot_and_findings_of_counting_first(store_root, tmp_path):
    store, findings = _sync(store_root, tmp_path)
    ws = open_workspace(store_root, LoadOptions(token_counter=TiktokenCounter(tmp_path / "bg.json")))
    assert ws.store.frozen
    assert {p: r.tokens for p, r in ws.store.records.items()} == {p: r.tokens for p, r in store.records.items()}
    assert ws.store.records["cache/over.md"].tokens == BUDGET + 1
    assert ws.store.encoding == store.encoding == "cl100k_base"
    assert [f.to_json() for f in ws.findings] == [f.to_json() for f in findings]
    # the one token over is found, the file at its budget (bytes over it) is not
    assert _budget_paths(ws.findings) == {"cache/over.md"}


def test_the_counts_are_made_elsewhere_while_the_store_is_open(store_root, tmp_path):
    alone = threading.active_count() == 1  # other threads (earlier tests' workers): never fork
    loading = begin_load(store_root, token_counter=TiktokenCounter(tmp_path / "t.json"), use_cache=False)
    assert not loading.store.frozen
    assert loading.store.records["cache/over.md"].tokens is None  # not counted yet
    # a forked process on Linux with no other thread and two processors, else a thread
    forks = alone and sys.platform == "linux" and len(os.sched_getaffinity(0)) >= 2
    assert (loading._process is not None) == forks
    assert (loading._thread is not None) == (not forks)
    store = loading.finish()
    assert store.frozen and store is loading.store and loading.finish() is store
    assert store.records["cache/over.md"].tokens == BUDGET + 1


def test_a_counter_that_cannot_hand_its_work_across_counts_on_a_thread(store_root):
    loading = begin_load(store_root, token_counter=FakeTokenCounter(), use_cache=False)
    assert loading._process is None
    store = loading.finish()
    assert store.encoding == "fake"
    assert all(r.tokens == len(r.text.split()) for r in store.records.values())


def test_a_counting_process_that_fails_is_replaced_by_counting_here(store_root, tmp_path, monkeypatch):
    def broken(_texts):
        raise RuntimeError("no tokenizer in the child")

    monkeypatch.setattr(tokens, "lengths", broken)
    store = begin_load(store_root, token_counter=TiktokenCounter(tmp_path / "t.json"), use_cache=False).finish()
    assert store.records["cache/over.md"].tokens == BUDGET + 1
    assert store.encoding == "cl100k_base"


def test_a_worker_that_fell_back_to_estimates_makes_the_counter_fall_back(tmp_path):
    counter = TiktokenCounter(tmp_path / "t.json")
    items = [("", "alpha beta"), ("", "gamma")]
    out, missing = counter.lookup(items)
    assert missing == [0, 1]
    counts = counter.learn(items, out, missing, [3, 2], ESTIMATE, "cl100k_base could not load")
    assert counts == [3, 2]
    assert counter.encoding == ESTIMATE and "could not load" in counter.fallback_reason


def test_a_bad_text_is_still_counted(tmp_path):
    counter = TiktokenCounter(tmp_path / "t.json")
    first, empty = counter._encode_len(["a\ud800b", ""])
    assert first > 0 and empty == 0


fast = tokens._fast_counter()


@pytest.mark.skipif(fast is None, reason="rs_bpe (curator[fast]) is not installed")
@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",))) | st.sampled_from(
    ["", " ", "\r\n\r\n  x", "héllo wörld 😀", "<|endoftext|>", "’“”—", "1234567890" * 9, "  \n\t\n", "ﬁ ǅ İ"]))
def test_the_fast_tokenizer_counts_exactly_what_tiktoken_counts(text):
    enc = tokens._load_encoding()
    assert fast(text) == len(enc.encode_ordinary(text))


def test_a_kept_result_is_looked_up_only_once_the_counts_are_in(store_root, tmp_path):
    open_workspace(store_root, LoadOptions(token_counter=FakeTokenCounter()))  # keeps a result under "fake" counts
    _store, expected = _sync(store_root, tmp_path)
    counted = open_workspace(store_root, LoadOptions(token_counter=TiktokenCounter(tmp_path / "a.json")))  # counts pending
    again = open_workspace(store_root, LoadOptions(token_counter=TiktokenCounter(tmp_path / "b.json")))  # every count kept
    for ws in (counted, again):
        assert ws.store.encoding == "cl100k_base"
        assert [f.to_json() for f in ws.findings] == [f.to_json() for f in expected]
    assert _budget_paths(again.findings) == {"cache/over.md"}
