"""Cline before and since 4.0 (2026-06-26, the Cline SDK): which rule files, how `paths:` is
read, nested AGENTS.md, workflows' names, and your global rules beside the repository."""

from __future__ import annotations

import pytest

from .test_context_model import build, repo

OLD, NEW = "2026-05", "2026-11"


def _cline(model):
    ctx = model.agents["cline"]
    return ([e.path for e in ctx.startup], [o.path for o in ctx.on_demand], [u.path for u in ctx.never])


FILES = {
    ".clinerules/01-style.md": "tabs\n",
    ".clinerules/api.md": "---\npaths:\n  - src/api/**\n---\nuse the client\n",
    ".clinerules/notes.markdown": "a markdown rule\n",
    ".clinerules/off.md": "---\ndisabled: true\n---\nold advice\n",
    ".clinerules/guides/deep.md": "a guide in a subfolder\n",
    ".clinerules/workflows/release.md": "steps\n",
    ".cline/rules/team.md": "team rule\n",
    ".cline/workflows/deploy.md": "deploy steps\n",
    "AGENTS.md": "root agents\n",
    "pkg/AGENTS.md": "pkg agents\n",
    "src/api/x.ts": "",
}


def test_since_4_0_every_rule_loads_in_every_task_and_paths_is_not_read(tmp_path):
    m = build(repo(tmp_path, FILES), tmp_path, versions={"cline": NEW})
    startup, on_demand, never = _cline(m)
    assert startup == [".clinerules/01-style.md", ".clinerules/api.md", ".clinerules/notes.markdown",
                       ".cline/rules/team.md", "AGENTS.md"]
    assert on_demand == [".clinerules/workflows/release.md", ".cline/workflows/deploy.md"]
    assert sorted(never) == [".clinerules/guides/deep.md", ".clinerules/off.md", "pkg/AGENTS.md"]
    notes = [f for f in m.findings if f.check == "instructions.frontmatter"]
    assert [(f.path, f.line) for f in notes] == [(".clinerules/api.md", 2)]
    whys = {o.path: o.when for o in m.agents["cline"].on_demand}
    assert whys[".cline/workflows/deploy.md"] == "when you run /deploy (workflow)"


def test_before_4_0_paths_make_a_rule_conditional_and_every_agents_md_loads(tmp_path):
    m = build(repo(tmp_path, FILES), tmp_path, versions={"cline": OLD})
    startup, on_demand, never = _cline(m)
    assert startup == [".clinerules/01-style.md", ".clinerules/guides/deep.md", ".clinerules/notes.markdown",
                       ".clinerules/off.md", "AGENTS.md", "pkg/AGENTS.md"]
    assert on_demand == [".clinerules/api.md", ".clinerules/workflows/release.md"]
    assert m.agents["cline"].on_demand[1].when == "when you run /release.md (workflow)"  # the whole name, then
    assert never == []
    assert not [f for f in m.findings if f.check == "instructions.frontmatter"]


def test_your_global_rules_and_agents_md_are_shown_apart(tmp_path):
    home = tmp_path / "home"
    (home / "Documents" / "Cline" / "Rules").mkdir(parents=True)
    (home / "Documents" / "Cline" / "Rules" / "mine.md").write_text("be brief\n")
    (home / ".cline" / "rules").mkdir(parents=True)
    (home / ".cline" / "rules" / "cli.md").write_text("cli prefs\n")
    (home / ".agents").mkdir()
    (home / ".agents" / "AGENTS.md").write_text("everywhere\n")
    root = repo(tmp_path, {".clinerules": "one file of rules\n"})
    m = build(root, tmp_path, versions={"cline": NEW})
    assert [u.path for u in m.agents["cline"].user] == [  # the SDK's order of reading (`@cline/shared` 0.0.86)
        "~/.agents/AGENTS.md", "~/.cline/rules/cli.md", "~/Documents/Cline/Rules/mine.md"]
    assert _cline(m)[0] == [".clinerules"]
    assert m.startup_tokens("cline") == build(root, tmp_path, versions={"cline": NEW}, env={"CI": "1"}).startup_tokens("cline")
    old = build(root, tmp_path, versions={"cline": OLD})
    assert [u.path for u in old.agents["cline"].user] == ["~/Documents/Cline/Rules/mine.md"]


def test_probes_name_clines_global_rules(tmp_path):
    from curator.context.user import probes

    home = tmp_path / "home"
    (home / ".cline" / "rules").mkdir(parents=True)
    (home / ".cline" / "rules" / "a.md").write_text("a\n")
    got = probes(str(home), str(tmp_path / "repo"), {})
    assert str(home / ".cline" / "rules" / "a.md") in got and str(home / ".agents" / "AGENTS.md") in got
    assert str(home / "Documents" / "Cline" / "Rules") in got


