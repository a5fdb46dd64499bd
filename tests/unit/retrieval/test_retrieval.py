"""Retrieval sources, fusion, de-duplication, explanations and eval numbers on tiny stores."""

from __future__ import annotations

import json

import pytest

from curator.base.tokens import FakeTokenCounter
from curator.cli import main
from curator.model import load_store
from curator.retrieval import GoldenError, RetrievalEngine, load_golden, run_eval
from curator.retrieval.fusion import dedupe, rrf
from curator.retrieval.prior import recency
from curator.retrieval.text import query_terms, stem, terms

ROWS = {
    "git/git-rebase.md": "rebase interactive autosquash fixup squash",
    "git/git-worktree.md": "worktree parallel checkout hotfix branch",
}


def store_files(extra: dict[str, str] | None = None) -> dict[str, str]:
    files = {
        "memory-index.md": "[Git]\n|git rebase worktree branch: [skills-git-index](skills-git-index.md) (10)\n"
        "[Db]\n|database pool postgres: [db-pool](db/db-pool.md) (5)\n",
        "skills-git-index.md": "| Keywords | File |\n|---|---|\n"
        + "".join(f"| {kw} | [{p[:-3]}]({p}) |\n" for p, kw in ROWS.items()),
        "git/git-rebase.md": "# Rebase\n\nUse interactive rebase with autosquash to fold fixup commits.\n",
        "git/git-worktree.md": "# Worktrees\n\nA second checkout for a hotfix branch; rebase later.\n",
        "db/db-pool.md": "# Pool\n\nSQLAlchemy pool size for postgres connections.\n",
        "git/git-unindexed.md": "# Stash\n\nStash before you rebase a dirty tree; stash pop after.\n",
        "validation/2026-11-18-abc.md": "---\ndate: 2026-11-18\n---\n# Rebase validation\n\nrebase rebase rebase\n",
    }
    files.update(extra or {})
    return files


@pytest.fixture
def engine(make_store):
    root = make_store(store_files())
    return RetrievalEngine(load_store(root, token_counter=FakeTokenCounter()))


def test_terms_stem_and_compounds():
    assert stem("commits") == stem("commit") and stem("charged") == stem("charge")
    assert "pnpm-lock" in terms("pnpm-lock conflict") and "lock" in terms("pnpm-lock")
    assert "pnpm-lock" in query_terms("pnpm lock merge")


def test_route_walks_l0_then_domain_index(engine):
    r = engine.search("interactive rebase", source="route")
    assert [h.path for h in r.hits][:1] == ["git/git-rebase.md"]
    hit = r.hits[0].sources["route"]
    assert hit.rank == 1 and "rebase" in hit.matched and hit.via == ["memory-index.md", "skills-git-index.md"]
    steps = [(s.path, s.cached) for s in r.route_steps]
    assert steps[0] == ("memory-index.md", True)
    assert ("skills-git-index.md", False) in steps
    assert r.tokens_loaded == sum(s.tokens for s in r.route_steps)


def test_route_direct_l0_row_and_fuzzy_near_form(engine):
    assert engine.search("postgre pool", source="route").hits[0].path == "db/db-pool.md"
    # a typo of an L0 keyword still routes (near-form), and reaches the row through the same form
    assert engine.search("worktre hotfix", source="route").hits[0].path == "git/git-worktree.md"


def test_bm25_ranks_text_and_skips_unloadable_tiers(engine):
    r = engine.search("stash dirty tree", source="bm25")
    assert r.hits[0].path == "git/git-unindexed.md"
    assert all(not h.path.startswith("validation/") for h in engine.search("rebase", source="bm25").hits)
    assert all(h.score > 0 for h in r.hits)  # BM25+ keeps matches positive on tiny stores


def test_prior_parts_and_recency():
    assert recency(None, None, 30) == 0.5
    from datetime import date

    assert recency(date(2026, 10, 21), date(2026, 11, 20), 30) == pytest.approx(0.5)


def test_rrf_and_dedupe():
    fused = rrf({"a": ["x", "y"], "b": ["y", "z"]}, k=60)
    assert [p for p, _ in fused] == ["y", "x", "z"]
    assert fused[0][1] == pytest.approx(1 / 62 + 1 / 61)
    kept, dropped = dedupe(fused, {"x": "h1", "y": "h1", "z": "h2"}.get)
    assert [p for p, _ in kept] == ["y", "z"] and dropped == {"x": "y"}


def test_fused_dedupes_identical_content(make_store):
    same = "# Rebase\n\nUse interactive rebase with autosquash to fold fixup commits.\n"
    root = make_store(store_files({"git/git-rebase-copy.md": same}))
    eng = RetrievalEngine(load_store(root, token_counter=FakeTokenCounter()))
    r = eng.search("interactive rebase autosquash")
    paths = [h.path for h in r.hits]
    assert ("git/git-rebase.md" in paths) != ("git/git-rebase-copy.md" in paths)
    assert r.duplicates


