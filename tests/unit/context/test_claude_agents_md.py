"""Claude Code as it loads today (the memory page, checked 2026-09-29) and before 2.1.277: AGENTS.md
per folder where no CLAUDE.md file counts, `instructionFiles` and its first name, `claudeMdExcludes`,
the files it never reads, and the rule id on every item."""

from __future__ import annotations

import json
import os

from curator.base.tokens import FakeTokenCounter
from curator.context import build_context

from .test_context_model import build, repo

BEFORE = {"claude-code": "2.1.276"}


def claude(model):
    return model.agents["claude-code"]


def paths(items):
    return [i.path for i in items]


def never(ctx):
    return {u.path: u for u in ctx.never}


def test_a_root_with_only_agents_md_loads_it_today_and_not_before_2_1_277(tmp_path):
    root = repo(tmp_path, {"AGENTS.md": "# Rules\n@docs/style.md\n", "docs/style.md": "style\n"})
    today = claude(build(root, tmp_path))
    assert paths(today.startup) == ["AGENTS.md", "docs/style.md"]
    assert [e.rule for e in today.startup] == ["claude-code/agents-md.fallback@2.1.277", "claude-code/imports.syntax"]
    assert today.version == "2.1.332" and today.chosen_by == "newest known"
    before = build(root, tmp_path, versions=BEFORE)
    assert "claude-code" not in before.agents  # before 2.1.277 an AGENTS.md is no file of Claude Code's
    shown = claude(build(root, tmp_path, versions=BEFORE, agents=["claude-code"]))
    assert shown.startup == [] and shown.version == "2.1.276"
    assert never(shown)["AGENTS.md"].rule == "claude-code/agents-md.unsupported"


def test_a_claude_file_at_the_root_counts_so_agents_md_is_silenced(tmp_path):
    for counting in ("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"):
        root = repo(tmp_path / counting.replace("/", "_"), {counting: "mine\n", "AGENTS.md": "shared\n",
                                                             "pkg/AGENTS.md": "pkg\n"})
        ctx = claude(build(root, tmp_path))
        assert paths(ctx.startup) == [counting]
        gone = never(ctx)
        assert gone["AGENTS.md"].reason.startswith(f"{counting} counts")
        assert gone["pkg/AGENTS.md"].rule == "claude-code/agents-md.nested@2.1.277"  # silenced below it too
        assert "pkg/AGENTS.md" not in paths(ctx.on_demand)


def test_a_claude_md_linked_to_agents_md_is_read_once(tmp_path):
    root = repo(tmp_path, {"AGENTS.md": "one text\n"})
    os.symlink("AGENTS.md", root / "CLAUDE.md")
    for mode in ("claude-md-or-agents-md", "claude-md-and-agents-md"):
        settings(tmp_path, "user", mode)
        ctx = claude(build(root, tmp_path))
        assert paths(ctx.startup) == ["CLAUDE.md"] and not ctx.never


def test_a_bare_agents_md_line_imports_nothing_and_at_agents_md_does(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "AGENTS.md\n", "AGENTS.md": "shared\n"})
    ctx = claude(build(root, tmp_path))
    assert paths(ctx.startup) == ["CLAUDE.md"] and "AGENTS.md" in never(ctx)
    (root / "CLAUDE.md").write_text("@AGENTS.md\n")
    ctx = claude(build(root, tmp_path))
    assert paths(ctx.startup) == ["CLAUDE.md", "AGENTS.md"] and not ctx.never
    assert [(i.importer, i.target, i.status) for i in ctx.imports] == [("CLAUDE.md", "AGENTS.md", "loaded")]


