"""The graph source's edges and spread, the sure-first rule, Snowball stemming, readable
explanations (names cut from the middle, one shared prior line) and `--why` paths."""

from __future__ import annotations

import json

from curator.base.tokens import FakeTokenCounter
from curator.cli import main
from curator.model import load_store
from curator.reports.retrieval_report import middle_cut
from curator.retrieval import RetrievalEngine
from curator.retrieval.fusion import firsts, fuse, meaning_first, sure_first
from curator.retrieval.graph import edges, spread
from curator.retrieval.text import stem, terms

LINKED = {
    "a/deploy.md": "# Deploy\n\nShip it. See [rollout](../b/rollout.md) and mem:canary.\n",
    "b/rollout.md": "# Rollout\n\nGo slowly.\n",
    "canary.md": "# Canary\n\nOne host first. Related: [[soak]]\n",
    "soak.md": "# Soak\n\nWait an hour.\n",
    "alone.md": "# Alone\n\nNothing links here.\n",
}


def test_edges_come_from_links_mem_refs_and_wiki_links(make_store):
    store = load_store(make_store(LINKED), token_counter=FakeTokenCounter())
    eng = RetrievalEngine(store)
    g = edges(store, eng.docs)
    assert g["a/deploy.md"] == ["b/rollout.md", "canary.md"]
    assert g["canary.md"] == ["a/deploy.md", "soak.md"]  # undirected
    assert "alone.md" not in g


def test_spread_scores_neighbours_of_first_hits_and_names_them():
    g = {"x": ["n1", "n2"], "y": ["n2"], "n1": ["x"], "n2": ["x", "y"]}
    ranked, via = spread(g, [[("x", 3.0), ("y", 2.0)]])
    assert ranked == [("n2", 1.5), ("n1", 1.0)]  # linked from #1 and #2 beats linked from #1
    assert via["n2"] == ["x", "y"] and "x" not in dict(ranked)  # seeds are not brought again


def test_a_sure_bm25_first_stays_first():
    fused = ["b", "a", "c"]
    sure = {"bm25": [("a", 10.0), ("b", 5.0)]}
    unsure = {"bm25": [("a", 10.0), ("b", 9.0)]}
    assert sure_first(fused, sure, 0.7) == ["a", "b", "c"]
    assert sure_first(fused, unsure, 0.7) == fused  # second at 0.9 of the first: not sure
    assert sure_first(fused, sure, 0.0) == fused  # off


def test_meaning_puts_its_first_first_only_when_it_is_sure_of_it():
    fused = ["b", "a", "c"]
    sure = {"semantic": [("a", 0.45), ("c", 0.30)], "bm25": [("b", 10.0), ("a", 4.0)]}
    unsure = {"semantic": [("a", 0.45), ("c", 0.40)], "bm25": [("b", 10.0), ("a", 4.0)]}
    assert meaning_first(fused, sure, 0.1) == ["a", "b", "c"]
    assert meaning_first(fused, unsure, 0.1) == fused  # 0.05 above its second: not sure
    assert meaning_first(fused, sure, 0.0) == fused  # off
    # over BM25's sure first (its second at 0.4 of it): the model's lead of 0.15 decides
    assert firsts(fused, sure, {"lead": 0.1}, sure_margin=0.8) == ["a", "b", "c"]
    assert firsts(fused, unsure, {"lead": 0.1}, sure_margin=0.8) == ["b", "a", "c"]


def test_meaning_does_not_overrule_a_bm25_first_twice_its_second():
    fused = ["b", "a", "c"]
    meaning = {"semantic": [("a", 0.45), ("c", 0.30)]}
    far = {**meaning, "bm25": [("b", 10.0), ("a", 4.0)]}  # BM25's second at 0.4 of its first
    near = {**meaning, "bm25": [("b", 10.0), ("a", 6.0)]}  # at 0.6
    alone = {**meaning, "bm25": [("b", 10.0)]}  # nothing second: the words are surest
    assert meaning_first(fused, far, 0.1, unsure=0.5) == fused
    assert meaning_first(fused, alone, 0.1, unsure=0.5) == fused
    assert meaning_first(fused, near, 0.1, unsure=0.5) == ["a", "b", "c"]
    assert meaning_first(fused, far, 0.1) == ["a", "b", "c"]  # the gate off: as before
    assert firsts(fused, far, {"lead": 0.1, "unsure": 0.5}, sure_margin=0.8) == fused


