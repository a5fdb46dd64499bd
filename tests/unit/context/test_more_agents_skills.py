"""Skills as Gemini CLI, Copilot (VS Code), Cline and Roo Code list them, each from its own code;
Gemini's folder trust; Copilot's CLAUDE.md and your personal instructions."""

from __future__ import annotations

import json

from .test_context_model import build, repo


def _skill(name: str, desc: str = "does a thing", extra: str = "") -> str:
    return f"---\nname: {name}\ndescription: {desc}\n{extra}---\n" + "step\n" * 100


def _listed(ctx) -> dict[str, str]:
    return {e.path: e.text for e in ctx.startup if "skill listing" in e.why}


def test_gemini_lists_skills_with_their_path_and_skips_one_without_a_description(tmp_path):
    root = repo(tmp_path, {"GEMINI.md": "root\n", ".gemini/skills/lint/SKILL.md": _skill("lint", "run the linter"),
                           ".agents/skills/lint/SKILL.md": _skill("lint", "run the linter (shared)"),
                           ".gemini/skills/bare/SKILL.md": "---\nname: bare\n---\nno description\n"})
    gemini = build(root, tmp_path, agents=["gemini"], env={"GEMINI_CLI_TRUST_WORKSPACE": "true"}).agents["gemini"]
    assert _listed(gemini) == {".agents/skills/lint/SKILL.md":  # .agents wins the name
                               "- lint: run the linter (shared) (file: .agents/skills/lint/SKILL.md)"}
    (bare,) = [u for u in gemini.never if u.path.endswith("bare/SKILL.md")]
    assert bare.reason == "no description: Gemini CLI skips the skill"
    old = build(root, tmp_path, agents=["gemini"], versions={"gemini": "0.25.0"}).agents["gemini"]
    assert _listed(old) == {}


def _trust(tmp_path, choices: dict) -> None:
    folder = tmp_path / "home" / ".gemini"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "trustedFolders.json").write_text(json.dumps(choices), encoding="utf-8")


def test_gemini_reads_nothing_of_a_folder_you_did_not_trust(tmp_path):
    root = repo(tmp_path, {"GEMINI.md": "root\n", "pkg/GEMINI.md": "nested\n"})
    undecided = build(root, tmp_path, agents=["gemini"]).agents["gemini"]
    assert [e.path for e in undecided.startup] == ["GEMINI.md"]
    assert any("asks whether to trust this folder" in n for n in undecided.notes)
    _trust(tmp_path, {str(tmp_path): "TRUST_FOLDER", str(root): "DO_NOT_TRUST"})  # the longer path decides
    untrusted = build(root, tmp_path, agents=["gemini"]).agents["gemini"]
    assert untrusted.startup == [] and untrusted.on_demand == []
    assert sorted(u.path for u in untrusted.never) == ["GEMINI.md", "pkg/GEMINI.md"]
    assert untrusted.never[0].rule == "gemini/trust.folder@0.28.0"
    _trust(tmp_path, {str(root / "GEMINI.md"): "TRUST_PARENT"})  # trusts the file's folder: the repository
    trusted = build(root, tmp_path, agents=["gemini"]).agents["gemini"]
    assert [e.path for e in trusted.startup] == ["GEMINI.md"] and not any("trust" in n for n in trusted.notes)
    _trust(tmp_path, {str(root): "DO_NOT_TRUST"})
    before = build(root, tmp_path, agents=["gemini"], versions={"gemini": "0.27.0"}).agents["gemini"]
    assert [e.path for e in before.startup] == ["GEMINI.md"]  # no folder trust before 0.28.0


def test_copilot_lists_skills_attaches_claude_md_and_shows_your_instructions(tmp_path):
    root = repo(tmp_path, {".github/copilot-instructions.md": "repo\n", "CLAUDE.md": "claude\n",
                           ".github/skills/deploy/SKILL.md": _skill("deploy", "ship it"),
                           ".claude/skills/hidden/SKILL.md": _skill("hidden", "x", "disable-model-invocation: true\n"),
                           ".agents/skills/nodesc/SKILL.md": "---\nname: nodesc\n---\nbody\n"})
    home = tmp_path / "home" / ".copilot"
    home.mkdir(parents=True)
    (home / "copilot-instructions.md").write_text("be brief\n", encoding="utf-8")
    copilot = build(root, tmp_path, agents=["copilot"]).agents["copilot"]
    assert [e.path for e in copilot.startup][:2] == [".github/copilot-instructions.md", "CLAUDE.md"]
    assert _listed(copilot) == {".github/skills/deploy/SKILL.md": "- deploy: ship it (file: .github/skills/deploy/SKILL.md)"}
    whens = {o.path: o.when for o in copilot.on_demand}
    assert whens[".claude/skills/hidden/SKILL.md"] == "only when you type /hidden (disable-model-invocation)"
    assert whens[".agents/skills/nodesc/SKILL.md"] == "only when you type /nodesc (no description: never listed)"
    assert [(u.path, u.text) for u in copilot.user] == [("~/.copilot/copilot-instructions.md", "be brief\n")]


