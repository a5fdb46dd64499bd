"""Cursor's root CLAUDE.md and skills (its skills page and help centre), nested AGENTS.md added to
those above; Kiro's flat steering folder, skills, and your global steering and skills."""

from __future__ import annotations

from .test_context_model import build, repo


def _skill(name: str, desc: str = "does a thing", extra: str = "") -> str:
    return f"---\nname: {name}\ndescription: {desc}\n{extra}---\n" + "step\n" * 100


def test_cursor_applies_the_root_claude_md_and_reads_a_linked_one_once(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "# Project\n@docs/a.md\n", "pkg/CLAUDE.md": "nested\n",
                           ".cursor/rules/a.mdc": "---\nalwaysApply: true\n---\nrule\n", "docs/a.md": "imported\n"})
    cursor = build(root, tmp_path, agents=["cursor"]).agents["cursor"]
    assert [e.path for e in cursor.startup] == [".cursor/rules/a.mdc", "CLAUDE.md"]  # no import, no nested one
    (root / "AGENTS.md").symlink_to("CLAUDE.md")
    cursor = build(root, tmp_path, agents=["cursor"]).agents["cursor"]
    assert [e.path for e in cursor.startup] == [".cursor/rules/a.mdc", "AGENTS.md"]
    assert "CLAUDE.md is the same file as AGENTS.md: read once" in cursor.notes


def test_cursor_lists_skills_of_every_folder_it_reads_once_by_name(tmp_path):
    root = repo(tmp_path, {
        ".cursor/rules/a.mdc": "---\nalwaysApply: true\n---\nrule\n",
        ".agents/skills/commit/SKILL.md": "",  # an empty file lists nothing
        ".claude/skills/commit/SKILL.md": _skill("commit", "make a commit"),
        ".cursor/skills/group/deploy/SKILL.md": _skill("deploy", "ship it"),  # any depth below the root
        ".codex/skills/review/SKILL.md": _skill("review", "review a change"),
        ".agents/skills/review/SKILL.md": _skill("review", "review a change"),  # the same name: listed once
        ".cursor/skills/scoped/SKILL.md": _skill("scoped", "ts only", "paths: src/**/*.ts\n"),
        ".cursor/skills/manual/SKILL.md": _skill("manual", "by hand", "disable-model-invocation: true\n"),
        "web/.cursor/skills/ui/SKILL.md": _skill("ui", "web ui"),
        "src/x.py": "x\n", "web/app.tsx": "x\n",
    })
    cursor = build(root, tmp_path, agents=["cursor"]).agents["cursor"]
    listed = {e.path: e.text for e in cursor.startup if "skill listing" in e.why}
    # a listing is no cut by a cap: the screens and the report tell the two apart by "listed"
    assert all("listed" in e.cut.reason for e in cursor.startup if "skill listing" in e.why)
    assert listed == {".agents/skills/review/SKILL.md": "- review: review a change",
                      ".claude/skills/commit/SKILL.md": "- commit: make a commit",
                      ".cursor/skills/group/deploy/SKILL.md": "- deploy: ship it"}
    assert ".codex/skills/review/SKILL.md is the skill review again (as .agents/skills/review/SKILL.md): listed once" \
        in cursor.notes
    whens = {o.path: o.when for o in cursor.on_demand}
    assert whens[".cursor/skills/manual/SKILL.md"] == "only when you type /manual (disable-model-invocation)"
    assert whens[".cursor/skills/scoped/SKILL.md"].startswith("listed when working on files matching src/**/*.ts")
    assert whens["web/.cursor/skills/ui/SKILL.md"].startswith("listed when working on files under web/")
    model = build(root, tmp_path, agents=["cursor"])
    (dead,) = [f for f in model.findings if f.check == "instructions.dead-glob"]
    assert dead.path == ".cursor/skills/scoped/SKILL.md" and "the skill is never listed" in dead.message


def test_cursor_before_skills_lists_none_and_your_skills_are_shown_apart(tmp_path):
    root = repo(tmp_path, {".cursor/skills/deploy/SKILL.md": _skill("deploy", "ship it")})
    home = tmp_path / "home" / ".cursor" / "skills" / "mine"
    home.mkdir(parents=True)
    (home / "SKILL.md").write_text(_skill("mine", "my own"), encoding="utf-8")
    now = build(root, tmp_path)  # a .cursor/skills folder alone says Cursor is used
    assert "cursor" in now.agents
    assert [(u.path, u.text) for u in now.agents["cursor"].user] == [("~/.cursor/skills/mine/SKILL.md", "- mine: my own")]
    old = build(root, tmp_path, agents=["cursor"], versions={"cursor": "2025-12"}).agents["cursor"]
    assert old.startup == [] and old.user == []


def test_a_nested_agents_md_adds_to_the_ones_above_it_in_cursor(tmp_path):
    root = repo(tmp_path, {"AGENTS.md": "root\n", "pkg/AGENTS.md": "pkg\n", ".cursor/rules/a.mdc": "x\n",
                           ".github/copilot-instructions.md": "x\n"})
    m = build(root, tmp_path, agents=["cursor", "copilot"])
    assert m.agents["cursor"].on_demand[-1].when == "working on files under pkg/ (with the AGENTS.md files above it)"
    assert m.agents["copilot"].on_demand[-1].when == "working on files under pkg/ (nearest AGENTS.md wins)"


