"""Roo Code as its loader reads (custom-instructions.ts): the legacy chain `.roorules` then
Cline's `.clinerules` (in a mode too), `AGENT.md` for a missing `AGENTS.md`, `AGENTS.local.md`,
a subfolder's AGENTS.md only with enableSubfolderRules, and your `~/.roo/rules/` first."""

from __future__ import annotations

from .test_context_model import build, repo


def _roo(model):
    ctx = model.agents["roo"]
    return [e.path for e in ctx.startup], [o.path for o in ctx.on_demand], [u.path for u in ctx.never]


def test_without_rule_folders_the_legacy_chain_reaches_clines_files(tmp_path):
    root = repo(tmp_path, {".clinerules": "cline rules\n", ".clinerules-code": "code rules\n",
                           ".roorules-debug": "debug\n", ".clinerules-debug": "debug, cline's\n",
                           "AGENT.md": "the alternative name\n", "AGENTS.local.md": "mine\n",
                           "pkg/AGENTS.md": "a package\n", ".roo/rules-architect/a.md": "plan\n"})
    m = build(root, tmp_path, agents=["roo"])
    startup, on_demand, never = _roo(m)
    assert startup == [".clinerules", "AGENT.md", "AGENTS.local.md"]
    assert on_demand == [".roo/rules-architect/a.md", ".clinerules-code", ".roorules-debug"]
    assert never == [".clinerules-debug", "pkg/AGENTS.md"]
    rules = {e.path: e.rule for e in m.agents["roo"].startup}
    assert {e.path: e.why for e in m.agents["roo"].startup}["AGENT.md"] == "AGENT.md (read by this agent too)"
    assert rules[".clinerules"] == "roo/legacy.cline-file" and rules["AGENTS.local.md"] == "roo/agents-md.local"


def test_a_rule_folder_or_your_own_silences_the_legacy_files(tmp_path):
    files = {".roorules": "legacy\n", "AGENTS.md": "agents\n", "AGENT.md": "not read: AGENTS.md is there\n"}
    m = build(repo(tmp_path, {**files, ".roo/rules/a.md": "rule\n"}), tmp_path, agents=["roo"])
    assert _roo(m)[0] == [".roo/rules/a.md", "AGENTS.md"]
    home = tmp_path / "home"
    (home / ".roo" / "rules").mkdir(parents=True)
    (home / ".roo" / "rules" / "mine.md").write_text("my rule\n")
    other = tmp_path / "other"
    other.mkdir()
    m = build(repo(other, files), tmp_path, agents=["roo"])
    assert _roo(m)[0] == ["AGENTS.md"]  # your ~/.roo/rules/ holds a file: .roorules is not read
    assert [u.path for u in m.agents["roo"].user] == ["~/.roo/rules/mine.md"]
    ci = build(repo(tmp_path / "third", files), tmp_path, agents=["roo"], env={"CI": "1"})
    assert _roo(ci)[0] == [".roorules", "AGENTS.md"] and ci.agents["roo"].user == []


def test_probes_name_your_roo_rules(tmp_path):
    from curator.context.user import probes

    home = tmp_path / "home"
    (home / ".roo" / "rules-code").mkdir(parents=True)
    (home / ".roo" / "rules-code" / "a.md").write_text("a\n")
    got = probes(str(home), str(tmp_path / "repo"), {})
    assert str(home / ".roo") in got and str(home / ".roo" / "rules-code" / "a.md") in got


def test_an_empty_mode_folder_hides_no_legacy_file(tmp_path):
    root = repo(tmp_path, {".roorules-debug": "debug\n", ".roorules-": "no mode\n", ".roo/rules/a.md": "a\n"})
    (root / ".roo" / "rules-debug").mkdir()
    m = build(root, tmp_path, agents=["roo"])
    assert _roo(m)[1] == [".roorules-debug"]


def test_editor_and_system_leftovers_are_not_rules(tmp_path):
    root = repo(tmp_path, {".roo/rules/.DS_Store": "x", ".roo/rules/a.md.swp": "x", ".roo/rules-code/run.log": "x",
                           ".roorules": "legacy\n", ".roorules-code": "code\n", ".roo/rules/Thumbs.db": "x"})
    m = build(root, tmp_path, agents=["roo"])
    assert _roo(m)[:2] == ([".roorules"], [".roorules-code"])  # leftovers alone hide no legacy file
