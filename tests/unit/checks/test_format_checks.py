"""Checks mean the same thing in every format: a clean store of each format is silent, each
kind of drift is named once, and rules a format does not have never fire on it."""

from __future__ import annotations

import json

from curator.base.tokens import FakeTokenCounter
from curator.checks import CHECKS, run_checks
from curator.cli import main
from curator.live.workbench import load_repository
from curator.model import formats as fmts
from curator.model import load_store
from curator.model.loader import LoadOptions


def topic(name: str, kind: str = "feedback") -> str:
    return f"---\nname: {name}\ndescription: when {name} applies\ntype: {kind}\n---\n\n# {name}\n\nRule about {name}.\n"


def claude_files() -> dict[str, str]:
    return {
        "MEMORY.md": "# Memory\n\n## Feedback\n"
        "- [Use nix-shell](feedback_nix_shell.md) — all Python runs inside nix-shell\n"
        "- [TDD](feedback_tdd.md) — tests first, then implementation\n",
        "feedback_nix_shell.md": topic("nix shell"),
        "feedback_tdd.md": topic("tdd"),
    }


def found(make_store, files, name="memory", **kw):
    root = make_store(files, name=name)
    return run_checks(load_store(root, token_counter=FakeTokenCounter()), **kw)


def ids(findings):
    return sorted((f.check, f.path) for f in findings)


def test_every_check_names_its_formats():
    for spec in CHECKS.values():  # the instruction checks read a repository, no memory format
        assert (spec.formats or spec.family in (("context",), ("sessions",))) and spec.formats <= set(fmts.FORMATS), spec.id
    assert not CHECKS["naming.case"].applies_to(fmts.CLAUDE)
    assert not CHECKS["naming.case"].applies_to(fmts.SERENA)
    assert CHECKS["orphan.unindexed"].applies_to(fmts.CLAUDE)


def test_clean_claude_folder_is_silent(make_store):
    assert ids(found(make_store, claude_files())) == []


def test_claude_drift_both_ways(make_store):
    files = claude_files()
    files["MEMORY.md"] += "- [Gone](project_gone.md) — renamed away\n"
    files["project_new_thing.md"] = topic("new thing", "project")
    result = found(make_store, files)
    assert ids(result) == [("index.missing-target", "MEMORY.md"), ("orphan.unindexed", "project_new_thing.md")]
    orphan = [f for f in result if f.check == "orphan.unindexed"][0]
    assert "MEMORY.md does not list this file" in orphan.message


def test_claude_frontmatter_rules(make_store):
    files = claude_files()
    files["feedback_tdd.md"] = "---\nname: tdd\ndescription: tests first\n---\n\nBody\n"
    files["feedback_nix_shell.md"] = "---\nname: n\ndescription: d\nmetadata:\n  type: opinion\n---\nBody\n"
    result = found(make_store, files, only=["frontmatter.missing"])
    messages = sorted(f.message for f in result)
    assert any("lacks `type`" in m for m in messages)
    assert any("'opinion' is not one of" in m for m in messages)


def test_nested_metadata_type_is_accepted(make_store):
    files = claude_files()
    files["feedback_tdd.md"] = "---\nname: tdd\ndescription: d\nmetadata:\n  node_type: memory\n  type: feedback\n---\nB\n"
    assert found(make_store, files, only=["frontmatter.missing"]) == []


def test_lines_past_the_claude_cap_are_named(make_store):
    files = claude_files()
    files["MEMORY.md"] += "".join(f"- note line {i}\n" for i in range(210))
    files["MEMORY.md"] += "- [Late](feedback_late.md) — listed where the agent never reads\n"
    files["feedback_late.md"] = topic("late")
    result = found(make_store, files, only=["budget.past-cap"])
    assert len(result) == 1
    f = result[0]
    assert f.line == 201 and "feedback_late.md" in f.message and "first 200 lines" in f.message