def test_since_4_0_a_rule_of_the_same_name_replaces_and_a_broken_one_is_dropped(tmp_path):
    root = repo(tmp_path, {".clinerules/style.md": "old style\n", ".cline/rules/style.md": "new style\n",
                           ".clinerules/odd.md": "---\ndisabled: maybe\n---\ntext\n",
                           ".clinerules/skills/x/SKILL.md": "---\nname: x\n---\nskill\n",
                           ".clinerules/workflows/deep/inner.md": "not a workflow\n"})
    m = build(root, tmp_path, versions={"cline": NEW})
    startup, on_demand, never = _cline(m)
    # the skill is no rule: the SDK shows only its name, in its `skills` tool
    assert startup == [".cline/rules/style.md", ".clinerules/skills/x/SKILL.md"]
    assert on_demand == [".clinerules/skills/x/SKILL.md"] and m.agents["cline"].startup[1].text == "x"
    whys = {u.path: u.reason for u in m.agents["cline"].never}
    assert "replaced by .cline/rules/style.md" in whys[".clinerules/style.md"]
    assert "not true or false" in whys[".clinerules/odd.md"]
    assert not any("skills" in p for p in whys)


def test_a_repository_with_only_cline_rules_is_a_cline_repository(tmp_path):
    m = build(repo(tmp_path, {".cline/rules/team.md": "team rule\n"}), tmp_path)
    assert "cline" in m.agents and _cline(m)[0] == [".cline/rules/team.md"]


def test_check_with_agent_holds_the_instruction_checks_to_that_version(tmp_path, capsys):
    import json

    from curator.cli import main

    root = repo(tmp_path, {".clinerules/a.md": "---\npaths:\n  - src/**\n---\nrule\n", "src/x.ts": "",
                           "CLAUDE.md": "claude\n"})
    assert main(["check", str(root), "--format", "json"]) == 0
    now = json.loads(capsys.readouterr().out)
    assert [f["check"] for f in now["findings"]] == ["instructions.frontmatter"]  # paths: not read since 4.0
    assert main(["check", str(root), "--agent", "cline@2026-05", "--format", "json"]) == 0
    old = json.loads(capsys.readouterr().out)
    assert old["findings"] == [] and [a["agent"] for a in old["agents"]] == ["cline"]
    # Cline's own release numbers read the rows of the day they came out
    assert main(["check", str(root), "--agent", "cline@3.89.2", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["findings"] == []
    assert main(["check", str(root), "--agent", "cline@4.1.13", "--format", "json"]) == 0
    assert [f["check"] for f in json.loads(capsys.readouterr().out)["findings"]] == ["instructions.frontmatter"]
    assert main(["check", str(root), "--agent", "aider"]) == 2
    assert "--agent: unknown agent 'aider'" in capsys.readouterr().err


def test_a_frontmatter_yaml_cannot_read_is_the_reason_even_when_its_lines_say_disabled(tmp_path):
    bomb = "a: &a [x, x]\nb: &b [*a, *a\ndisabled: false\n"  # unclosed: YAML fails, the lines still read
    m = build(repo(tmp_path, {".clinerules/bomb.md": f"---\n{bomb}---\nbody\n"}), tmp_path, versions={"cline": NEW})
    (u,) = m.agents["cline"].never
    assert u.reason == "its frontmatter cannot be read: the SDK drops the rule"


@pytest.mark.parametrize(("asked", "sdk", "newer", "newest"), [
    ("3.89.2", False, False, "4.1.13"), ("3.0", False, False, "4.1.13"), ("4.0.0", True, False, "4.1.13"),
    ("v4.1.13", True, False, "4.1.13"), ("4.2.0", True, True, "4.1.13"),
    ("2026-05", False, False, "2026-11"), ("2026-07", True, False, "2026-11"), ("2026-12", True, True, "2026-11"),
])
def test_a_release_number_reads_the_rows_of_its_day(asked, sdk, newer, newest):
    from curator.agents import rules_for

    rules = rules_for("cline", asked)
    assert rules.version == asked.lstrip("v")  # shown as asked, never as the day it stands for
    assert rules.has("rules.top-level") is sdk and rules.newer_than_known is newer and rules.newest == newest


def test_since_4_0_your_rule_of_the_same_name_replaces_the_projects(tmp_path):
    rules = tmp_path / "home" / "Documents" / "Cline" / "Rules"
    rules.mkdir(parents=True)
    (rules / "style.md").write_text("my style\n", encoding="utf-8")
    root = repo(tmp_path, {".clinerules/style.md": "team style\n", ".clinerules/tests.md": "run the tests\n"})
    now = build(root, tmp_path, versions={"cline": NEW}).agents["cline"]
    assert [e.path for e in now.startup] == [".clinerules/tests.md"]
    (gone,) = [u for u in now.never if u.path == ".clinerules/style.md"]
    assert gone.reason == "replaced by your ~/Documents/Cline/Rules/style.md, a rule of the same name read after it"
    old = build(root, tmp_path, versions={"cline": OLD}).agents["cline"]
    assert sorted(e.path for e in old.startup) == [".clinerules/style.md", ".clinerules/tests.md"]