def test_nested_agents_md_on_demand_only_where_no_claude_file_is_at_or_above_it(tmp_path):
    root = repo(tmp_path, {"AGENTS.md": "root\n", "pkg/AGENTS.md": "pkg rules\n@notes.md\n", "pkg/notes.md": "n\n",
                           "svc/CLAUDE.md": "svc\n", "svc/deep/AGENTS.md": "deep\n", "both/CLAUDE.md": "c\n",
                           "both/AGENTS.md": "a\n", "pkg/x.py": "", "svc/deep/y.py": ""})
    m = build(root, tmp_path, for_paths=["pkg/x.py", "svc/deep/y.py"])
    ctx = claude(m)
    assert paths(ctx.startup) == ["AGENTS.md"]
    assert [o.path for o in ctx.for_path["pkg/x.py"]] == ["pkg/AGENTS.md", "pkg/notes.md"]
    assert [o.via for o in ctx.for_path["pkg/x.py"]] == [None, "pkg/AGENTS.md:2"]
    assert [o.path for o in ctx.for_path["svc/deep/y.py"]] == ["svc/CLAUDE.md"]
    gone = never(ctx)
    assert gone["svc/deep/AGENTS.md"].reason.startswith("svc/CLAUDE.md counts")
    assert gone["both/AGENTS.md"].reason.startswith("both/CLAUDE.md counts")
    before = claude(build(root, tmp_path, versions=BEFORE, for_paths=["pkg/x.py"]))
    assert before.for_path["pkg/x.py"] == [] and before.startup == []


def test_files_claude_code_never_reads(tmp_path):
    root = repo(tmp_path, {"AGENTS.md": "a\n", "AGENTS.override.md": "o\n", "AGENTS.local.md": "l\n",
                           ".agents/AGENTS.md": "hidden\n", "pkg/AGENTS.override.md": "po\n"})
    gone = never(claude(build(root, tmp_path)))
    assert sorted(gone) == [".agents/AGENTS.md", "AGENTS.local.md", "AGENTS.override.md", "pkg/AGENTS.override.md"]
    assert {u.rule for u in gone.values()} == {"claude-code/agents-md.not-read@2.1.277"}


def settings(tmp_path, scope, mode=None, **extra):
    """Write Claude Code settings of one scope (user: ~/.claude/settings.json; managed: the
    managed folder the tests pass; project and local in the repository)."""
    data = dict(extra)
    if mode:
        data["pluginConfigs"] = {"agents-md@builtin": {"options": {"instructionFiles": mode}}}
    where = {"user": tmp_path / "home" / ".claude" / "settings.json", "managed": tmp_path / "managed" /
             "managed-settings.json", "project": tmp_path / "repo" / ".claude" / "settings.json",
             "local": tmp_path / "repo" / ".claude" / "settings.local.json"}[scope]
    where.parent.mkdir(parents=True, exist_ok=True)
    where.write_text(json.dumps(data))


def test_instruction_files_setting_from_user_and_managed_settings(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "claude\n", "AGENTS.md": "agents\n", "pkg/CLAUDE.md": "pkg\n",
                           ".claude/rules/always.md": "rule\n"})
    settings(tmp_path, "user", "claude-md-and-agents-md")
    ctx = claude(build(root, tmp_path, managed_dir=str(tmp_path / "managed")))
    assert paths(ctx.startup) == ["CLAUDE.md", "AGENTS.md", ".claude/rules/always.md"]
    assert ctx.settings["instructionFiles"] == {"value": "claude-md-and-agents-md", "from": "user",
                                                "rule": "claude-code/agents-md.setting@2.1.277"}
    settings(tmp_path, "managed", "managed-only")  # managed wins over the user's
    ctx = claude(build(root, tmp_path, managed_dir=str(tmp_path / "managed")))
    assert ctx.startup == [] and paths(ctx.on_demand) == ["pkg/CLAUDE.md"]
    ci = claude(build(root, tmp_path, managed_dir=str(tmp_path / "managed"), env={"CI": "1"}))
    assert paths(ci.startup) == ["CLAUDE.md", ".claude/rules/always.md"]  # CI: neither is read


def test_project_and_local_settings_are_ignored_but_said(tmp_path):
    root = repo(tmp_path, {"AGENTS.md": "agents\n"})
    settings(tmp_path, "project", "claude-md")
    ctx = claude(build(root, tmp_path))
    assert paths(ctx.startup) == ["AGENTS.md"]
    assert ctx.settings["instructionFiles"]["ignored"] == [{"scope": "project", "value": "claude-md"}]
    assert any("ignores it in project settings" in n for n in ctx.notes)


