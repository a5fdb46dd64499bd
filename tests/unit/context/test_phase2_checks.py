"""Issue 30's instruction checks, on the shapes met in real repositories (each test names one)
and on the look-alikes a maintainer would not want flagged."""

from __future__ import annotations

import os

import pytest

from .test_context_model import build, repo


def found(model, check):
    return [(f.path, f.line) for f in model.findings if f.check == check]


def messages(model, check):
    return [f.message for f in model.findings if f.check == check]


# -- nested imports: checked like root ones -------------------------------------------------

def test_nested_cycle_depth_and_outside_imports_are_findings_on_the_nested_file(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "# root\n", "pkg/CLAUDE.md": "@a.md\n@~/notes.md\n", "pkg/a.md": "@b.md\n",
                           "pkg/b.md": "@c.md\n", "pkg/c.md": "@d.md\n", "pkg/d.md": "@e.md\n", "pkg/e.md": "e\n",
                           "lib/CLAUDE.md": "@x.md\n", "lib/x.md": "@CLAUDE.md\n"})
    m = build(root, tmp_path)
    assert found(m, "instructions.import-depth") == [("pkg/d.md", 1)]
    assert found(m, "instructions.import-outside") == [("pkg/CLAUDE.md", 2)]
    assert found(m, "instructions.import-cycle") == [("lib/x.md", 1)]


def test_a_nested_file_read_twice_is_one_finding(tmp_path):
    # gear-nest: three service CLAUDE.md import the same file; a broken import there is said once
    root = repo(tmp_path, {"CLAUDE.md": "# root\n", "AGENTS.md": "@docs/gone.md\n",
                           "api/CLAUDE.md": "@../AGENTS.md\n", "web/CLAUDE.md": "@../AGENTS.md\n"})
    assert found(build(root, tmp_path), "instructions.import-broken") == [("AGENTS.md", 1)]


# -- skills and subagents without a usable name or description ------------------------------

def test_a_subagent_without_frontmatter_is_never_registered(tmp_path):
    # takerun2002/Lp_builder_pro: `## Model opus` and `## Tools` as sections of the body
    root = repo(tmp_path, {".claude/agents/implementer.md": "# Implementer\n\n## Model\nopus\n",
                           ".claude/agents/named.md": "---\ndescription: only a description\n---\nx\n",
                           ".claude/agents/ok.md": "---\nname: ok\ndescription: Reviews diffs\n---\nx\n"})
    ctx = build(root, tmp_path).agents["claude-code"]
    assert [x.path for x in ctx.listing] == [".claude/agents/ok.md"]
    never = {u.path: u for u in ctx.never}
    assert never[".claude/agents/implementer.md"].rule == "claude-code/subagents.required"
    assert "no `name:` in its frontmatter" in never[".claude/agents/named.md"].reason
    assert [p for p, _ in found(build(root, tmp_path), "instructions.no-description")] == [
        ".claude/agents/implementer.md", ".claude/agents/named.md"]


def test_a_skill_is_flagged_only_when_nothing_says_when_to_use_it(tmp_path):
    root = repo(tmp_path, {".claude/skills/title/SKILL.md": "# Drizzle\n\nSee the docs.\n",
                           ".claude/skills/empty/SKILL.md": "---\nname: empty\n---\n",
                           ".claude/skills/prose/SKILL.md": "Use this skill whenever a migration touches the schema.\n",
                           ".claude/skills/broken/SKILL.md": "---\nname: a\n  b: c\n---\nx\n"})  # YAML twice over
    m = build(root, tmp_path)
    assert [p for p, _ in found(m, "instructions.no-description")] == [
        ".claude/skills/empty/SKILL.md", ".claude/skills/title/SKILL.md"]
    assert found(m, "instructions.frontmatter") == [(".claude/skills/broken/SKILL.md", 3)]  # said once, there



