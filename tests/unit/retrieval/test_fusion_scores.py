"""Score fusion (a convex combination of normalised scores) and `retrieve`'s argument order."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from curator.base.tokens import FakeTokenCounter
from curator.cli import main
from curator.model import load_store
from curator.retrieval import RetrievalEngine
from curator.retrieval.fusion import combine, normalise, rrf


def test_a_sure_source_is_not_outvoted_by_two_guessing_ones():
    lists = {
        "bm25": [("sure.md", 12.0), ("maybe.md", 1.0)],  # BM25's first hit scores 12× its second
        "route": [("maybe.md", 1.0), ("sure.md", 0.9)],
        "prior": [("maybe.md", 0.6), ("sure.md", 0.55)],
    }
    equal = {"bm25": 1.0, "route": 1.0, "prior": 1.0}
    assert rrf({s: [p for p, _ in v] for s, v in lists.items()}, 60, equal)[0][0] == "maybe.md"  # ranks only
    assert combine(lists, equal)[0][0] == "sure.md"  # the margin counts


def test_normalise_scales_and_degenerate_lists():
    assert normalise([("a", 4.0), ("b", 1.0)], "max") == {"a": 1.0, "b": 0.25}
    assert normalise([("a", 0.8), ("b", 0.4), ("c", 0.2)], "minmax") == pytest.approx({"a": 1.0, "b": 1 / 3, "c": 0.0})
    assert normalise([("a", 0.5), ("b", 0.5)], "minmax") == {"a": 1.0, "b": 1.0}  # no spread: all equal
    assert normalise([("a", 0.0)], "max") == {"a": 0.0}  # never a division by zero
    assert normalise([], "max") == {}


def test_missing_from_a_list_counts_at_that_lists_lowest_value():
    # "c" is absent from semantic's list: it gets semantic's floor (0 after min-max), not nothing
    lists = {"bm25": [("a", 10.0), ("c", 9.0)], "semantic": [("b", 0.9), ("a", 0.5), ("d", 0.1)]}
    minmax = {"semantic": "minmax"}
    fused = dict(combine(lists, {"bm25": 1.0, "semantic": 1.0}, minmax))
    assert fused["a"] == 1.0 + 0.5
    assert fused["c"] == 0.9 + 0.0
    assert fused["b"] == 0.9 + 1.0  # absent from bm25: bm25's floor (0.9)
    assert list(dict(combine(lists, {"bm25": 1.0, "semantic": 1.0}, minmax))) == ["b", "a", "c", "d"]
    raw = dict(combine(lists, {"bm25": 1.0, "semantic": 1.0}))  # the default: cosines as they are
    assert raw["c"] == pytest.approx(0.9 + 0.1) and raw["b"] == pytest.approx(0.9 + 0.9)


def test_a_semantic_list_that_is_guessing_does_not_bury_bm25s_sure_first():
    bm25 = [("sure.md", 10.0), ("near.md", 4.5)] + [(f"x{i}.md", 1.0) for i in range(8)]
    # the model did not understand the query: every cosine low, its first barely above the rest
    guessing = [("other.md", 0.25), ("near.md", 0.22)] + [(f"y{i}.md", 0.12) for i in range(8)]
    # the model understood it: a clear first, far above the rest of its list
    knowing = [("other.md", 0.75), ("near.md", 0.35)] + [(f"y{i}.md", 0.12) for i in range(8)]
    w = {"bm25": 1.0, "semantic": 5.0}
    assert combine({"bm25": bm25, "semantic": guessing}, w)[0][0] == "sure.md"
    assert combine({"bm25": bm25, "semantic": knowing}, w)[0][0] == "other.md"
    # min-max would stretch the guess to a full 0..1 and let it win
    assert combine({"bm25": bm25, "semantic": guessing}, {"bm25": 1.0, "semantic": 2.0},
                   {"semantic": "minmax"})[0][0] == "other.md"


def test_ties_break_by_best_rank_then_path():
    lists = {"bm25": [("z.md", 1.0), ("a.md", 1.0)]}
    assert [p for p, _ in combine(lists)] == ["z.md", "a.md"]


def test_config_fusion_rrf_still_available(make_store):
    files = {"notes/pool.md": "# Pool\n\npostgres pool sizing\n", "notes/other.md": "# Other\n\ndeploy steps\n"}
    store = load_store(make_store(files), token_counter=FakeTokenCounter())
    from dataclasses import replace

    eng = RetrievalEngine(store, config=replace(store.config.retrieval, fusion="rrf"))
    assert eng.search("postgres pool", k=1).hits[0].path == "notes/pool.md"


def test_retrieve_accepts_options_between_query_and_store(capsys, make_store):
    files = {"pool.md": "# Pool\n\npostgres pool sizing\n", "other.md": "# Other\n\ndeploy steps\n"}
    root = str(make_store(files))
    assert main(["retrieve", "postgres pool", "--source", "bm25", root, "--format", "json"]) == 0
    between = json.loads(capsys.readouterr().out)
    assert main(["retrieve", "postgres pool", root, "--source", "bm25", "--format", "json"]) == 0
    after = json.loads(capsys.readouterr().out)
    assert main(["retrieve", "--source", "bm25", "--format", "json", "postgres pool", root]) == 0
    before = json.loads(capsys.readouterr().out)
    assert between["results"][0]["path"] == "pool.md"
    assert between["results"] == after["results"] == before["results"]


def test_retrieve_argument_errors_stay_one_line(capsys, make_store):
    root = str(make_store({"pool.md": "# Pool\n\npostgres\n"}))
    with pytest.raises(SystemExit) as exc:
        main(["retrieve", "--source", "bm25"])  # no query
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "required: query" in err and "Traceback" not in err
    with pytest.raises(SystemExit) as exc:
        main(["retrieve", "postgres", "--bogus", root])
    assert exc.value.code == 2
    assert "unrecognized arguments" in capsys.readouterr().err


def test_eval_explains_a_miss_below_the_top_five_as_below_top_k(make_store, tmp_path):
    from curator.retrieval import load_golden, run_eval

    files = {f"widget-{i}.md": f"# Widget {i}\n\nwidget widget widget tuning notes {i}\n" for i in range(7)}
    files["late.md"] = "# Late\n\nA long note about many other things, and once a widget.\n" + "filler words here. " * 40
    root = make_store(files)
    golden = tmp_path / "g.yaml"
    golden.write_text("- query: widget\n  expect: [late.md]\n")
    eng = RetrievalEngine(load_store(root, token_counter=FakeTokenCounter()))
    report = run_eval(eng, load_golden(golden))
    assert report.scores["fused"].hit5 == 0 and report.scores["fused"].mrr10 > 0  # ranked 6..10
    why = report.failures[0].reasons["late.md"]
    assert "below top-k" in why and "with k=5" in why and "retrieved at rank" not in why


def test_a_copy_beyond_the_top_k_is_still_explained_as_a_copy(make_store):
    same = "# Pool sizing\n\nSize the postgres pool to the worker count, pool pool.\n"
    files = {f"pool-{i}.md": f"# Pool {i}\n\npostgres pool notes {i}, pool pool pool\n" for i in range(6)}
    files.update({"zz-copy-a.md": same, "zz-copy-b.md": same})
    eng = RetrievalEngine(load_store(make_store(files), token_counter=FakeTokenCounter()))
    r = eng.search("postgres pool", k=1)
    assert len(r.hits) == 1
    full = [p for p, _ in eng.fuse(r.per_source)]
    kept = next(p for p in ("zz-copy-a.md", "zz-copy-b.md") if p in full)
    dropped = next(p for p in ("zz-copy-a.md", "zz-copy-b.md") if p != kept)
    assert dropped not in full
    assert f"same content as {kept}" in eng.why(dropped, "postgres pool", r)


_ID = st.sampled_from([f"m{i}.md" for i in range(12)])
_LIST = st.lists(st.tuples(_ID, st.floats(0.01, 50, allow_nan=False)), min_size=1, max_size=10,
                 unique_by=lambda t: t[0]).map(lambda xs: sorted(xs, key=lambda t: -t[1]))
_WEIGHT = st.floats(0.01, 3, allow_nan=False)


@given(lists=st.dictionaries(st.sampled_from(["bm25", "semantic", "route", "prior"]), _LIST, min_size=1),
       weights=st.dictionaries(st.sampled_from(["bm25", "semantic", "route", "prior"]), _WEIGHT))
def test_combine_properties(lists, weights):
    fused = combine(lists, weights)
    ids = [p for p, _ in fused]
    assert sorted(ids) == sorted({p for v in lists.values() for p, _ in v})  # every candidate, once
    assert all(a[1] >= b[1] for a, b in zip(fused, fused[1:], strict=False))  # best first
    # the source order given does not matter
    assert combine(dict(reversed(list(lists.items()))), weights) == fused
    # a memory every source puts strictly first is first
    tops = {v[0][0] for v in lists.values() if len(v) == 1 or v[0][1] > v[1][1]}
    if len(tops) == 1 and all(v[0][0] in tops for v in lists.values()):
        assert ids[0] in tops


@given(items=_LIST, boost=st.floats(0.5, 20, allow_nan=False), other=_LIST)
def test_combine_raising_a_score_never_lowers_the_memory(items, boost, other):
    target = items[-1][0]
    before = [p for p, _ in combine({"bm25": items, "semantic": other})].index(target)
    raised = sorted([(p, s + boost if p == target else s) for p, s in items], key=lambda t: -t[1])
    after = [p for p, _ in combine({"bm25": raised, "semantic": other})].index(target)
    assert after <= before