def test_the_shipped_fusion_keeps_a_far_surer_bm25_first():
    from curator.base.config import RetrievalConfig

    w = RetrievalConfig().source_weights
    lists = {"bm25": [("b", 10.0), ("a", 1.5), ("c", 1.0)], "semantic": [("a", 0.55), ("b", 0.41), ("c", 0.40)]}
    assert w["lead"] > 0 and [p for p, _ in fuse(lists, w, RetrievalConfig().sure_margin)][0] == "b"


def test_the_fused_list_keeps_its_scores_when_meaning_reorders_the_first():
    lists = {"bm25": [("b", 10.0), ("a", 4.0), ("c", 3.0)], "semantic": [("a", 0.45), ("c", 0.30), ("b", 0.29)]}
    out = fuse(lists, {"bm25": 1.0, "semantic": 1.0, "lead": 0.1})
    assert [p for p, _ in out][0] == "a" and dict(out)["b"] > dict(out)["a"]  # said by `kept_first`


def test_snowball_meets_forms_the_old_stemmer_missed():
    assert stem("bots") == stem("bot") and stem("labeler") == stem("label")
    assert stem("charging") == stem("charged") == stem("charge")
    assert stem("v2") == "v2" and "pr-123" in terms("see pr-123")


def test_names_are_cut_from_the_middle():
    name = "utilities/utility-002-precommit-hook-autofix.md"
    cut = middle_cut(name, 30)
    assert len(cut) == 30 and cut.startswith("utilities/") and cut.endswith("autofix.md") and "…" in cut
    assert middle_cut("short.md", 30) == "short.md"


def test_text_output_fits_80_columns_and_says_each_hits_own_reasons(make_store, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.delenv("CURATOR_NO_SEMANTIC")
    files = {**LINKED, "README.md": "# Notes\n", "deeply/nested/folder/with-a-long-name-about-deploying-canaries.md":
             "# Deploying canaries\n\nDeploy one canary host first, then the rest.\n"}
    root = make_store(files)
    assert main(["retrieve", "deploy canary", str(root)]) == 0
    out = capsys.readouterr().out.splitlines()
    table = [ln for ln in out if ln[:2].strip().isdigit() or ln.lstrip().startswith("#  memory")]
    assert table and all(len(ln) <= 80 for ln in table)
    assert any("semantic" in ln for ln in table[:1])  # the semantic column is whole, not `sem…`
    reasons = [ln.strip() for ln in out if ln.startswith("    ")]
    hits = sum(1 for ln in table if ln[:2].strip().isdigit())
    assert hits > 1 and all(reasons.count(r) < hits for r in reasons)  # never the same line for every hit
    assert any(r.startswith("every result: prior recency") for r in reasons)  # what they share, said once
    assert any(r.startswith("meaning: semantic #1") for r in reasons)


def test_why_takes_store_relative_and_repository_relative_paths(make_store, capsys, monkeypatch):
    root = make_store({**LINKED, "README.md": "# Notes\n"})
    for given in ("alone.md", "./alone.md", f"{root.name}/alone.md"):
        monkeypatch.chdir(root.parent)
        assert main(["retrieve", "deploy", str(root), "--why", given, "--format", "json"]) == 0
        miss = json.loads(capsys.readouterr().out)["misses"][0]
        assert miss["path"] == "alone.md" and "not in the store" not in miss["reason"], given


def test_why_in_a_repository_takes_a_path_relative_to_its_memory_system(sample_repo_copy, capsys):
    name = "feedback_fixup_not_force_push.md"  # in the sample's .claude/memory
    for given in (name, f".claude/memory/{name}"):
        assert main(["retrieve", "postgres pool size", str(sample_repo_copy), "--why", given, "--format", "json"]) == 0
        miss = json.loads(capsys.readouterr().out)["misses"][0]
        assert miss["path"] == f".claude/memory/{name}", given
        assert "not in any memory system" not in miss["reason"], given