def test_copilot_instructions_without_frontmatter_say_what_vs_code_does_as_the_context_view_does(tmp_path):
    # dotnet/aspire's test-review-guidelines.instructions.md: VS Code lists its path for the model
    root = repo(tmp_path, {".github/instructions/flaky.instructions.md": "# Flaky tests\n\nWatch for sleeps.\n"})
    m = build(root, tmp_path)
    (said,) = messages(m, "instructions.no-description")
    ctx = m.agents["copilot"]
    why = next(e.when for e in ctx.on_demand if e.path.endswith("flaky.instructions.md"))
    assert "read from the list by the model" in why and "lists only its path" in said
    assert "only when attached by hand (" not in said

# -- files where no agent looks -------------------------------------------------------------

@pytest.mark.parametrize("rel", [".cursor/rules", ".windsurf/rules", ".devin/rules", ".claude/rules", ".kiro/steering"])
def test_every_rule_folder_that_is_a_file_is_misplaced(tmp_path, rel):
    root = repo(tmp_path, {rel: "# rules\n\nbe brief\n"})
    [(path, _)] = found(build(root, tmp_path), "instructions.misplaced")
    assert path == rel


def test_root_only_files_below_the_root_except_vendored_hidden_and_submodules(tmp_path):
    root = repo(tmp_path, {"backend/.clinerules": "x\n", "frontend/.cursorrules": "x\n", "app/.windsurfrules": "x\n",
                           "vendor/lib/.cursorrules": "x\n", "examples/demo/.clinerules": "x\n",
                           ".agents/skills/x/.cursorrules": "x\n", "sub/.git": "gitdir: ../.git/modules/sub\n",
                           "sub/.clinerules": "x\n", "empty/.cursorrules": ""})
    assert [p for p, _ in found(build(root, tmp_path), "instructions.misplaced")] == [
        "app/.windsurfrules", "backend/.clinerules", "frontend/.cursorrules"]


def test_root_skills_folder_of_a_project_but_not_of_a_plugin(tmp_path):
    project = repo(tmp_path / "a", {"CLAUDE.md": "# P\n", "skills/deploy/SKILL.md": "---\ndescription: d\n---\n"})
    assert found(build(project, tmp_path), "instructions.misplaced") == [("skills/deploy/SKILL.md", None)]
    plugin = repo(tmp_path / "b", {"CLAUDE.md": "# P\n", ".claude-plugin/plugin.json": "{}",
                                   "skills/deploy/SKILL.md": "---\ndescription: d\n---\n"})
    assert found(build(plugin, tmp_path), "instructions.misplaced") == []
    no_claude = repo(tmp_path / "c", {"skills/deploy/SKILL.md": "---\ndescription: d\n---\n", "AGENTS.md": "x\n"})
    assert found(build(no_claude, tmp_path), "instructions.misplaced") == []


def test_copilot_files_outside_their_folder(tmp_path):
    root = repo(tmp_path, {".github/copilot-instructions/docs.instructions.md": "---\napplyTo: '**'\n---\nx\n",
                           ".github/instructions/naming.md": "---\napplyTo: '**'\n---\nx\n",
                           ".github/instructions/README.md": "# About these\n",
                           ".github/rules.md": "---\napplyTo: 'src/**'\n---\nx\n",
                           ".github/pull_request_template.md": "## Summary\n",
                           ".copilot-tracking/plans/p.instructions.md": "---\napplyTo: x\n---\nplan\n"})
    got = {f.path: f.fix.new if f.fix else None for f in build(root, tmp_path).findings
           if f.check == "instructions.misplaced"}
    assert got == {".github/copilot-instructions/docs.instructions.md": ".github/instructions/docs.instructions.md",
                   ".github/instructions/naming.md": ".github/instructions/naming.instructions.md",
                   ".github/rules.md": ".github/instructions/rules.instructions.md"}


def test_an_mdc_outside_a_rules_folder(tmp_path):
    root = repo(tmp_path, {"docs/.cursor/rules.mdc": "---\nalwaysApply: true\n---\nx\n",
                           "templates/x.mdc": "x\n"})
    got = {f.path: f.fix.new if f.fix else None for f in build(root, tmp_path).findings
           if f.check == "instructions.misplaced"}
    assert got == {"docs/.cursor/rules.mdc": "docs/.cursor/rules/rules.mdc"}


