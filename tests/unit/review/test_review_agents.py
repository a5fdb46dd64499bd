"""`curator review` reports each agent's start-up change from its instruction files, in text,
JSON and markdown, with the numbers `curator context` gives on each side."""

from __future__ import annotations

import json

from curator.cli import main


def _out(capsys, *argv) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def _startup(capsys, root) -> dict:
    data = json.loads(_out(capsys, "context", str(root), "--format", "json"))
    return {a["agent"]: a["startup"]["tokens"] for a in data["agents"]}


def test_review_reports_each_agents_start_up_change(repo, capsys):
    repo.write("CLAUDE.md", "# Project\n\nUse uv.\n")
    repo.write("AGENTS.md", "# Agents\n\nRun the tests.\n")
    repo.commit("instructions")
    before = _startup(capsys, repo.root)
    repo.write("CLAUDE.md", "# Project\n\nUse uv. Run the whole test suite with pytest before every commit, "
               "and keep each module under four hundred lines.\n")
    repo.write(".claude/rules/api.md", "Write every API handler with typed errors; never swallow an exception.\n")
    after = _startup(capsys, repo.root)

    data = json.loads(_out(capsys, "review", str(repo.root), "--format", "json"))
    agents = {a["agent"]: a for a in data["agents"]}
    assert set(agents) == {"claude-code"}  # Codex's AGENTS.md did not change
    cc = agents["claude-code"]
    assert (cc["before"], cc["after"]) == (before["claude-code"], after["claude-code"])
    assert cc["delta"] == after["claude-code"] - before["claude-code"] > 0
    files = {f["path"]: f for f in cc["files"]}
    assert files[".claude/rules/api.md"]["before"] is None and files[".claude/rules/api.md"]["after"] > 0
    assert files["CLAUDE.md"]["after"] > files["CLAUDE.md"]["before"]

    text = _out(capsys, "review", str(repo.root))
    new_rule = files[".claude/rules/api.md"]["after"]
    assert f"claude-code start-up +{cc['delta']:,} tokens: " in text
    assert f".claude/rules/api.md new +{new_rule:,}" in text
    md = _out(capsys, "review", str(repo.root), "--format", "markdown")
    assert f"| claude-code | {cc['before']:,} | {cc['after']:,} | +{cc['delta']:,} |" in md


def test_review_without_instruction_changes_lists_no_agent(repo, capsys):
    repo.write("CLAUDE.md", "# Project\n\nUse uv.\n")
    repo.commit("instructions")
    data = json.loads(_out(capsys, "review", str(repo.root), "--format", "json"))
    assert data["agents"] == []
    assert "start-up" not in _out(capsys, "review", str(repo.root)).split("\n", 1)[1]


def test_an_unchanged_serena_initial_prompt_is_no_change(repo, capsys):
    """The base revision's `.serena/project.yml` is read for real (it decides Serena's start-up):
    adding a memory changes the names, never the prompt."""
    repo.git("rm", "-r", "-q", ".serena")  # a plain store (the fixture's is tiered)
    repo.write(".serena/project.yml", "initial_prompt: |\n  Always read the style memory before you edit.\n"
               "  {{ embed_memory('style') }}\n")
    repo.write(".serena/memories/style.md", "# Style\n\nTabs, never spaces.\n")
    repo.commit("serena")
    repo.write(".serena/memories/arch.md", "# Architecture\n\nThree layers.\n")
    data = json.loads(_out(capsys, "review", str(repo.root), "--format", "json"))
    serena = {a["agent"]: a for a in data["agents"]}["serena"]
    assert [f["path"] for f in serena["files"]] == [".serena/memories"]
    store = next(s for s in data["sources"] if s["source"] == ".serena/memories")
    budget = {b["what"]: b for b in store["budgets"]}["start-up load"]
    assert 0 < budget["after"] - budget["before"] < 30  # one more name, the prompt the same on both sides