def test_kiro_reads_only_the_steering_folders_own_files_and_lists_skills(tmp_path):
    root = repo(tmp_path, {".kiro/steering/product.md": "always on\n", ".kiro/steering/old/tech.md": "never read\n",
                           ".kiro/skills/release/SKILL.md": _skill("release", "cut a release")})
    kiro = build(root, tmp_path).agents["kiro"]
    assert [e.path for e in kiro.startup] == [".kiro/steering/product.md", ".kiro/skills/release/SKILL.md"]
    assert kiro.startup[1].text == "- release: cut a release"
    (never,) = kiro.never
    assert never.path == ".kiro/steering/old/tech.md" and never.rule == "kiro/steering.top-level"
    assert "Kiro reads only the folder's own files" in never.reason


def test_kiro_shows_your_global_steering_it_always_includes_and_your_skills(tmp_path):
    home = tmp_path / "home"
    for rel, text in {".kiro/steering/style.md": "tabs\n", ".kiro/steering/AGENTS.md": "global agents\n",
                      ".kiro/steering/ref.md": "---\ninclusion: manual\n---\nonly on #ref\n",
                      ".kiro/steering/sub/x.md": "not read\n",
                      ".kiro/skills/notes/SKILL.md": _skill("notes", "take notes")}.items():
        (home / rel).parent.mkdir(parents=True, exist_ok=True)
        (home / rel).write_text(text, encoding="utf-8")
    root = repo(tmp_path, {".kiro/steering/product.md": "x\n"})
    kiro = build(root, tmp_path).agents["kiro"]
    assert [(u.path, u.why) for u in kiro.user] == [
        ("~/.kiro/steering/AGENTS.md", "your global steering (always included)"),
        ("~/.kiro/steering/style.md", "your global steering (always included)"),
        ("~/.kiro/skills/notes/SKILL.md", "your skill (listed by name and description)")]
    assert build(root, tmp_path, env={"CI": "true"}).agents["kiro"].user == []


def test_codex_lists_skills_of_the_chain_with_their_path_and_yours(tmp_path):
    root = repo(tmp_path, {
        "AGENTS.md": "root\n",
        ".agents/skills/commit/SKILL.md": _skill("commit", "x" * 1100),  # cut to 1,024 characters
        ".codex/skills/tools/review/SKILL.md": _skill("review", "review a change"),  # any depth
        "pkg/.agents/skills/pkg-build/SKILL.md": _skill("pkg-build", "build the package"),
        ".claude/skills/only-claude/SKILL.md": _skill("only-claude", "not Codex's"),
    })
    home = tmp_path / "home"
    for rel in (".agents/skills/mine/SKILL.md", ".codex/skills/.system/skill-creator/SKILL.md"):
        (home / rel).parent.mkdir(parents=True, exist_ok=True)
        (home / rel).write_text(_skill(rel.split("/")[-2], "yours"), encoding="utf-8")
    codex = build(root, tmp_path, agents=["codex"]).agents["codex"]
    listed = {e.path: e.text for e in codex.startup if "skill listing" in e.why}
    assert sorted(listed) == [".agents/skills/commit/SKILL.md", ".codex/skills/tools/review/SKILL.md"]
    assert listed[".codex/skills/tools/review/SKILL.md"] == \
        "- review: review a change (file: .codex/skills/tools/review/SKILL.md)"
    assert listed[".agents/skills/commit/SKILL.md"] == f"- commit: {'x' * 1024}... (file: .agents/skills/commit/SKILL.md)"
    whens = {o.path: o.when for o in codex.on_demand}
    assert whens["pkg/.agents/skills/pkg-build/SKILL.md"].startswith("listed when Codex starts in pkg/ or below")
    assert [u.path for u in codex.user] == ["~/.agents/skills/mine/SKILL.md",
                                            "~/.codex/skills/.system/skill-creator/SKILL.md"]
    old = build(root, tmp_path, agents=["codex"], versions={"codex": "0.70.0"}).agents["codex"]
    assert [e.path for e in old.startup] == ["AGENTS.md"] and old.user == []


def test_a_description_collision_several_agents_list_is_one_finding_naming_them(tmp_path):
    root = repo(tmp_path, {
        ".claude/skills/a/SKILL.md": _skill("release-notes", "Write release notes for a tagged version from merged "
                                                             "pull requests"),
        ".claude/skills/b/SKILL.md": _skill("changelog", "Write the changelog for a tagged version from merged pull "
                                                         "requests"),
        ".cursor/rules/x.mdc": "---\nalwaysApply: true\n---\nx\n", ".github/copilot-instructions.md": "x\n"})
    (f,) = [f for f in build(root, tmp_path).findings if f.check == "instructions.description-collision"]
    assert f.message.startswith("Claude Code, Cursor, GitHub Copilot: the descriptions of .claude/skills/a/SKILL.md")


def test_kiro_says_its_cli_loads_every_steering_file(tmp_path):
    root = repo(tmp_path, {".kiro/steering/a.md": "always\n",
                           ".kiro/steering/b.md": "---\ninclusion: manual\n---\nonly on #b\n"})
    kiro = build(root, tmp_path, agents=["kiro"]).agents["kiro"]
    assert "the Kiro CLI reads no inclusion mode: at start-up it also loads the 1 steering file the IDE loads only " \
        "when it applies" in kiro.notes
