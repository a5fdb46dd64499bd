"""Bare and safe mode, read from the environment curator runs in: Claude Code reads none of the
repository's instruction files, skills, hooks or memory files."""

from __future__ import annotations

from curator.model.sources import claude_slug

from .test_context_model import build, repo


def test_bare_and_safe_mode_read_no_instruction_or_memory_file(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "project\n", ".claude/rules/a.md": "rule\n",
                           ".claude/skills/lint/SKILL.md": "---\nname: lint\ndescription: lint it\n---\nbody\n"})
    memory = tmp_path / "home" / ".claude" / "projects" / claude_slug(root) / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- [A](a.md): a note\n")
    plain = build(root, tmp_path).agents["claude-code"]
    assert plain.startup and plain.user
    bare = build(root, tmp_path, env={"CLAUDE_CODE_SIMPLE": "1"}).agents["claude-code"]
    assert bare.startup == [] and bare.on_demand == [] and bare.user == []
    assert {u.rule for u in bare.never} == {"claude-code/switch.bare@2.1.50"}
    assert sorted(u.path for u in bare.never) == [".claude/rules/a.md", ".claude/skills/lint/SKILL.md", "CLAUDE.md"]
    forced = build(root, tmp_path, env={"CLAUDE_CODE_SIMPLE": "yes", "CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"})
    assert forced.agents["claude-code"].user == []  # bare mode reads no memory file, auto memory forced on or not
    safe = build(root, tmp_path, env={"CLAUDE_CODE_SAFE_MODE": "true", "CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"})
    ctx = safe.agents["claude-code"]
    assert ctx.startup == [] and ctx.user == [] and any("safe mode" in n for n in ctx.notes)
    older = build(root, tmp_path, env={"CLAUDE_CODE_SAFE_MODE": "1"}, versions={"claude-code": "2.1.160"})
    assert older.agents["claude-code"].startup  # no safe mode before 2.1.169