def test_the_first_name_of_the_setting_still_counts(tmp_path):
    root = repo(tmp_path, {"AGENTS.md": "agents\n"})
    settings(tmp_path, "user", projectInstructions="claude")
    ctx = claude(build(root, tmp_path))
    assert ctx.startup == [] and never(ctx)["AGENTS.md"].rule == "claude-code/agents-md.setting@2.1.277"
    assert ctx.settings["instructionFiles"]["value"] == "claude-md"


def test_claude_md_excludes_take_files_out_and_do_not_count(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "generated\n", "AGENTS.md": "agents\n", "gen/CLAUDE.md": "g\n"})
    settings(tmp_path, "project", claudeMdExcludes=[f"{os.path.realpath(root)}/CLAUDE.md", "**/gen/CLAUDE.md"])
    ctx = claude(build(root, tmp_path))
    assert paths(ctx.startup) == ["AGENTS.md"]  # an excluded CLAUDE.md does not silence AGENTS.md
    assert {p: u.rule for p, u in never(ctx).items()} == {"CLAUDE.md": "claude-code/excludes.setting",
                                                          "gen/CLAUDE.md": "claude-code/excludes.setting"}
    assert "gen/CLAUDE.md" not in paths(ctx.on_demand)


def test_a_broken_settings_file_is_said_never_raised(tmp_path):
    root = repo(tmp_path, {"AGENTS.md": "agents\n", ".claude/settings.json": "{not json"})
    ctx = claude(build(root, tmp_path))
    assert paths(ctx.startup) == ["AGENTS.md"] and any("not valid JSON" in n for n in ctx.notes)


def test_json_says_the_version_and_the_rule_of_every_item(tmp_path, capsys, monkeypatch):
    from curator.cli import main

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    root = repo(tmp_path, {"AGENTS.md": "a\n", "AGENTS.override.md": "o\n", "pkg/AGENTS.md": "p\n"})
    (root / ".git").mkdir()
    assert main(["context", str(root), "--agent", "claude-code@2.1.280", "--format", "json"]) == 0
    [agent] = json.loads(capsys.readouterr().out)["agents"]
    assert agent["rules"] == {"version": "2.1.280", "newest": "2.1.332", "chosen_by": "--agent"}
    assert [f["rule"] for f in agent["startup"]["files"]] == ["claude-code/agents-md.fallback@2.1.277"]
    assert all(o["rule"] for o in agent["on_demand"]) and all(u["rule"] for u in agent["never"])
    assert main(["context", str(root), "--agent", "claude-code@2.1.270"]) == 0
    text = capsys.readouterr().out
    assert "rules: Claude Code 2.1.270 (--agent; newest known 2.1.332)" in text
    assert "start-up 0 tokens" in text


def test_a_version_chosen_in_curator_yaml_and_bad_choices(tmp_path, capsys, monkeypatch):
    from curator.cli import main

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    root = repo(tmp_path, {"AGENTS.md": "a\n", ".curator.yaml": "agents:\n  claude-code: {version: 2.1.270}\n"})
    (root / ".git").mkdir()
    model = build_context(root, token_counter=FakeTokenCounter(), env={"HOME": str(tmp_path / "home")})
    assert (claude(model).version, claude(model).chosen_by) == ("2.1.270", ".curator.yaml")
    assert claude(model).startup == []
    assert main(["context", str(root), "--agent", "claude-code@next"]) == 2
    assert "not a version" in capsys.readouterr().err
    assert main(["context", str(root), "--agent", "vim"]) == 2
    assert "unknown agent" in capsys.readouterr().err
    (root / ".curator.yaml").write_text("agents:\n  claude-code: {version: soon}\n  nope: {}\n")
    model = build_context(root, token_counter=FakeTokenCounter(), env={"HOME": str(tmp_path / "home")})
    assert claude(model).version == "2.1.332" and len(model.notes) == 2  # each wrong entry said, left out
    model = build_context(root, token_counter=FakeTokenCounter(), env={"HOME": str(tmp_path / "home")},
                          versions={"claude-code": "2.1.400"})
    assert any("newer than the rules curator knows" in n for n in claude(model).notes)