def test_nested_cursor_rules_apply_under_their_folder(tmp_path):
    root = repo(tmp_path, {"app/src/.cursor/rules/ui.mdc": "---\nglobs: '**/*.tsx'\n---\nx\n",
                           "app/src/.cursor/rules/all.mdc": "---\nalwaysApply: true\n---\ny\n",
                           "app/src/a.tsx": "x\n", "other.tsx": "x\n"})
    ctx = build(root, tmp_path, for_paths=["app/src/a.tsx", "other.tsx"]).agents["cursor"]
    assert [o.path for o in ctx.for_path["app/src/a.tsx"]] == ["app/src/.cursor/rules/all.mdc",
                                                               "app/src/.cursor/rules/ui.mdc"]
    assert ctx.for_path["other.tsx"] == [] and ctx.startup == []


# -- an AGENTS.md Claude Code never reads ---------------------------------------------------

AGENTS = "# Rules\n\n- Never read .env.\n- Check ownership in handlers.\n- Migrations for schema changes.\n"


def test_a_claude_md_holding_other_guidance_silences_agents_md(tmp_path):
    # neelesh1206/gear-nest: the root CLAUDE.md imports nothing; AGENTS.md reaches Claude only on demand
    root = repo(tmp_path, {"CLAUDE.md": "# Conventions\n\n- Rust\n- Java\n", "AGENTS.md": AGENTS,
                           "api/CLAUDE.md": "@../AGENTS.md\n", "api/x.java": ""})
    [msg] = messages(build(root, tmp_path), "instructions.agents-md-unread")
    assert "it reaches Claude only with the subfolders' CLAUDE.md files" in msg and "import it with @AGENTS.md" in msg
    old = messages(build(root, tmp_path, versions={"claude-code": "2.1.276"}), "instructions.agents-md-unread")
    assert old and "Claude Code 2.1.276 reads no AGENTS.md unless a loaded file imports it" in old[0]


@pytest.mark.parametrize("claude", [
    "@AGENTS.md\n",                                                  # imported
    AGENTS + "- one more line of its own\n",                         # a copy (drifted-copy's matter)
    "# Claude\n\nCanonical: @.agents/instructions.md\n",             # both name one canonical file
])
def test_no_trap_when_claude_gets_the_guidance(tmp_path, claude):
    files = {"CLAUDE.md": claude, "AGENTS.md": AGENTS, ".agents/instructions.md": "# Canonical\n"}
    if "canonical" in claude.lower():
        files["AGENTS.md"] = "# Codex entry\n\nCanonical context: `.agents/instructions.md`.\nRead it.\nThen the rest.\nAnd more.\n"
    assert found(build(repo(tmp_path, files), tmp_path), "instructions.agents-md-unread") == []


def test_no_trap_through_a_link_or_a_setting(tmp_path):
    root = repo(tmp_path, {"AGENTS.md": AGENTS})
    os.symlink("AGENTS.md", root / "CLAUDE.md")
    assert found(build(root, tmp_path), "instructions.agents-md-unread") == []
    settings = '{"pluginConfigs": {"agents-md@builtin": {"options": {"instructionFiles": "claude-md"}}}}'
    chosen = repo(tmp_path / "b", {"CLAUDE.md": "# C\n", "AGENTS.md": AGENTS, ".claude/settings.json": "{}"})
    home = tmp_path / "h2"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude/settings.json").write_text(settings)
    m = build(chosen, tmp_path, env={"HOME": str(home)}, home=str(home))
    assert found(m, "instructions.agents-md-unread") == []


def test_a_subfolder_agents_md_below_a_root_claude_md_alone_is_not_said(tmp_path):
    # pydantic/pydantic-ai: nested AGENTS.md with no CLAUDE.md of their own (the docs do not say)
    root = repo(tmp_path, {"CLAUDE.md": "# root\n", "docs/AGENTS.md": AGENTS})
    assert found(build(root, tmp_path), "instructions.agents-md-unread") == []