def test_cline_lists_names_only_since_4_0_and_name_and_description_before(tmp_path):
    root = repo(tmp_path, {".clinerules/a.md": "rule\n", ".cline/skills/deploy/SKILL.md": _skill("deploy", "ship it"),
                           ".claude/skills/review/SKILL.md": _skill("review", "review it"),
                           ".clinerules/skills/wrong/SKILL.md": _skill("not-wrong", "named otherwise")})
    now = build(root, tmp_path, agents=["cline"]).agents["cline"]
    assert _listed(now) == {".cline/skills/deploy/SKILL.md": "deploy", ".clinerules/skills/wrong/SKILL.md": "not-wrong"}
    v3 = build(root, tmp_path, agents=["cline"], versions={"cline": "3.60.0"})
    assert _listed(v3.agents["cline"]) == {".claude/skills/review/SKILL.md": "- review: review it",
                                          ".cline/skills/deploy/SKILL.md": "- deploy: ship it"}
    (f,) = [f for f in v3.findings if f.path == ".clinerules/skills/wrong/SKILL.md"]
    assert f.message == "Cline: its name 'not-wrong' is not its folder's name 'wrong': the skill is skipped without a word"
    assert _listed(build(root, tmp_path, agents=["cline"], versions={"cline": "3.50.0"}).agents["cline"]) == {}


def test_roo_lists_skills_of_every_mode_and_of_one_mode_and_drops_a_misnamed_one(tmp_path):
    root = repo(tmp_path, {".roo/rules/a.md": "rule\n", ".roo/skills/deploy/SKILL.md": _skill("deploy", "ship it"),
                           ".roo/skills-code/refactor/SKILL.md": _skill("refactor", "tidy code"),
                           ".agents/skills/Bad_Name/SKILL.md": _skill("Bad_Name", "x")})
    m = build(root, tmp_path, agents=["roo"])
    roo = m.agents["roo"]
    assert _listed(roo) == {".roo/skills/deploy/SKILL.md": "- deploy: ship it (file: .roo/skills/deploy/SKILL.md)"}
    whens = {o.path: o.when for o in roo.on_demand}
    assert whens[".roo/skills-code/refactor/SKILL.md"].startswith("listed when you work in the code mode")
    (bad,) = [u for u in roo.never if "Bad_Name" in u.path]
    assert bad.reason == "its name 'Bad_Name' is not lowercase words joined by hyphens: Roo Code skips the skill"


def _codex_config(tmp_path, text: str) -> None:
    folder = tmp_path / "home" / ".codex"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.toml").write_text(text, encoding="utf-8")


def test_codex_reads_your_fallback_names_and_cap_and_a_trusted_projects_config(tmp_path):
    root = repo(tmp_path, {"TEAM.md": "team rules\n" * 50, "pkg/AGENTS.md": "pkg\n",
                           ".codex/config.toml": "project_doc_max_bytes = 100\n"})
    plain = build(root, tmp_path, agents=["codex"]).agents["codex"]
    assert plain.startup == [] and any("~/.codex/config.toml marks none" in n for n in plain.notes)  # no config: none trusted
    _codex_config(tmp_path, 'project_doc_fallback_filenames = ["TEAM.md"]\n')
    codex = build(root, tmp_path, agents=["codex"]).agents["codex"]
    assert [e.path for e in codex.startup] == ["TEAM.md"] and codex.startup[0].cut is None
    assert any("does not mark this one" in n for n in codex.notes)  # the project's config is not read: not trusted
    _codex_config(tmp_path, f'project_doc_fallback_filenames = ["TEAM.md"]\n[projects."{root}"]\n'
                            'trust_level = "trusted"\n')
    trusted = build(root, tmp_path, agents=["codex"])
    assert trusted.agents["codex"].startup[0].cut.kept_bytes == 100  # the project's cap applies
    assert any(f.check == "instructions.cap" for f in trusted.findings)
    _codex_config(tmp_path, 'project_doc_fallback_filenames = ["TEAM.md"]\nproject_doc_max_bytes = 0\n')
    off = build(root, tmp_path, agents=["codex"]).agents["codex"]
    assert off.startup == [] and sorted(u.path for u in off.never) == ["TEAM.md", "pkg/AGENTS.md"]
    _codex_config(tmp_path, "project_doc_max_bytes = [\n")
    broken = build(root, tmp_path, agents=["codex"]).agents["codex"]
    assert any("is not valid TOML" in n for n in broken.notes) and broken.startup == []


