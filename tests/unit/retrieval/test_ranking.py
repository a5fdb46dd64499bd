"""Ranking invariants, document expansion, truthful `why`, multi-source fusion, eval classes."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from curator.base.tokens import FakeTokenCounter
from curator.cli import main
from curator.model import load_store
from curator.retrieval import RetrievalEngine, load_golden, run_eval
from curator.retrieval.fusion import fuse_sources
from curator.retrieval.hooks import memory_hooks
from curator.retrieval.multi import Engine, search_sources

FILLER = {
    "notes/deploy-checklist.md": "# Deploy checklist\n\nTag the release, run migrations, watch the dashboards.\n",
    "notes/cache-layout.md": "# Cache layout\n\nKeys are content hashes; entries expire after a week.\n",
    "notes/review-etiquette.md": "# Review etiquette\n\nAsk questions, suggest, never demand; batch small nits.\n",
    "notes/flaky-tests.md": "# Flaky tests\n\nQuarantine, then fix the clock or the ordering that makes them flaky.\n",
}


def load(root):
    return load_store(root, token_counter=FakeTokenCounter())


WORD = st.text(alphabet="bcdfghjklmnpqrstvwxz", min_size=5, max_size=9)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(WORD, min_size=1, max_size=3, unique=True), noise=st.lists(WORD, min_size=0, max_size=4))
def test_memory_named_after_the_query_with_every_word_ranks_first(make_store, words, noise):
    name = "-".join(words)
    files = dict(FILLER)
    # decoys each hold some of the words (never all of them) and plenty of noise
    for i, w in enumerate(words):
        files[f"notes/decoy-{i}.md"] = f"# Decoy {i}\n\n{w} {w} {' '.join(noise)} and other things\n"
    files[f"notes/{name}.md"] = f"# {' '.join(words)}\n\nAbout {' '.join(words)}. {' '.join(noise)}\n"
    eng = RetrievalEngine(load(make_store(files)))
    for source in ("fused", "bm25"):
        hits = eng.search(" ".join(words), k=3, source=source).hits
        assert hits and hits[0].path == f"notes/{name}.md", source


def test_dedup_keeps_one_of_two_identical_memories_and_says_which(make_store):
    same = "# Pool sizing\n\nSize the postgres pool to the worker count.\n"
    eng = RetrievalEngine(load(make_store({**FILLER, "db/pool-a.md": same, "db/pool-b.md": same})))
    r = eng.search("postgres pool sizing", k=5)
    paths = [h.path for h in r.hits]
    assert sum(p in paths for p in ("db/pool-a.md", "db/pool-b.md")) == 1
    dropped = next(p for p in ("db/pool-a.md", "db/pool-b.md") if p not in paths)
    assert "de-duplicated by SHA-256" in eng.why(dropped, "postgres pool sizing", r)


def test_eval_counts_the_kept_copy_of_identical_memories_as_the_hit(make_store, tmp_path):
    same = "# Pool sizing\n\nSize the postgres pool to the worker count.\n"
    eng = RetrievalEngine(load(make_store({**FILLER, "db/pool-a.md": same, "db/pool-b.md": same})))
    kept = eng.search("postgres pool sizing", k=5).hits[0].path
    dropped = next(p for p in ("db/pool-a.md", "db/pool-b.md") if p != kept)
    g = tmp_path / "g.yaml"
    g.write_text(f"- {{query: postgres pool sizing, expect: [{dropped}]}}\n")
    report = run_eval(eng, load_golden(g))
    assert report.scores["fused"].hit1 == 1.0 and not report.failures
    g.write_text("- {query: postgres pool sizing, expect: [notes/cache-layout.md]}\n")  # a different memory is no hit
    assert run_eval(eng, load_golden(g)).scores["fused"].hit1 == 0.0


CLAUDE = {
    "MEMORY.md": "# Memory\n\n- [Deploy rules](feedback_deploy.md) — ship from the release worktree via fleet-update\n"
    "- [Nothing here](missing.md) — a link to a file that is gone\n- [External](https://example.com/x.md) — not ours\n"
    "- [Bare link](project_plain.md)\n",
    "feedback_deploy.md": "---\nname: Deploy feedback\ndescription: how releases reach the servers\ntype: feedback\n---\n\n"
    "Never commit in place on a dirty branch.\n",
    "project_plain.md": "Some project notes about importers.\n",
    **FILLER,
}


def test_memory_hooks_read_link_lines(make_store):
    store = load(make_store(CLAUDE))
    hooks = memory_hooks(store)
    assert hooks["feedback_deploy.md"] == "Deploy rules ship from the release worktree via fleet-update"
    assert hooks["project_plain.md"] == "Bare link" and "missing.md" in hooks
    assert not any("example.com" in k for k in hooks)


def test_hook_and_frontmatter_words_find_a_memory_whose_body_lacks_them(make_store):
    eng = RetrievalEngine(load(make_store(CLAUDE)))
    assert eng.search("fleet-update worktree", k=1, source="bm25").hits[0].path == "feedback_deploy.md"
    assert eng.search("releases servers", k=1).hits[0].path == "feedback_deploy.md"


def test_a_memorys_subject_category_and_aliases_find_it(make_store):
    """A store's own frontmatter scheme (pause-monitor's `subject:`, ctx-eng-plus's `category:`,
    Obsidian's `aliases:`) says what a memory is about where its body is a bare list."""
    files = dict(FILLER)
    files["alias-terms.md"] = ("---\nid: alias-terms\nsubject: preferred-term-mappings\ncategory: glossary\n"
                               "aliases: [nickname table]\nowner: zanzibar\n---\n\n- `rogue-hunter`: `rogue hunter`\n- `iss`: `issue finder`\n")
    eng = RetrievalEngine(load(make_store(files)))
    for query in ("preferred term mappings", "glossary", "nickname table"):
        assert eng.search(query, k=1, source="bm25").hits[0].path == "alias-terms.md", query
    # bookkeeping fields (owner, status, dates) say nothing of the subject: not searched
    assert not eng.search("zanzibar", k=3, source="bm25").hits