def test_claude_duplicate_hook_is_a_warning_to_merge(make_store):
    files = claude_files()
    files["MEMORY.md"] += "- [TDD again](feedback_tdd.md) — another hook for the same file\n"
    (f,) = found(make_store, files, only=["index.duplicate-entry"])
    assert f.severity.label == "warning" and "merge" in f.message and f.fix.kind == "merge-entry"
    # a fact that refers to the entry (ClashUp's "… See [debugging.md](debugging.md)") is not one
    files["MEMORY.md"] += "Also see [TDD](feedback_tdd.md) in prose.\n- **Tests first**: see [TDD](feedback_tdd.md)\n"
    assert [f.line for f in found(make_store, files, only=["index.duplicate-entry"])] == [f.line]


def test_plain_serena_store_is_one_finding_not_one_per_file(make_store):
    files = {f"topic_{i:02d}.md": f"# Topic {i}\n\nnotes {i}\n" for i in range(25)}  # not dated: no session logs
    files["UPPER_SNAKE_REPORT.md"] = "# Report\n"
    result = found(make_store, files, name="memories")
    assert ids(result) == [("orphan.unindexed", ".")]
    assert "list_memories" in result[0].message and result[0].severity.label == "info"


def test_plain_serena_index_reports_missing_names_and_one_summary(make_store):
    files = {
        "INDEX.md": "# Index\n\n- **project_overview** — goals\n- **ebay_cache_notes** — gone\n",
        "project_overview.md": "# Overview\n",
        "fix_report_20251009.md": "# Fix\n",
    }
    result = found(make_store, files, name="memories")
    assert ids(result) == [("index.missing-target", "INDEX.md"), ("orphan.unindexed", "INDEX.md")]
    summary = [f for f in result if f.check == "orphan.unindexed"][0]
    assert "lists 1 of 2 memories" in summary.message


def test_serena_mem_references(make_store):
    files = {
        "a_note.md": "# A\n\nSee mem:b_note and mem:gone_note.\n",
        "b_note.md": "# B\n",
    }
    result = found(make_store, files, name="memories", only=["links.broken"])
    assert [(f.path, f.target) for f in result] == [("a_note.md", "gone_note")]


def test_a_mem_reference_written_as_an_example_is_not_a_broken_link(make_store):
    # Serena's memory_maintenance.md (perfice, frame-the-world): the format explained by example
    files = {
        "memory_maintenance.md": (
            "# Maintenance\n\n- Memory references must use a mem: prefix inside backticks, e.g. `mem:frontend/core`.\n"
            "- avoid a reference like \"frontend debugging: `mem:frontend/debugging`\" and say more.\n"
            "- Read `mem:gone_note` first. Notes such as `mem:b_note` stay.\n"),
        "b_note.md": "# B\n",
    }
    result = found(make_store, files, name="memories", only=["links.broken"])
    assert [(f.line, f.target) for f in result] == [(5, "gone_note")]


def test_only_the_words_just_before_a_mem_reference_can_make_it_an_example():
    from curator.model.list_index import mem_references

    far = "a line like this one goes on " + "and on " * 12 + "`mem:real_note`"  # "like" 100 characters back
    assert mem_references(far) == [("real_note", 1)]
    many = "see `mem:a_note`, " * 20000  # one long line of references: each looks 80 characters back
    assert len(mem_references(many)) == 20000


def test_links_leaving_a_store_copied_alone_are_not_judged(make_store, tmp_path):
    files = claude_files()
    files["feedback_tdd.md"] += "See [runbook](../../docs/runbook.md) and [code](src/app.py).\n"
    root = make_store(files, name="repo/.claude/memory")
    store = load_store(root)
    assert run_checks(store, {"links.broken"}) == []
    # once the repository is there, the same links are checked against it
    (tmp_path / "repo" / "README.md").write_text("# repo\n")
    (tmp_path / "repo" / "src").mkdir()
    (tmp_path / "repo" / "src" / "app.py").write_text("")
    result = run_checks(load_store(root), {"links.broken"})
    assert [f.message for f in result] == ["link to ../../docs/runbook.md reaches nothing"]