def test_codex_reads_no_project_agents_md_in_a_project_you_marked_untrusted_since_0_150(tmp_path):
    root = repo(tmp_path, {"AGENTS.md": "root\n", "pkg/AGENTS.md": "pkg\n"})
    _codex_config(tmp_path, f'[projects."{root}"]\ntrust_level = "untrusted"\n')
    codex = build(root, tmp_path, agents=["codex"]).agents["codex"]
    assert codex.startup == [] and codex.on_demand == []
    assert {(u.path, u.rule) for u in codex.never} == {("AGENTS.md", "codex/project.trust@0.150.0"),
                                                       ("pkg/AGENTS.md", "codex/project.trust@0.150.0")}
    assert "you marked this project untrusted" in codex.never[0].reason
    old = build(root, tmp_path, agents=["codex"], versions={"codex": "0.149.0"}).agents["codex"]
    assert [e.path for e in old.startup] == ["AGENTS.md"]
    _codex_config(tmp_path, "")  # a project never asked about: not assumed untrusted
    assert [e.path for e in build(root, tmp_path, agents=["codex"]).agents["codex"].startup] == ["AGENTS.md"]


def test_roo_pastes_rooignore_into_its_rules_and_runs_commands_by_name(tmp_path):
    root = repo(tmp_path, {".roo/rules/a.md": "rule\n", ".rooignore": "secrets/\n*.pem\n",
                           ".roo/commands/release.md": "---\ndescription: cut a release\n---\nsteps\n"})
    roo = build(root, tmp_path, agents=["roo"]).agents["roo"]
    assert [e.path for e in roo.startup] == [".roo/rules/a.md", ".rooignore"]
    assert {o.path: o.when for o in roo.on_demand}[".roo/commands/release.md"] == "when you type /release (command)"


def test_claude_code_leaves_block_html_comments_out_since_2_1_72(tmp_path):
    from curator.context.parse import strip_block_comments

    text = ("# Project\n<!-- for maintainers:\nregenerate with make docs -->\nUse tabs.\n```\n<!-- shown in code -->\n"
            "```\nInline <!-- stays --> here.\n")
    assert strip_block_comments(text) == "# Project\nUse tabs.\n```\n<!-- shown in code -->\n```\nInline <!-- stays --> here.\n"
    root = repo(tmp_path, {"CLAUDE.md": text})
    now = build(root, tmp_path, agents=["claude-code"]).agents["claude-code"].startup[0]
    old = build(root, tmp_path, agents=["claude-code"], versions={"claude-code": "2.1.71"}).agents["claude-code"].startup[0]
    assert now.bytes == old.bytes == len(text) and "maintainers" not in now.text and "maintainers" in old.text
    assert now.tokens < old.tokens


def test_gemini_lists_the_subagents_you_acknowledge(tmp_path):
    root = repo(tmp_path, {"GEMINI.md": "root\n",
                           ".gemini/agents/reviewer.md": "---\nname: reviewer\ndescription: reviews a change\n---\nbody\n",
                           ".gemini/agents/_draft.md": "---\nname: draft\ndescription: not yet\n---\nbody\n",
                           ".gemini/agents/nameless.md": "---\ndescription: no name\n---\nbody\n"})
    gemini = build(root, tmp_path, agents=["gemini"], env={"GEMINI_CLI_TRUST_WORKSPACE": "true"}).agents["gemini"]
    subs = [e for e in gemini.startup if "subagent" in e.why]
    assert [(e.path, e.text) for e in subs] == [(".gemini/agents/reviewer.md", "<subagent><name>reviewer</name>"
                                                 "<description>reviews a change</description></subagent>")]
    assert any("acknowledged" in n for n in gemini.notes)
    assert not [e for e in build(root, tmp_path, agents=["gemini"], versions={"gemini": "0.35.0"})
                .agents["gemini"].startup if "subagent" in e.why]