def test_a_short_form_meets_its_word_in_memories_and_queries(make_store):
    from curator.retrieval.text import query_terms, terms

    assert terms("env vars in the db config") == terms("environment variables in the database configuration")
    assert terms("spec") != terms("specification")  # two readings (a test file, a document): left alone
    files = dict(FILLER)
    files["notes/task-env.md"] = "# Task env\n\nEach task gets its own env vars; the repo's deps are pinned.\n"
    eng = RetrievalEngine(load(make_store(files)))
    hit = eng.search("environment variables of a task", k=1, source="bm25").hits[0]
    assert hit.path == "notes/task-env.md"
    assert "repositori" in query_terms("which repository dependencies are pinned")
    assert eng.search("repository dependencies pinned", k=1, source="bm25").hits[0].path == "notes/task-env.md"


TIERED = {
    "memory-index.md": "[Git]\n|git rebase branch: [skills-git-index](skills-git-index.md) (10)\n"
    "[Db]\n|database pool postgres: [db-pool](db/db-pool.md) (5)\n",
    "skills-git-index.md": "| Keywords | File |\n|---|---|\n| rebase interactive autosquash | [git-rebase](git/git-rebase.md) |\n"
    "| worktree checkout hotfix | [git-worktree](git/git-worktree.md) |\n",
    "orphan-index.md": "| Keywords | File |\n|---|---|\n| stash dirty tree | [git-stash](git/git-stash.md) |\n",
    "git/git-rebase.md": "# Rebase\n\nUse interactive rebase with autosquash to fold fixup commits.\n",
    "git/git-worktree.md": "# Worktrees\n\nA second checkout for a hotfix branch; rebase later.\n",
    "git/git-stash.md": "# Stash\n\nStash before you rebase a dirty tree.\n",
    "db/db-pool.md": "# Pool\n\nSQLAlchemy pool size for postgres connections.\n",
}


def test_index_keywords_expand_the_document(make_store):
    eng = RetrievalEngine(load(make_store(TIERED)))
    # "autosquash" is in both; "hotfix" only in the worktree memory's row and body; "checkout" too
    hit = eng.search("hotfix checkout", k=1, source="bm25").hits[0]
    assert hit.path == "git/git-worktree.md"
    assert "worktree" in eng.heads[eng.position["git/git-worktree.md"]]


def test_why_names_the_l0_hop_when_the_index_was_never_opened(make_store):
    eng = RetrievalEngine(load(make_store(TIERED)))
    # the row in skills-git-index.md matches "autosquash", but no L0 keyword does
    why = eng.explain("git/git-rebase.md", "autosquash", eng.search("autosquash", k=0 or 1, source="route"))
    route = dict(why)["route"]
    assert route.startswith("L0 hop failed: memory-index.md:2") and "never opened" in route
    assert "no keyword matched" not in eng.why("git/git-rebase.md", "autosquash")


def test_why_names_the_row_when_the_index_was_opened(make_store):
    eng = RetrievalEngine(load(make_store(TIERED)))
    r = eng.search("git worktree", k=1, source="route")
    route = dict(eng.explain("git/git-rebase.md", "git worktree", r))["route"]
    assert "skills-git-index.md was opened" in route and "skills-git-index.md:3" in route
    assert "rebase" in route  # the row's keywords are the evidence