# -- imports of files that load anyway ------------------------------------------------------

def test_an_import_of_a_start_up_file_from_a_nested_file_is_redundant(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "# root\n", "CLAUDE.local.md": "# mine\n", ".claude/rules/a.md": "a\n",
                           "pkg/CLAUDE.md": "@../.claude/rules/a.md\n@../CLAUDE.local.md\n"})
    assert found(build(root, tmp_path), "instructions.redundant-import") == [("pkg/CLAUDE.md", 1), ("pkg/CLAUDE.md", 2)]


# -- start-up budget ------------------------------------------------------------------------

def test_agents_with_one_start_up_share_one_finding_and_codex_is_capped_itself(tmp_path):
    big = "- keep functions small and named for what they do\n" * 2500
    root = repo(tmp_path, {"AGENTS.md": big, ".cursor/rules/x.mdc": "---\nglobs: src/**\n---\nx\n",
                           ".github/copilot-instructions.md": "x\n", "src/a.py": ""})
    [msg] = messages(build(root, tmp_path), "instructions.startup-budget")  # AGENTS.md weighs most for all three
    assert msg.startswith("GitHub Copilot, Claude Code and Cursor load up to ") and "Codex" not in msg


def test_copilot_path_instructions_for_every_file_count(tmp_path):
    # EmperorRAG/my-projects-monorepo: applyTo "**" comes with any file the agent opens
    root = repo(tmp_path, {".github/copilot-instructions.md": "x\n",
                           ".github/instructions/a11y.instructions.md": "---\napplyTo: '**'\n---\n" + "a11y rule\n" * 6000,
                           "src/a.ts": ""})
    [f] = [f for f in build(root, tmp_path).findings if f.check == "instructions.startup-budget"]
    assert f.path == ".github/instructions" and f.message.startswith("GitHub Copilot loads")


def test_the_budget_can_be_tokens(tmp_path):
    root = repo(tmp_path, {".curator.yaml": "budgets:\n  agent-startup: 50\n", "CLAUDE.md": "one two three " * 40})
    [msg] = messages(build(root, tmp_path), "instructions.startup-budget")
    assert "the budget is 50: 50 tokens" in msg


# -- globs -----------------------------------------------------------------------------------

def test_dead_parts_of_copied_lists_are_one_finding(tmp_path):
    rule = "---\napplyTo: '**/*.ps1,**/*.psm1'\n---\nx\n"
    root = repo(tmp_path, {f".github/instructions/ps/{n}.instructions.md": rule for n in "abc"} | {"run.ps1": ""})
    [msg] = messages(build(root, tmp_path), "instructions.dead-glob-part")
    assert "**/*.psm1 matches no file" in msg and "the same list is in 2 more files" in msg


def test_a_kit_without_source_has_no_dead_globs(tmp_path):
    # Hatchum/ia-config-java-angular: a configuration kit; its globs are for the projects it goes into
    kit = repo(tmp_path, {".claude/rules/java.md": "---\npaths: '**/*.java'\n---\nx\n", "scripts/sync.py": "",
                          "README.md": "# Kit\n"})
    assert found(build(kit, tmp_path), "instructions.dead-glob") == []
    project = repo(tmp_path / "p", {".claude/rules/java.md": "---\npaths: '**/*.java'\n---\nx\n", "src/a.py": ""})
    assert found(build(project, tmp_path), "instructions.dead-glob") == [(".claude/rules/java.md", None)]


def test_quotes_inside_a_quoted_apply_to_are_part_of_the_pattern(tmp_path):
    root = repo(tmp_path, {".github/instructions/a.instructions.md": "---\napplyTo: \"'**/*'\"\n---\nx\n", "a.py": ""})
    assert found(build(root, tmp_path), "instructions.dead-glob") == [(".github/instructions/a.instructions.md", 2)]


# -- linked agent folders ---------------------------------------------------------------------