def test_a_broken_skill_many_agents_read_is_one_finding_and_codex_drops_what_it_cannot_parse(tmp_path):
    root = repo(tmp_path, {"AGENTS.md": "x\n", ".cursor/rules/a.mdc": "x\n", ".github/copilot-instructions.md": "x\n",
                           ".agents/skills/broken/SKILL.md": "---\nname: broken\ndescription: never closed\nbody\n",
                           ".agents/skills/listy/SKILL.md": "---\nname: [a, b]\ndescription: fine\n---\nbody\n",
                           ".agents/skills/bare/SKILL.md": "just a body\n",
                           ".agents/skills/manual/SKILL.md": "---\nname: manual\ndescription: Use when: asked\n"
                                                             "disable-model-invocation: true\n---\nbody\n"})
    m = build(root, tmp_path)
    broken = [f for f in m.findings if f.path == ".agents/skills/broken/SKILL.md"]
    assert len(broken) == 2  # Codex drops it; the others list it by its folder's name: one finding each way
    assert any(f.message.startswith("Codex: no frontmatter it can read") for f in broken)
    assert any(f.message.startswith("Cursor, GitHub Copilot: ") for f in broken)
    codex = {e.path for e in m.agents["codex"].startup}
    assert ".agents/skills/broken/SKILL.md" not in codex and ".agents/skills/listy/SKILL.md" not in codex
    assert ".agents/skills/bare/SKILL.md" not in codex
    whens = {o.path: o.when for o in m.agents["cursor"].on_demand}
    assert whens[".agents/skills/manual/SKILL.md"].startswith("only when you type /manual")  # read line by line


def test_codex_reads_the_projects_config_through_the_repository_never_through_a_link_out(tmp_path):
    outside = tmp_path / "outside.toml"
    outside.write_text("project_doc_max_bytes = 7\n", encoding="utf-8")
    root = repo(tmp_path, {"AGENTS.md": "rules\n" * 20})
    (root / ".codex").mkdir()
    (root / ".codex" / "config.toml").symlink_to(outside)
    _codex_config(tmp_path, f'project_doc_max_bytes = "32k"\n[projects."{root}"]\ntrust_level = "trusted"\n')
    m = build(root, tmp_path, agents=["codex"])
    assert m.agents["codex"].startup[0].cut is None  # the 7 bytes beyond the repository never apply
    assert any(f.check == "instructions.symlink-outside" for f in m.findings)
    assert any("'32k' is not a byte count: Codex refuses to start" in n for n in m.agents["codex"].notes)


def test_gemini_trust_reads_commented_json_and_says_when_gemini_would_refuse_to_start(tmp_path):
    root = repo(tmp_path, {"GEMINI.md": "root\n"})
    folder = tmp_path / "home" / ".gemini"
    folder.mkdir(parents=True)
    (folder / "trustedFolders.json").write_text(f'{{\n  // my choice\n  "{root}": "DO_NOT_TRUST"\n}}\n')
    assert build(root, tmp_path, agents=["gemini"]).agents["gemini"].startup == []
    (folder / "trustedFolders.json").write_text('["not", "an", "object"]')
    gemini = build(root, tmp_path, agents=["gemini"]).agents["gemini"]
    assert [e.path for e in gemini.startup] == ["GEMINI.md"]
    assert any("refuses to start while ~/.gemini/trustedFolders.json is not a JSON object" in n for n in gemini.notes)


def test_a_kept_run_is_keyed_by_the_variable_that_trusts_every_gemini_folder():
    from curator.base.kept import ENV_NAMES, ENV_PREFIXES

    assert any("GEMINI_CLI_TRUST_WORKSPACE".startswith(p) for p in ENV_PREFIXES) or \
        "GEMINI_CLI_TRUST_WORKSPACE" in ENV_NAMES


def test_gemini_shows_the_context_of_the_extensions_enabled_here(tmp_path):
    root = repo(tmp_path, {"GEMINI.md": "root\n"})
    ext = tmp_path / "home" / ".gemini" / "extensions"
    for name, manifest, files in (("lint", {"name": "lint"}, {"GEMINI.md": "lint context\n"}),
                                  ("docs", {"name": "docs", "contextFileName": ["DOCS.md", "../escape.md"]},
                                   {"DOCS.md": "docs context\n"}),
                                  ("off", {"name": "off"}, {"GEMINI.md": "never here\n"})):
        (ext / name).mkdir(parents=True)
        (ext / name / "gemini-extension.json").write_text(json.dumps(manifest), encoding="utf-8")
        for rel, text in files.items():
            (ext / name / rel).write_text(text, encoding="utf-8")
    (ext / "escape.md").write_text("outside the extension\n", encoding="utf-8")
    (ext / "extension-enablement.json").write_text(json.dumps({"off": {"overrides": [f"!{root}/*"]}}))
    gemini = build(root, tmp_path, agents=["gemini"]).agents["gemini"]
    assert [u.path for u in gemini.user] == ["~/.gemini/extensions/docs/DOCS.md", "~/.gemini/extensions/lint/GEMINI.md"]
    assert any("extension off is turned off for this folder" in n for n in gemini.notes)
    from curator.context.gemini_extensions import enabled

    assert enabled({"x": {"overrides": ["!/a/*", "/a/b/"]}}, "x", "/a/b") and not enabled(
        {"x": {"overrides": ["!/a/*"]}}, "x", "/a/c")