def test_why_for_an_index_not_routed_from_l0_and_a_direct_l0_row(make_store):
    eng = RetrievalEngine(load(make_store(TIERED)))
    assert "not routed from memory-index.md" in dict(eng.explain("git/git-stash.md", "zebra"))["route"]
    assert "its L0 row (memory-index.md:4" in dict(eng.explain("db/db-pool.md", "rebase"))["route"]


def test_why_reports_word_counts_and_rank_below_the_depth(make_store):
    files = {f"notes/n{i:03}.md": f"# Note {i}\n\nrebase rebase rebase rebase note {i}\n" for i in range(60)}
    files["notes/z-late.md"] = "# Late\n\nOne long story " + "word " * 400 + " rebase once.\n"
    eng = RetrievalEngine(load(make_store(files)))
    bm25 = dict(eng.explain("notes/z-late.md", "rebase"))["bm25"]
    assert "bm25 #61 of 61" in bm25 and "below the depth of 50" in bm25 and "rebas×1" in bm25


def test_fuse_sources_rrf_precedence_and_sha_dedup():
    fused = fuse_sources([
        ("serena", [("a.md", "h1"), ("b.md", "h2")]),
        ("claude", [("x.md", "h2"), ("y.md", "h3"), ("y2.md", "h3")]),
    ])
    assert [(h.source, h.path) for h in fused] == [("serena", "b.md"), ("serena", "a.md"), ("claude", "y.md")]
    assert fused[0].copies == (("claude", "x.md"),) and fused[2].copies == (("claude", "y2.md"),)
    assert fused[0].score == pytest.approx(1 / 62 + 1 / 61)
    # equal scores: the source listed first wins
    tie = fuse_sources([("one", [("p.md", "a")]), ("two", [("q.md", "b")])])
    assert [h.source for h in tie] == ["one", "two"]


def test_search_sources_tags_results_with_their_store(make_store, tmp_path):
    a = RetrievalEngine(load(make_store(TIERED)))
    b = RetrievalEngine(load(make_store(CLAUDE)))
    engines = [Engine("claude-memory", "claude", "claude/", b), Engine(".serena/memories", "serena", "serena/", a)]
    hits = search_sources(engines, "rebase deploy worktree", k=6).hits
    assert {h.path.split("/", 1)[0] for h in hits} == {"serena", "claude"}
    assert all(h.path.split("/", 1)[1] in (a if h.path.startswith("serena/") else b).store.records for h in hits)


GOLDEN = """\
store: somewhere
seed: 3
queries:
- {query: interactive rebase autosquash, expect: [git/git-rebase.md], kind: literal}
- {query: fold fixups into earlier work, expect: [git/git-rebase.md], kind: paraphrase}
- {query: postgres pool, expect: [db/db-pool.md]}
- {query: quantum chromodynamics, expect: [git/git-worktree.md], kind: literal}
"""


def test_golden_kinds_splits_and_per_class_scores(make_store, tmp_path):
    g = tmp_path / "g.yaml"
    g.write_text(GOLDEN)
    golden = load_golden(g)
    assert [q.kind for q in golden] == ["literal", "paraphrase", "literal", "literal"]
    assert [q.split for q in golden] == ["fit", "fit", "fit", "held"]  # the third literal is held out
    report = run_eval(RetrievalEngine(load(make_store(TIERED))), golden, threshold=0.5)
    assert set(report.by_class) == {"literal", "paraphrase", "fit", "held"}
    assert report.by_class["literal"]["fused"].n == 3 and report.by_class["paraphrase"]["fused"].n == 1
    lit = report.by_class["literal"]["fused"]
    assert lit.hit5 == pytest.approx(2 / 3)
    gap = report.gap()
    best = max(report.scores[s].hit5 for s in report.sources)
    assert gap.hit5 == pytest.approx(report.scores["fused"].hit5 - best)
    data = report.to_json()
    assert data["classes"]["paraphrase"]["scores"]["fused"]["n"] == 1 and "gap" in data


@pytest.mark.parametrize("entry", ["{query: x, expect: [a.md], kind: fuzzy}", "{query: x, expect: [a.md], split: test}"])
def test_golden_rejects_unknown_kind_or_split(tmp_path, entry):
    from curator.retrieval import GoldenError

    g = tmp_path / "g.yaml"
    g.write_text(f"- {entry}\n")
    with pytest.raises(GoldenError, match="must be one of"):
        load_golden(g)