def test_experience_unlisted_entry_and_missing_twin(make_store):
    files = {
        "error-experience/entries/README.md": "# Index\n\n- [2026-01-01-a.md](2026-01-01-a.md)\n",
        "error-experience/entries/2026-01-01-a.md": "Error: a\nRemediation: b\n",
        "error-experience/entries/2026-01-02-b.md": "Error: c\nRemediation: d\n",
        "error-experience/summary/entries/2026-01-01-a.md": "Summary: a\n",
        "error-experience/summary/entries/2026-01-03-c.md": "Summary: orphaned\n",
    }
    result = found(make_store, files, name="docs")
    assert ids(result) == [
        ("experience.unpaired", "error-experience/entries/2026-01-02-b.md"),
        ("experience.unpaired", "error-experience/summary/entries/2026-01-03-c.md"),
        ("orphan.unindexed", "error-experience/entries/2026-01-02-b.md"),
    ]


def test_same_knowledge_in_two_systems_is_found_across_sources(make_store, tmp_path):
    shared = " ".join(f"word{i}" for i in range(80))
    make_store(
        {
            "README.md": "# repo\n",
            ".serena/memories/memory-index.md": "| Keywords | File |\n|---|---|\n",
            ".serena/memories/knowledge/invariants.md": f"# Invariants\n\n{shared}\n",
            ".claude/memory/MEMORY.md": "- [Inv](reference_invariants.md) — ledger invariants\n",
            ".claude/memory/reference_invariants.md": "---\nname: i\ndescription: d\ntype: reference\n---\n"
            f"{shared}\n",
        },
        name="repo",
    )
    repo = load_repository(tmp_path / "repo", LoadOptions(token_counter=FakeTokenCounter()))
    assert [(f.check, f.path, f.target) for f in repo.cross] == [
        ("duplicate.near", ".claude/memory/reference_invariants.md", ".serena/memories/knowledge/invariants.md")
    ] or [(f.check, f.path, f.target) for f in repo.cross] == [
        ("duplicate.near", ".serena/memories/knowledge/invariants.md", ".claude/memory/reference_invariants.md")
    ]
    assert "kept in" in repo.cross[0].message


