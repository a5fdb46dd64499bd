"""The explanations people read, in the CLI and the lab alike: each result's own reasons (the
graph's "linked from #2" among them), the words as typed and once, the lab's reason panel."""

from __future__ import annotations

import json
from dataclasses import replace

from curator.base.tokens import FakeTokenCounter
from curator.cli import main
from curator.model import load_store
from curator.reports.retrieval_report import (
    explanations,
    middle_cut,
    rank_cell,
    readable,
    running_sources,
    surface_forms,
)
from curator.retrieval import RetrievalEngine
from curator.tui.screens.lab_text import reason_text, trace_text, why_text
from tests.fake_encoder import use_fake_encoder

LINKED = {
    "memory-index.md": "# Index\n\n| keywords | file |\n|---|---|\n| rollback undo | [rollback](ops/rollback.md) |\n",
    "ops/rollback.md": "# Rollback\n\nUndo a deploy with the rollback script. See [canary](canary.md).\n",
    "ops/canary.md": "# Canary\n\nRelease to one host first and watch the error rate.\n",
    "ops/deploy.md": "# Deploy\n\nDeploy from main after the checks pass.\n",
    "db/pool.md": "# Pool\n\nSize the postgres pool to the worker count.\n",
    # the graph spreads from each list's first three: these keep the canary out of them
    **{f"scripts/s{i}.md": f"# Script {i}\n\nThe rollback script number {i}.\n" for i in range(3)},
}


def _engine(make_store, monkeypatch, graph: float = 0.0):
    use_fake_encoder(monkeypatch)
    store = load_store(make_store(LINKED), token_counter=FakeTokenCounter())
    cfg = store.config.retrieval
    cfg = replace(cfg, source_weights={**cfg.source_weights, "graph": graph})
    return RetrievalEngine(store, config=cfg, semantic=True)


def test_each_result_has_its_own_reasons_never_one_line_for_all(make_store, monkeypatch):
    eng = _engine(make_store, monkeypatch)
    result = eng.search("undo a deploy", k=4)
    reasons, shared = explanations(result)
    assert len(result.hits) >= 3
    lines = [tuple(r) for r in reasons.values()]
    assert len(set(lines)) == len(lines)  # no two results explained alike
    for h in result.hits:
        for line in reasons[h.path]:
            assert sum(line in reasons[o.path] for o in result.hits) < len(result.hits), line
    rollback = reasons["ops/rollback.md"]  # its index row and its text matched, each said where
    assert "index keywords: undo" in rollback and any(ln.startswith("text: deploy undo (bm25 #") for ln in rollback)
    assert any(ln.startswith("meaning: semantic #") and "cosine" in ln for ln in reasons[result.hits[0].path])


def test_the_graph_column_and_its_evidence_when_it_is_on(make_store, monkeypatch):
    eng = _engine(make_store, monkeypatch, graph=1.0)
    result = eng.search("undo a deploy", k=8)
    assert running_sources(result) == ["route", "bm25", "prior", "semantic", "graph"]
    reasons, _ = explanations(result)
    ranks = {h.path: h.rank for h in result.hits}
    linked = [(h, line) for h in result.hits for line in reasons[h.path] if line.startswith("linked from #")]
    assert linked, reasons
    hit, line = linked[0]
    via = result.linked_from[hit.path][0]
    assert line.startswith(f"linked from #{ranks[via]}") and rank_cell(hit, "graph") != "—"
    off = _engine(make_store, monkeypatch).search("undo a deploy", k=8)
    assert "graph" not in running_sources(off)  # off: no column at all, not an empty one