def test_eval_exit_codes_and_threshold(make_store, tmp_path, capsys):
    root = make_store(TIERED)
    g = tmp_path / "g.yaml"
    g.write_text(GOLDEN)
    # 3 of 4 hit@5 → passes at 0.75, fails at 0.8
    assert main(["eval", "--golden", str(g), str(root), "--threshold", "0.75", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["passed"] and data["scores"]["fused"]["hit@5"] == 0.75
    assert main(["eval", "--golden", str(g), str(root), "--threshold", "0.8"]) == 1
    out = capsys.readouterr().out
    assert "paraphrase" in out and "FAILED" in out and "gap" in out
    assert main(["eval", "--golden", str(g), str(root), "--threshold", "1.5"]) == 2
    assert main(["eval", "--golden", str(tmp_path / "none.yaml"), str(root)]) == 2


def test_prior_only_reranks_what_the_other_sources_found(make_store):
    eng = RetrievalEngine(load(make_store(TIERED))).prepare()
    r = eng.search("rebase postgres", k=5)
    found = {p for s in ("route", "bm25") for p, _ in r.per_source[s]}
    prior = [p for p, _ in r.per_source["prior"]]
    assert prior and set(prior) <= found
    # the full scan (no candidates) ranks every memory the query touches, the boost only a subset
    assert set(prior) <= {p for p, _, _ in eng.rank_prior(["rebas", "postgr"])}


def test_equal_weights_from_config_still_win(make_store):
    from dataclasses import replace

    store = load(make_store(TIERED))
    cfg = replace(store.config.retrieval, source_weights={"route": 2.0, "bm25": 1.0, "prior": 1.0})
    eng = RetrievalEngine(store, config=cfg)
    assert eng.weights()["route"] == 2.0
    assert RetrievalEngine(store).weights()["route"] < 1.0  # the fitted default


def test_bm25_contains_agrees_across_backends():
    import random

    from curator.retrieval.bm25 import BM25Index

    rng = random.Random(0)
    docs = [[rng.choice("abcdefghij") for _ in range(rng.randint(0, 12))] for _ in range(400)]
    big, small = BM25Index(docs, backend="numpy"), BM25Index(docs, backend="python")
    for _ in range(400):
        t, i = rng.choice("abcdefghijk"), rng.randrange(400)
        assert big.contains(t, i) == small.contains(t, i) == (t in docs[i])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.sampled_from("abcdefg"), max_size=10), min_size=1, max_size=40),
       st.lists(st.sampled_from("abcdefgh"), min_size=1, max_size=4))
def test_bm25_numpy_weights_are_the_python_scorer_s(docs, query):
    """The column-compressed build (pairs in C arrays, weights made in place) scores every
    document as the plain Python scorer does: empty documents, an all-empty store, repeated words."""
    from curator.retrieval.bm25 import BM25Index

    big, small = BM25Index(docs, backend="numpy"), BM25Index(docs, backend="python")
    assert big.backend == "numpy"
    for x, y in zip(big.scores(query), small.scores(query), strict=True):
        assert abs(float(x) - y) <= 1e-6 * max(1.0, abs(y))
    for t in "abcdefgh":
        assert sorted(int(i) for i in big.docs_with(t)) == sorted(small.docs_with(t))


def test_bm25_weights_made_a_few_pairs_at_a_time_are_the_same_arrays(monkeypatch):
    import random

    import numpy as np

    from curator.retrieval import bm25 as bm25_mod

    rng = random.Random(5)
    docs = [[rng.choice("abcdefghijklmnop") for _ in range(rng.randint(0, 30))] for _ in range(300)]
    whole = bm25_mod.BM25Index(docs, backend="numpy").csc()
    monkeypatch.setattr(bm25_mod, "WEIGHT_STEP", 7)  # steps that end inside documents and terms
    stepped = bm25_mod.BM25Index(docs, backend="numpy").csc()
    assert stepped[0] == whole[0]
    assert all(np.array_equal(a, b) and a.dtype == b.dtype for a, b in zip(stepped[1:], whole[1:], strict=True))


def test_retrieve_json_misses_list_each_hop(make_store, capsys):
    root = make_store(TIERED)
    assert main(["retrieve", "autosquash", str(root), "--format", "json", "--why", "git/git-rebase.md", "--k", "1",
                 "--source", "route"]) == 0
    miss = json.loads(capsys.readouterr().out)["misses"][0]
    hops = [h["hop"] for h in miss["hops"]]
    assert hops[0] == "route" and "never opened" in miss["hops"][0]["evidence"]
    assert miss["reason"].startswith("L0 hop failed")
