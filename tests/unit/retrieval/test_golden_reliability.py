"""The label-free reliability bench (bench/golden/reliability.py): its pseudo-queries, the bounded
tilt of the semantic weight, and the tilt's leave-one-store-out scoring (β 0 is today's fusion)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from curator.bench.golden import loso
from curator.bench.golden.reliability import pseudo_query, real_gaps, sample, tilt_loso, tilted
from curator.retrieval.eval import GoldenQuery


def test_pseudo_query_reads_the_first_prose_not_headings_front_matter_or_code():
    text = "---\nname: x\ndescription: y\n---\n# Title\n\n```\ncode\n```\n| a | b |\nThe cache is keyed by path.\nIt expires daily.\n"
    assert pseudo_query(text) == "The cache is keyed by path. It expires daily."
    assert pseudo_query("one two three four five", words=3) == "one two three"
    assert pseudo_query("# only a heading\n") == ""


def test_tilt_leans_to_the_reliable_source_and_is_bounded():
    assert tilted(5.0, 0.0, 4.0) == 5.0  # no evidence: today's weight
    assert tilted(5.0, 0.2, 0.0) == 5.0  # β 0: off
    assert tilted(5.0, 0.1, 2.0) == pytest.approx(5.0 * math.exp(0.2))
    assert tilted(5.0, -0.1, 2.0) < 5.0 < tilted(5.0, 0.1, 2.0)
    assert tilted(5.0, 1.0, 8.0) == 20.0 and tilted(5.0, -1.0, 8.0) == 1.25  # within [w/4, 4w]


@given(st.floats(-1, 1), st.floats(0, 10), st.floats(0.1, 20))
def test_tilt_never_leaves_its_bounds(r, beta, w):
    assert w / 4 - 1e-9 <= tilted(w, r, beta) <= 4 * w + 1e-9


def test_the_sample_is_fixed_and_does_not_follow_names():
    paths = [f"m{i:02}.md" for i in range(20)]
    assert sample(paths, 5) == sample(list(reversed(paths)), 5)
    assert len(sample(paths, 5)) == 5 and sample(paths, 5) != paths[:5]


def _rows():
    """Two stores: in `lexical` BM25 is right, in `meaning` the model is; each a sure first."""
    def row(store, expect, bm25, sem):
        return (store, GoldenQuery(query="q", expect=(expect,), kind="literal"),
                {"bm25": bm25, "semantic": sem, "route": [], "prior": []})

    return [row("lexical", "a.md", [("a.md", 2.0), ("b.md", 1.9)], [("b.md", 0.50), ("a.md", 0.46)]),
            row("meaning", "b.md", [("a.md", 2.0), ("b.md", 1.9)], [("b.md", 0.50), ("a.md", 0.46)])]


def test_real_gaps_are_semantic_minus_bm25_hit_at_1():
    assert real_gaps(_rows()) == {"lexical": -1.0, "meaning": 1.0}


def test_the_tilt_loso_with_beta_0_is_loso_and_restores_the_module():
    rules, scores = loso.RULES, loso._scores
    out, chosen, *_ = tilt_loso(_rows(), {"lexical": -1.0, "meaning": 1.0}, [0.0])
    plain, _chosen, *_ = loso.run(rows=_rows())
    assert {k: v["fused"] for k, v in out.items()} == {k: v["fused"] for k, v in plain.items()}
    assert loso.RULES == rules and loso._scores is scores
    assert all(w["beta"] == 0.0 for w in chosen.values())
