"""The fixes of issue 30's instruction checks: a Cursor rule renamed from `.md` to `.mdc`, a flat
skill moved into its folder with a name and description drafted from it, a path instruction moved
into `.github/instructions/`, a redundant import dropped, `@AGENTS.md` added after the line that
only names it — each planned (a move is one rename line), gated, applied through the repository's
journal, and undone byte-identically; a move never overwrites and never goes through a link."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from curator.context import build_context
from curator.curation import NothingToDo, apply_plan, undo
from curator.curation.instruction_fixes import plan_instruction_fixes
from curator.curation.instruction_moves import add_import, skill_frontmatter


def repo(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "repo"
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    root.mkdir(exist_ok=True)
    return root


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".curator" not in p.parts}


@pytest.fixture
def env(tmp_path):
    h = tmp_path / "home"
    h.mkdir()
    return {"env": {"CI": "1", "HOME": str(h)}, "home": str(h)}


def model(root, env):
    return build_context(root, count=False, **env)


def plan(root, env, *checks):
    return plan_instruction_fixes(root, set(checks), **env)


def test_a_plain_md_cursor_rule_is_renamed_to_mdc_and_then_applied(tmp_path, env):
    root = repo(tmp_path, {".cursor/rules/general.md": "---\nalwaysApply: true\n---\nReply in English.\n",
                           "src/a.py": "x = 1\n"})
    before = snapshot(root)
    assert model(root, env).agents["cursor"].startup == []
    p = plan(root, env, "instructions.cursor-md")
    assert p.diff() == "rename .cursor/rules/general.md → .cursor/rules/general.mdc\n"
    apply_plan(root, p)
    after = model(root, env)
    assert [e.path for e in after.agents["cursor"].startup] == [".cursor/rules/general.mdc"]
    assert not [f for f in after.findings if f.check == "instructions.cursor-md"]
    undo(root)
    assert snapshot(root) == before


def test_a_rename_never_overwrites_an_mdc_of_that_name(tmp_path, env):
    root = repo(tmp_path, {".cursor/rules/a.md": "---\nalwaysApply: true\n---\nold\n",
                           ".cursor/rules/a.mdc": "---\nalwaysApply: true\n---\nnew\n"})
    [f] = [f for f in model(root, env).findings if f.check == "instructions.cursor-md"]
    assert f.fix is None  # two files would claim one name: by hand
    with pytest.raises(NothingToDo):
        plan(root, env, "instructions.cursor-md")


def test_a_flat_skill_moves_into_its_folder_with_drafted_frontmatter(tmp_path, env):
    text = "# Gemini API Skill\n\n## Description\nGuidelines for calling the Gemini API. More here.\n\n## Models\n"
    root = repo(tmp_path, {"CLAUDE.md": "# P\n", ".claude/skills/gemini_api.md": text, "src/a.ts": "x\n"})
    [f] = [f for f in model(root, env).findings if f.check == "instructions.misplaced"]
    assert f.path == ".claude/skills/gemini_api.md" and "move it to .claude/skills/gemini_api/SKILL.md" in f.message
    p = plan(root, env, "instructions.misplaced")
    assert p.diff().startswith("rename .claude/skills/gemini_api.md → .claude/skills/gemini_api/SKILL.md\n")
    apply_plan(root, p)
    moved = (root / ".claude/skills/gemini_api/SKILL.md").read_text()
    assert moved == ('---\nname: gemini-api\ndescription: "Guidelines for calling the Gemini API."\n---\n\n' + text)
    listed = {x.path: x for x in model(root, env).agents["claude-code"].listing}
    assert listed[".claude/skills/gemini_api/SKILL.md"].name == "gemini-api"
    assert not (root / ".claude/skills/gemini_api.md").exists()


def test_path_instructions_move_into_their_folder(tmp_path, env):
    root = repo(tmp_path, {".github/copilot-instructions/docs.instructions.md": "---\napplyTo: docs/**/*.md\n---\nx\n",
                           "docs/a.md": "# A\n"})
    apply_plan(root, plan(root, env, "instructions.misplaced"))
    on_demand = [o.path for o in model(root, env).agents["copilot"].on_demand]
    assert on_demand == [".github/instructions/docs.instructions.md"]


def test_a_file_read_through_a_link_is_never_moved(tmp_path, env):
    root = repo(tmp_path, {"shared/general.md": "---\nalwaysApply: true\n---\nx\n"})
    (root / ".cursor/rules").mkdir(parents=True)
    os.symlink("../../shared/general.md", root / ".cursor/rules/general.md")
    [f] = [f for f in model(root, env).findings if f.check == "instructions.cursor-md"]
    assert f.fix is None


def test_a_redundant_import_is_dropped_and_its_line_with_it(tmp_path, env):
    root = repo(tmp_path, {"CLAUDE.md": "# P\n\n@.claude/rules/testing.md\nSee @docs/voice.md and @.claude/rules/style.md.\n",
                           ".claude/rules/testing.md": "# T\n", ".claude/rules/style.md": "# S\n",
                           "docs/voice.md": "# V\n"})
    found = [(f.line, f.message.split(":", 1)[0]) for f in model(root, env).findings
             if f.check == "instructions.redundant-import"]
    assert found == [(3, "@.claude/rules/testing.md"), (4, "@.claude/rules/style.md")]
    apply_plan(root, plan(root, env, "instructions.redundant-import"))
    assert (root / "CLAUDE.md").read_text() == "# P\n\nSee @docs/voice.md and.\n"
    startup = [e.path for e in model(root, env).agents["claude-code"].startup]
    assert startup == ["CLAUDE.md", "docs/voice.md", ".claude/rules/style.md", ".claude/rules/testing.md"]


def test_a_pointer_line_gets_its_import_and_agents_md_then_loads(tmp_path, env):
    rules = "# Rules\n\n- Never read .env.\n- Check ownership.\n- Migrations for schema changes.\n"
    root = repo(tmp_path, {"CLAUDE.md": "# Overlay\n\nFollow `AGENTS.md` first.\n\n## Claude\n- short answers\n",
                           "AGENTS.md": rules, "backend/CLAUDE.md": "# Backend\n", "backend/AGENTS.md": rules + "- Go.\n"})
    found = {f.path: f for f in model(root, env).findings if f.check == "instructions.agents-md-unread"}
    assert found["CLAUDE.md"].line == 3 and "text, not an import" in found["CLAUDE.md"].message
    assert found["backend/CLAUDE.md"].line is None and "import it with @AGENTS.md" in found["backend/CLAUDE.md"].message
    apply_plan(root, plan(root, env, "instructions.agents-md-unread"))
    assert (root / "CLAUDE.md").read_text() == "# Overlay\n\nFollow `AGENTS.md` first.\n\n@AGENTS.md\n\n## Claude\n- short answers\n"
    assert (root / "backend/CLAUDE.md").read_text() == "# Backend\n\n@AGENTS.md\n"
    after = model(root, env)
    assert "AGENTS.md" in [e.path for e in after.agents["claude-code"].startup]
    assert not [f for f in after.findings if f.check == "instructions.agents-md-unread"]


@pytest.mark.parametrize(("text", "line", "expected"), [
    ("# T\n\nbody\n", 0, "# T\n\n@AGENTS.md\n\nbody\n"),
    ("---\na: 1\n---\n# T\nbody\n", 0, "---\na: 1\n---\n# T\n\n@AGENTS.md\n\nbody\n"),
    ("", 0, "@AGENTS.md\n"),
    ("x\r\ny\r\n", 1, "x\r\n\r\n@AGENTS.md\r\ny\r\n"),
    ("no newline", 1, "no newline\n\n@AGENTS.md\n"),
])
def test_add_import_places_the_line(text, line, expected):
    assert add_import(text, line, "@AGENTS.md") == expected


def test_drafted_skill_frontmatter_quotes_and_names_in_kebab_case():
    assert skill_frontmatter(".claude/skills/UI_Impl/SKILL.md", 'Use "shadcn": always.\n') == \
        '---\nname: ui-impl\ndescription: "Use \\"shadcn\\": always."\n---\n\n'
    assert skill_frontmatter(".claude/skills/x/SKILL.md", "# Only a title\n") == "---\nname: x\n---\n\n"