def test_why_reasons(engine):
    q = "interactive rebase"
    assert engine.why("git/git-rebase.md", q).startswith("it was retrieved at rank")
    assert "tier not loaded" in engine.why("validation/2026-11-18-abc.md", q)
    assert "not in any index" in engine.why("git/git-unindexed.md", q, engine.search(q, k=1))
    assert "its L0 row (memory-index.md:4" in engine.why("db/db-pool.md", "stash pop")
    r = engine.search("rebase", k=1)
    loser = next(p for p in ("git/git-worktree.md", "git/git-unindexed.md", "git/git-rebase.md") if p != r.hits[0].path)
    assert "below top-k" in engine.why(loser, "rebase", r)
    assert engine.why("nope.md", q) == "not in the store"


def test_eval_numbers_by_hand(make_store, tmp_path):
    root = make_store(store_files())
    golden = tmp_path / "g.yaml"
    golden.write_text(
        "- query: interactive rebase autosquash\n  expect: [git/git-rebase.md]\n"
        "- query: postgres pool\n  expect: [db/db-pool.md]\n"
        "- query: quantum chromodynamics\n  expect: [git/git-worktree.md]\n"
    )
    report = run_eval(RetrievalEngine(load_store(root, token_counter=FakeTokenCounter())), load_golden(golden))
    fused = report.scores["fused"]
    assert (fused.hit1, fused.hit5, fused.mrr10) == (pytest.approx(2 / 3), pytest.approx(2 / 3), pytest.approx(2 / 3))
    assert not report.passed and [f.query for f in report.failures] == ["quantum chromodynamics"]
    assert "git/git-worktree.md" in report.failures[0].reasons


@pytest.mark.parametrize("text", ["", "just: a mapping\n", "- query: x\n", "- {query: x, expect: 3}\n", "[unclosed\n"])
def test_bad_golden_files(tmp_path, text):
    path = tmp_path / "g.yaml"
    path.write_text(text)
    with pytest.raises(GoldenError):
        load_golden(path)


def test_retrieve_cli_json_shape(capsys, make_store):
    root = make_store(store_files())
    assert main(["retrieve", "interactive rebase", str(root), "--format", "json", "--why", "git/git-unindexed.md"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"query", "k", "results", "route", "misses", "prior_frequency", "would_also_load"} and data["k"] == 5
    assert data["would_also_load"] == []  # no skill or agent-requested rule in this repository
    assert data["prior_frequency"] == {"source": "cluster", "evidence": {"sessions": 0, "reads": 0}}
    top = data["results"][0]
    assert set(top) == {"rank", "path", "tier", "tokens", "score", "sources"}
    assert set(top["sources"]["route"]) == {"rank", "matched", "via"}
    assert set(top["sources"]["bm25"]) == {"rank", "score"} and set(top["sources"]["prior"]) == {"rank", "score"}
    assert any(r["sources"]["route"]["rank"] is None for r in data["results"])
    assert data["route"]["steps"][0]["cached"] is True and data["route"]["tokens_loaded"] > 0
    assert data["misses"][0]["path"] == "git/git-unindexed.md" and data["misses"][0]["reason"]


def test_eval_cli_on_sample_and_bad_file(capsys, sample_copy, tmp_path):
    assert main(["eval", str(sample_copy), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["queries"] >= 25 and data["passed"]
    best = max(data["scores"][s]["hit@5"] for s in ("route", "bm25", "prior"))
    assert data["scores"]["fused"]["hit@5"] >= best
    bad = tmp_path / "bad.yaml"
    bad.write_text("nope: [")
    assert main(["eval", str(sample_copy), "--queries", str(bad)]) == 2
    assert "not valid YAML" in capsys.readouterr().err


def test_bm25_backends_rank_alike(sample_copy):
    from curator.retrieval.bm25 import BM25Index

    store = load_store(sample_copy)
    docs = [terms(r.body()) for r in store.memories()]
    small, big = BM25Index(docs, backend="python"), BM25Index(docs, backend="numpy")
    assert small.backend == "python" and big.backend == "numpy"
    for q in ("rebase autosquash fixup", "pool postgres connection", "webhook signature rotation", "zzz"):
        qt = terms(q)
        a, b = small.top(qt, 8), big.top(qt, 8)
        assert [i for i, _ in a] == [i for i, _ in b]
        assert all(abs(x - y) < 1e-3 for (_, x), (_, y) in zip(a, b, strict=True))
        assert sorted(small.docs_with(qt[0])) == sorted(int(i) for i in big.docs_with(qt[0]))