def test_files_nested_past_pythons_depth_and_many_wildcards_read_as_broken_never_hang():
    import time

    from curator.context.codex_config import _parse
    from curator.context.gemini_extensions import _wild
    from curator.context.user import json_value

    notes: list[str] = []
    assert _parse("a = " + "[" * 5000 + "]" * 5000, notes, ".codex/config.toml") == {}
    assert "is not valid TOML" in notes[0]
    assert json_value("[" * 100_000 + "]" * 100_000) is None
    started = time.perf_counter()
    assert not _wild("*a" * 40 + "b", "a" * 20_000)  # a regex would backtrack for ever here
    assert time.perf_counter() - started < 1
    assert _wild("/a/*", "/a/b/") and _wild("*x*y*", "axbyc") and not _wild("*x*y", "ayx")


def test_a_repositorys_settings_nested_past_pythons_depth_read_as_broken(tmp_path):
    deep = "[" * 100_000 + "]" * 100_000
    root = repo(tmp_path, {"CLAUDE.md": "project\n", ".claude/settings.json": deep, ".gemini/settings.json": deep,
                           "GEMINI.md": "root\n"})
    home = tmp_path / "home" / ".gemini"
    home.mkdir(parents=True, exist_ok=True)
    (home / "projects.json").write_text(deep)
    m = build(root, tmp_path, agents=["claude-code", "gemini"], env={"GEMINI_CLI_TRUST_WORKSPACE": "true"})
    assert any(".claude/settings.json is not valid JSON" in n for n in m.agents["claude-code"].notes)
    assert [e.path for e in m.agents["gemini"].startup] == ["GEMINI.md"]


def test_codex_names_the_hooks_that_print_into_its_context_yours_and_a_trusted_projects(tmp_path):
    import json as _json

    hooks = {"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "cat .codex/today.md"}]}],
                       "PreToolUse": [{"hooks": [{"type": "command", "command": "./guard.sh"}]}]}}
    root = repo(tmp_path, {"AGENTS.md": "x\n", ".codex/hooks.json": _json.dumps(hooks), ".codex/today.md": "t\n"})
    _codex_config(tmp_path, '[[hooks.UserPromptSubmit]]\n[[hooks.UserPromptSubmit.hooks]]\ntype = "command"\n'
                            'command = "date"\n')
    notes = [n for n in build(root, tmp_path, agents=["codex"]).agents["codex"].notes if "hook" in n]
    assert any(n.startswith("a UserPromptSubmit hook in ~/.codex/config.toml runs `date`: what it prints joins "
                            "the context with every prompt, once you trust the hook") for n in notes)
    assert not any("guard.sh" in n for n in notes)  # the project's hooks: not trusted
    assert ".codex/hooks.json holds hooks Codex runs only in a project you trust (this one is not marked trusted)" in notes
    _codex_config(tmp_path, f'[projects."{root}"]\ntrust_level = "trusted"\n')
    trusted = [n for n in build(root, tmp_path, agents=["codex"]).agents["codex"].notes if " hook in " in n]
    assert trusted == ["a SessionStart hook in .codex/hooks.json runs `cat .codex/today.md`: what it prints joins the "
                       "context at start-up, once you trust the hook (not counted: known only when it runs; over "
                       "2,500 tokens the rest goes to a file)",
                       "a PreToolUse hook in .codex/hooks.json runs `./guard.sh`: what it prints joins the context "
                       "before a tool runs, once you trust the hook (not counted: known only when it runs; over "
                       "2,500 tokens the rest goes to a file)"]  # PreToolUse additionalContext since 0.129.0
    older = build(root, tmp_path, agents=["codex"], versions={"codex": "0.128.0"}).agents["codex"].notes
    assert [n for n in older if " hook in " in n] == [trusted[0].replace("; over 2,500 tokens the rest goes to a file",
                                                                         "")]  # the spill came with 0.129.0
    assert not [n for n in build(root, tmp_path, agents=["codex"], versions={"codex": "0.120.0"}).agents["codex"].notes
                if " hook in " in n]