def test_check_cli_on_a_repository(capsys, make_store, tmp_path):
    make_store(
        {
            ".serena/memories/project_overview.md": "# O\n",
            ".claude/memory/MEMORY.md": "- [Gone](gone.md) — x\n",
        },
        name="repo",
    )
    code = main(["check", str(tmp_path / "repo"), "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1
    assert [(s["name"], s["format"]) for s in data["sources"]] == [
        (".serena/memories", "serena"),
        (".claude/memory", "claude"),
    ]
    assert [(f["check"], f["path"]) for f in data["findings"]] == [
        ("index.missing-target", ".claude/memory/MEMORY.md")
    ]
    code = main(["check", str(tmp_path / "repo")])
    out = capsys.readouterr().out
    assert "2 memory systems" in out and ".claude/memory" in out and "Claude Code memory" in out


def test_tokens_cli_on_a_repository(capsys, make_store, tmp_path):
    make_store({".claude/memory/MEMORY.md": "# M\n", ".serena/memories/a_b.md": "# A\n"}, name="repo")
    assert main(["tokens", str(tmp_path / "repo"), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {s["name"]: s["startup"]["cap"] for s in data["sources"]} == {
        ".serena/memories": "no cap",
        ".claude/memory": "Claude Code's auto memory: first 200 lines or 25 KB of MEMORY.md",  # which agent, which file
    }


def test_retrieve_across_sources_tags_and_deduplicates(capsys, make_store, tmp_path):
    same = "# Ledger invariants\n\nEvery posting balances; amounts are integer minor units; a ledger entry is never edited.\n"
    make_store(
        {
            "README.md": "# repo\n",
            ".serena/memories/ledger_invariants.md": same,
            ".serena/memories/other_note.md": "# Other\n\nnothing about the query here\n",
            ".claude/memory/MEMORY.md": "- [Invariants](reference_invariants.md) — ledger postings balance\n",
            ".claude/memory/reference_invariants.md": same,
            ".claude/memory/feedback_posting.md": "---\nname: p\ndescription: d\ntype: feedback\n---\n"
            "Ledger postings are append-only; correct with a reversing posting.\n",
        },
        name="repo",
    )
    code = main(["retrieve", "ledger posting invariants", str(tmp_path / "repo"), "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["sources"] == [".serena/memories", ".claude/memory"]
    paths = [r["path"] for r in data["results"]]
    # the same text in both systems comes back once, as the Serena copy (precedence)
    assert ".serena/memories/ledger_invariants.md" in paths
    assert ".claude/memory/reference_invariants.md" not in paths
    assert all(r["source"] and r["path"].startswith(r["source"] + "/") for r in data["results"])
    # --source picks one memory system
    main(["retrieve", "ledger posting", str(tmp_path / "repo"), "--source", "claude", "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert data["sources"] == [".claude/memory"]
    assert {r["source"] for r in data["results"]} == {".claude/memory"}
    assert main(["retrieve", "x", str(tmp_path / "repo"), "--source", "nowhere"]) == 2


def test_repository_settings_exclude_and_add(make_store, tmp_path):
    from curator.model.sources import discover

    make_store(
        {
            ".curator.yaml": "sources:\n  exclude: [.claude/memory]\n  add:\n    - path: notes/agent\n"
            "      format: serena\n  precedence: [claude, serena]\n",
            ".claude/memory/MEMORY.md": "# M\n",
            ".serena/memories/a.md": "# A\n",
            "notes/agent/b.md": "# B\n",
        },
        name="repo",
    )
    layout = discover(tmp_path / "repo")
    assert [s.rel for s in layout.sources] == [".serena/memories", "notes/agent"]


def test_odd_repository_settings_are_notes_not_errors(make_store, tmp_path):
    from curator.model.sources import discover

    make_store({".curator.yaml": "sources:\n  exclude: 3\n  add: [[1]]\n", ".serena/memories/a.md": "# A\n"}, name="r")
    layout = discover(tmp_path / "r")
    assert [s.rel for s in layout.sources] == [".serena/memories"] and layout.notes
    make_store({".curator.yaml": "sources: !!python/object:os.system x\n", ".serena/memories/a.md": "# A\n"}, name="r2")
    assert [s.rel for s in discover(tmp_path / "r2").sources] == [".serena/memories"]


def test_plain_serena_summary_says_which_records_it_left_aside(make_store):
    # kynesyslabs/node: 35 records, "lists 14 of 32 memories" — the 3 dated session logs
    # (no index lists a log) were left out without a word
    files = {
        "_index.md": "# Index\n\n- **project_purpose** — what it is\n",
        "project_purpose.md": "# Purpose\n", "l2ps_overview.md": "# L2PS\n",
        **{f"session_2026-01-1{i}_storage_notes.md": f"# Session {i}\n" for i in range(3)},
    }
    summary = [f for f in found(make_store, files, name="memories") if f.check == "orphan.unindexed"][0]
    assert "lists 1 of 2 memories (3 dated session logs aside); 1 is not listed (l2ps_overview)" in summary.message


def test_experience_twins_are_paired_the_same_opened_at_docs_or_at_one_folder(make_store):
    # cklxx/elephant.ai: `curator check docs` named 7 error entries without a summary twin;
    # `curator check docs/error-experience` (paths `entries/…`) named none
    root = make_store({
        "error-experience/entries/README.md": "# Index\n\n- [a](2026-01-01-a.md)\n- [b](2026-01-02-b.md)\n",
        "error-experience/entries/2026-01-01-a.md": "Error: a\nRemediation: b\n",
        "error-experience/entries/2026-01-02-b.md": "Error: c\nRemediation: d\n",
        "error-experience/summary/entries/README.md": "# Index\n\n- [a](2026-01-01-a.md)\n- [z](2026-01-03-z.md)\n",
        "error-experience/summary/entries/2026-01-01-a.md": "Summary: a\n",
        "error-experience/summary/entries/2026-01-03-z.md": "Summary: z\n",
    }, name="docs")

    def unpaired(store_root):
        store = load_store(store_root, token_counter=FakeTokenCounter())
        assert store.format == fmts.EXPERIENCE
        return sorted(f.path for f in run_checks(store, {"experience.unpaired"}))

    assert unpaired(root) == ["error-experience/entries/2026-01-02-b.md", "error-experience/summary/entries/2026-01-03-z.md"]
    assert unpaired(root / "error-experience") == ["entries/2026-01-02-b.md", "summary/entries/2026-01-03-z.md"]