def test_json_gives_every_result_a_semantic_rank_and_score(make_store, monkeypatch, capsys):
    use_fake_encoder(monkeypatch)
    root = make_store(LINKED)
    assert main(["retrieve", "undo a deploy", str(root), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["results"]
    assert rows and all("semantic" in r["sources"] for r in rows)
    assert all(isinstance(r["sources"]["semantic"]["score"], float) for r in rows if r["sources"]["semantic"]["rank"])


def test_why_not_says_the_typed_words_once_and_the_cosine(make_store, monkeypatch):
    eng = _engine(make_store, monkeypatch)
    result = eng.search("deploy session handoff", k=1)  # the engine adds pairs: session-handoff
    assert "session-handoff" in result.terms and result.hits[0].path != "db/pool.md"
    forms = surface_forms(result.query)
    hops = dict(eng.explain("db/pool.md", result.query, result))
    said = readable(hops["bm25"], forms)
    assert said.endswith("(deploy session handoff)"), said  # not "… session handoff session handoff"
    assert hops["semantic"].startswith("meaning: semantic #") and "cosine" in hops["semantic"]
    text = why_text("db/pool.md", list(hops.items()), forms).plain
    assert text.startswith("db/pool.md\nroute: ") and "handoff handoff" not in text
    # each source named once: the reasons that say their source are not labelled again
    assert "\nbm25: no query word" in text and "\nmeaning: semantic #" in text and "semantic: meaning" not in text
    ranked = why_text("x.md", [("route", "not in any index"), ("bm25", "bm25 #15 of 16; its text has services×6")], {})
    assert ranked.plain == "x.md\nroute: not in any index\nbm25 #15 of 16; its text has services×6"


def test_the_lab_reason_panel_names_path_score_every_rank_and_bolds_typed_words(make_store, monkeypatch):
    eng = _engine(make_store, monkeypatch)
    result = eng.search("undo a deploy", k=3)
    forms = surface_forms(result.query)
    reasons, _ = explanations(result, forms)
    hit = result.hits[0]
    text = reason_text(result, hit, reasons[hit.path], forms)
    lines = text.plain.splitlines()
    assert lines[0] == f"#1 {hit.path}"
    assert lines[1] == f"score {hit.score:.4f} · " + " · ".join(f"{s} {rank_cell(hit, s)}" for s in running_sources(result))
    assert lines[2:] == reasons[hit.path]
    bold = {text.plain[s.start:s.end].strip() for s in text.spans if s.style == "bold"}
    assert "deploy" in bold and "text:" not in bold  # the query's words stand out, nothing else
    long = replace(hit, path="a/very/long/folder/name/and-a-very-long-memory-file-name.md")
    assert reason_text(result, long, [], forms, width=40).plain.splitlines()[0] == "#1 " + middle_cut(long.path, 37)


def test_the_route_trace_keeps_each_files_tokens_on_its_line(make_store, monkeypatch):
    eng = _engine(make_store, monkeypatch)
    result = eng.search("rollback undo", k=3)
    assert result.route_steps
    lines = trace_text(result, [], 30).plain.splitlines()
    firsts = [ln for ln in lines if not ln.startswith("  ")][:-1]  # each step's first line; the total last
    assert firsts and all(len(ln) <= 28 for ln in firsts), firsts


def test_the_cli_route_trace_keeps_each_file_on_its_line_at_80_columns(make_store, monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "80")
    long = "deeply/nested/folder/with-a-very-long-name-about-rolling-back-releases.md"
    files = {**LINKED, long: "# Rolling back\n\nUndo a release.\n", "memory-index.md": LINKED["memory-index.md"]
             + f"| rollback undo release revert | [rolling back]({long}) |\n"}
    assert main(["retrieve", "rollback undo release", str(make_store(files))]) == 0
    out = capsys.readouterr().out.splitlines()
    trace = out[next(i for i, ln in enumerate(out) if ln.startswith("route trace")) + 1:]
    trace = [ln for ln in trace if not ln.startswith("prior frequency")]
    assert any(ln.startswith(f"  {long}  ") for ln in trace)  # whole, with its tokens beside it
    assert all(ln.startswith("  ") and len(ln) <= 80 for ln in trace), trace  # why it was opened: below, indented


def test_why_in_a_repository_says_the_fused_rank_the_lab_says(sample_repo_copy, capsys):
    assert main(["retrieve", "postgres pool size", str(sample_repo_copy), "--format", "json"]) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    args = ["retrieve", "postgres pool size", str(sample_repo_copy), "--format", "json"]
    for r in results:  # each as the app completes it: relative to its memory system
        args += ["--why", r["path"].rsplit("/", 1)[-1] if r["path"].startswith(".claude/") else r["path"]]
    name = "feedback_fixup_not_force_push.md"
    assert main([*args, "--why", name]) == 0
    misses = json.loads(capsys.readouterr().out)["misses"]
    for r, miss in zip(results, misses, strict=False):  # the rank in the fused list, not in its own source
        assert miss["path"] == r["path"] and miss["reason"] == f"it was retrieved at rank {r['rank']}", miss
    last = misses[-1]
    assert last["path"] == f".claude/memory/{name}" and [h["hop"] for h in last["hops"]][-1] == "fused"
    assert last["reason"].startswith(".claude/memory: ") and last["reason"].count(".claude/memory: ") == 1
    assert "(postgres pool size)" in last["reason"] and "postgr " not in json.dumps(last)  # as typed, never stems
