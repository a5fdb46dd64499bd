"""A repository with instruction files and no memory store (issue 30): `curator retrieve` previews
the skills, subagents and agent-requested rules an agent would pick; `curator check` reports a
repository whose only agent files sit where no agent reads them (it used to say "no agent memory
found" and exit 2)."""

from __future__ import annotations

import json

from curator.cli import main

SKILLS = {
    ".claude/skills/deploy/SKILL.md": "---\nname: deploy\ndescription: Deploy the web app to production with the "
                                      "release checklist\n---\nSteps.\n",
    ".claude/agents/reviewer.md": "---\nname: reviewer\ndescription: Review a pull request for security issues\n---\n",
    ".windsurf/rules/i18n.md": "---\ntrigger: model_decision\ndescription: Translations and locale files\n---\nx\n",
}


def run(capsys, monkeypatch, cwd, *argv):
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("CURATOR_NO_SEMANTIC", "1")
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_retrieve_previews_what_agents_pick_where_there_is_no_memory(capsys, monkeypatch, make_store):
    root = make_store(SKILLS, name="repo")
    (root / ".git").mkdir()
    code, out, _ = run(capsys, monkeypatch, root, "retrieve", "deploy to production", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["memory"] is None and data["considered"] == 3
    assert [(p["kind"], p["name"]) for p in data["would_also_load"]] == [("skill", "deploy")]
    code, out, _ = run(capsys, monkeypatch, root, "retrieve", "translations for the locale files")
    said = " ".join(out.split())  # as printed at 80 columns, wrapped between words
    assert code == 0 and "no memory store here" in said and "among 1 skill, 1 subagent, 1 Windsurf rule" in said
    assert "Windsurf rule i18n" in out
    code, out, _ = run(capsys, monkeypatch, root, "retrieve", "quantum chromodynamics")
    assert code == 0 and "nothing matches" in out


def test_retrieve_with_neither_memory_nor_instructions_still_says_so(capsys, monkeypatch, make_store):
    root = make_store({"README.md": "# x\n"}, name="bare")
    (root / ".git").mkdir()
    code, _, err = run(capsys, monkeypatch, root, "retrieve", "anything")
    assert code == 2 and "no agent memory found" in err


def test_check_reports_files_no_agent_reads_where_nothing_else_is(capsys, monkeypatch, make_store):
    # kanatatsu64/monechi2: only backend/.clinerules and frontend/.cursorrules
    root = make_store({"backend/.clinerules": "Read doc/*.md first.\n", "frontend/.cursorrules": "Use pnpm.\n",
                       "backend/main.go": "package main\n"}, name="mono")
    (root / ".git").mkdir()
    code, out, _ = run(capsys, monkeypatch, root, "check", "--format", "json", "--fail-on", "warning")
    data = json.loads(out)
    assert code == 1
    assert [(f["check"], f["path"]) for f in data["findings"]] == [
        ("instructions.misplaced", "backend/.clinerules"), ("instructions.misplaced", "frontend/.cursorrules")]