def test_a_linked_skills_folder_is_listed_and_a_loop_is_not_followed(tmp_path):
    root = repo(tmp_path, {".ai/skills/ocr/SKILL.md": "---\nname: ocr\ndescription: Read text from images\n---\n"})
    (root / ".claude").mkdir()
    os.symlink("../.ai/skills", root / ".claude/skills")
    os.symlink("..", root / ".ai/skills/ocr/loop")  # back to a folder above it
    ctx = build(root, tmp_path).agents["claude-code"]
    assert [x.path for x in ctx.listing] == [".claude/skills/ocr/SKILL.md"]


def test_a_link_out_of_the_repository_is_never_walked(tmp_path):
    outside = tmp_path / "elsewhere" / "skills" / "x"
    outside.mkdir(parents=True)
    (outside / "SKILL.md").write_text("---\nname: x\ndescription: secret\n---\n")
    root = repo(tmp_path, {"CLAUDE.md": "# P\n"})
    (root / ".claude").mkdir()
    os.symlink(str(outside.parent), root / ".claude/skills")
    assert build(root, tmp_path).agents["claude-code"].listing == []


# -- descriptions told apart ------------------------------------------------------------------

def test_two_agents_whose_names_tell_them_apart_do_not_collide(tmp_path):
    desc = "Implements features in the {} module: code, tests and review before commit, following the coding rules"
    root = repo(tmp_path, {
        ".claude/agents/agent-code-angular.md": f"---\nname: agent-code-angular\ndescription: {desc.format('angular')}\n---\n",
        ".claude/agents/agent-code-java.md": f"---\nname: agent-code-java\ndescription: {desc.format('java')}\n---\n",
        ".claude/skills/find-docs/SKILL.md": "---\ndescription: Fetch current library documentation via the ctx7 CLI\n---\n",
        ".claude/agents/docs.md": "---\nname: docs\ndescription: Fetch current library documentation via the ctx7 CLI "
                                  "(find-docs skill)\n---\n"})
    assert found(build(root, tmp_path), "instructions.description-collision") == []


def test_names_that_say_different_actions_tell_two_tools_apart(tmp_path):
    # ClashUp's Unity MCP skills: profiler-start / profiler-stop share 9 of 11 words, yet one starts
    # and the other stops; findingmodel's pydantic-ai-evaluator / -implementer likewise
    skill = "---\nname: {}\ndescription: {} Unity's runtime profiler. Idempotent: calling it when already done returns the current state.\n---\n"
    agent = "---\nname: {}\ndescription: {} Pydantic AI agents using current best practices\n---\n"
    root = repo(tmp_path, {
        ".claude/skills/profiler-start/SKILL.md": skill.format("profiler-start", "Enable"),
        ".claude/skills/profiler-stop/SKILL.md": skill.format("profiler-stop", "Disable"),
        ".claude/agents/pydantic-ai-evaluator.md": agent.format("pydantic-ai-evaluator", "Evaluates"),
        ".claude/agents/pydantic-ai-implementer.md": agent.format("pydantic-ai-implementer", "Implements"),
        ".claude/skills/assets-get-data/SKILL.md": skill.format("assets-get-data", "Read data of"),
        ".claude/skills/assets-shader-get-data/SKILL.md": skill.format("assets-shader-get-data", "Read data of")})
    pairs = [(p, f.target) for f in build(root, tmp_path).findings if f.check == "instructions.description-collision"
             for p in [f.path]]
    # a general tool and its special case still collide: the name adds a word, not another action
    assert pairs == [(".claude/skills/assets-get-data/SKILL.md", ".claude/skills/assets-shader-get-data/SKILL.md")]


@pytest.mark.parametrize(("a", "b", "apart"), [("profiler-enable-module", "profiler-list-modules", True),
                                               ("write-tests", "add-tests", False), ("load-data", "import-data", False),
                                               ("code-generator", "code-writer", False)])
def test_two_words_for_changing_things_are_not_told_apart(a, b, apart):
    # review19 M4: only opposite actions, or looking beside changing, tell two names apart
    from curator.context.checks import _different_actions

    assert _different_actions(f".claude/skills/{a}/SKILL.md", f".claude/skills/{b}/SKILL.md") is apart
