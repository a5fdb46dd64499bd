"""`curator tokens` shows each format's own start-up load (`budgets.startup.startup_of`), not the
tiered store's budget: a Claude Code MEMORY.md by its 200-line / 25 KB cap, a plain Serena store by
its memory names (no cap), and no ADR-017 cost table without a keyword index."""

from __future__ import annotations

import json

from curator.base.tokens import default_counter
from curator.budgets.startup import startup_of
from curator.cli import main
from curator.model import load_store


def _json(capsys, root) -> dict:
    assert main(["tokens", str(root), "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_claude_memory_start_up_is_memory_md_with_the_lines_past_its_cap(capsys, tmp_path):
    mem = tmp_path / "home" / ".claude" / "projects" / "-repo" / "memory"  # auto memory (a committed one loads nothing)
    mem.mkdir(parents=True)
    (mem / "a.md").write_text("---\nname: a\ndescription: d\ntype: project\n---\n# A\n")
    (mem / "MEMORY.md").write_text("# Memory\n" + "".join(f"- [t{i}](a.md) — hook {i}\n" for i in range(205)))
    st = startup_of(load_store(mem, token_counter=default_counter()))
    data = _json(capsys, mem)["startup"]
    assert data["tokens"] == st.tokens > 0 and data["budget"] is None and data["past_cap_lines"] == 6
    assert [c["line"] for c in data["past_cap"]] == list(range(201, 207)) and data["over"] is True
    assert main(["tokens", str(mem)]) == 0
    text = capsys.readouterr().out
    assert f"{st.tokens:,} tokens — MEMORY.md" in text and "/ 4,000" not in text
    assert "6 line(s) fall past the cap" in text and "ADR-017 cost model" not in text


def test_a_plain_serena_store_has_no_cap_and_no_lines_past_it(capsys, tmp_path):
    mem = tmp_path / "repo" / ".serena" / "memories"
    mem.mkdir(parents=True)
    (mem / "_index.md").write_text("# Index\n" + "".join(f"- **note_{i}** — a long line about note {i} and more\n"
                                                         for i in range(900)))
    for i in range(3):
        (mem / f"note_{i}.md").write_text(f"# Note {i}\n\nSome text.\n")
    st = startup_of(load_store(mem, token_counter=default_counter()))
    data = _json(capsys, mem)
    assert data["startup"]["tokens"] == st.tokens > 0 and data["startup"]["past_cap"] == []
    assert data["startup"]["cap"] == "no cap" and data["cost_model"] == []
    assert main(["tokens", str(mem)]) == 0
    text = capsys.readouterr().out
    assert "past the cap" not in text and "/ 4,000" not in text and "ADR-017 cost model" not in text


def test_tokens_json_gives_no_finding_counts_it_did_not_check(capsys, sample_repo_copy, monkeypatch):
    # tokens does not run the checks: a source's errors/warnings/infos of 0 beside check's real
    # counts was one number differing between two faces
    monkeypatch.setenv("CURATOR_NO_REPLAY", "1")
    tokens = _json(capsys, sample_repo_copy)["sources"]
    assert main(["check", str(sample_repo_copy), "--format", "json"]) in (0, 1)
    checked = {s["name"]: s for s in json.loads(capsys.readouterr().out)["sources"]}
    assert sum(s["warnings"] + s["errors"] + s["infos"] for s in checked.values()) > 0
    for s in tokens:
        assert not {"errors", "warnings", "infos"} & set(s), s["name"]
        assert s["startup"]["tokens"] == checked[s["name"]]["startup"]["tokens"]
        assert (s["records"], s["tokens"]) == (checked[s["name"]]["records"], checked[s["name"]]["tokens"])


def test_tokens_on_a_repository_of_instruction_files_only_gives_contexts_start_up(capsys, make_store, monkeypatch):
    # pydantic-ai and most corpus repositories hold instruction files and no memory: `check` and
    # `context` run in them, `tokens` said "no agent memory found"
    root = make_store({"AGENTS.md": "# Agents\n\nRun the tests before you push.\n" * 20, "CLAUDE.md": "@AGENTS.md\n",
                       "src/app.py": "", ".git/HEAD": "ref: refs/heads/main\n"}, name="repo")
    monkeypatch.chdir(root)
    assert main(["tokens", "--format", "json"]) == 0
    tokens = json.loads(capsys.readouterr().out)
    assert tokens["sources"] == []
    assert main(["context", "--format", "json"]) in (0, 1)
    context = json.loads(capsys.readouterr().out)
    want = {a["agent"]: a["startup"]["tokens"] for a in context["agents"]}
    assert {a["agent"]: a["startup"]["tokens"] for a in tokens["agents"]} == want and want["claude-code"] > 0
    assert main(["tokens"]) == 0
    text = capsys.readouterr().out
    assert "0 memory systems" in text and f"start-up {want['codex']:,} tok" in text


def test_check_on_a_repository_without_git_reads_its_instruction_files(capsys, make_store):
    # a corpus repository materialized with --no-git: its AGENTS.md was counted as a memory and
    # every source file reported as store.foreign-file
    files = {"AGENTS.md": "# Project\n\nRun `scripts/check.sh` before committing.\n", "CLAUDE.md": "@AGENTS.md\n",
             "scripts/lint.sh": "#!/bin/sh\n", "src/app.py": "print(1)\n", "pyproject.toml": "[project]\n"}
    root = make_store(files, name="export")
    assert main(["check", str(root), "--format", "json"]) in (0, 1)
    data = json.loads(capsys.readouterr().out)
    checks = {f["check"] for f in data["findings"]}
    assert "instructions.missing-path" in checks and "store.foreign-file" not in checks
    assert data["sources"] == []
    with_git = make_store({**files, ".git/HEAD": "ref: refs/heads/main\n"}, name="checkout")
    assert main(["check", str(with_git), "--format", "json"]) in (0, 1)
    assert checks == {f["check"] for f in json.loads(capsys.readouterr().out)["findings"]}


def test_check_with_no_path_in_a_checkout_without_git_reads_its_instruction_files(capsys, make_store, monkeypatch):
    root = make_store({"AGENTS.md": "Run `scripts/check.sh` first.\n", "scripts/lint.sh": "", "src/app.py": ""},
                      name="export")
    monkeypatch.chdir(root)
    assert main(["check", "--format", "json"]) in (0, 1)
    assert [f["check"] for f in json.loads(capsys.readouterr().out)["findings"]] == ["instructions.missing-path"]



def test_agent_chooses_the_agents_and_their_version_as_context_does(capsys, sample_repo_copy):
    def agents(command, *argv):
        assert main([command, str(sample_repo_copy), "--format", "json", *argv]) == 0
        return {a["agent"]: a for a in json.loads(capsys.readouterr().out)["agents"]}

    assert len(agents("tokens")) > 1 and set(agents("tokens", "--agent", "codex")) == {"codex"}
    tokens = agents("tokens", "--agent", "claude-code@2.1.200")["claude-code"]
    context = agents("context", "--agent", "claude-code@2.1.200")["claude-code"]
    assert tokens["version"] == "2.1.200"
    assert tokens["startup"]["tokens"] == context["startup"]["tokens"] > 0  # one number on both screens
    assert main(["tokens", str(sample_repo_copy), "--agent", "nope"]) == 2
    assert "--agent: unknown agent 'nope'" in capsys.readouterr().err
