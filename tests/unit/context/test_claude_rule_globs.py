"""Claude Code matches a rule's `paths:` as .gitignore lines (the `ignore` package, code of
2.1.332): clawker's `paths: ["./docs/**"]` matches no file, so the rule never loads."""

from __future__ import annotations

from .test_context_model import build, repo


def test_a_dot_slash_glob_matches_nothing_and_is_said(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "# Repo\n", "docs/a.mdx": "x\n", "src/b.ts": "x\n",
                           ".claude/rules/docs.md": "---\npaths: [\"./docs/**\"]\n---\nMintlify.\n",
                           ".claude/rules/mixed.md": "---\npaths: [\"./docs/**\", \"src/**\"]\n---\nBoth.\n"})
    m = build(root, tmp_path)
    ctx = m.agents["claude-code"]
    assert [u.path for u in ctx.never if u.path.startswith(".claude/rules/")] == [".claude/rules/docs.md"]
    assert [(o.path, o.globs) for o in ctx.on_demand if o.path.startswith(".claude/rules/")] == [
        (".claude/rules/mixed.md", ("src/**",))]
    said = sorted((f.path, f.message.split(":", 1)[0]) for f in m.findings if f.check == "instructions.dead-glob")
    assert said == [(".claude/rules/docs.md", "`paths"), (".claude/rules/mixed.md", "`paths")]
    assert all("write `docs/**`" in f.message for f in m.findings if f.check == "instructions.dead-glob")


def test_a_skill_whose_paths_all_start_with_dot_slash_is_never_listed(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "# Repo\n", "docs/a.mdx": "x\n",
                           ".claude/skills/docs/SKILL.md": "---\nname: docs\ndescription: Mintlify pages\n"
                                                           "paths: ./docs/**\n---\nWrite docs.\n"})
    m = build(root, tmp_path)
    ctx = m.agents["claude-code"]
    assert ".claude/skills/docs/SKILL.md" in [u.path for u in ctx.never]
    assert [o.trigger for o in ctx.on_demand if o.path == ".claude/skills/docs/SKILL.md"] == ["description"]
    assert [f.check for f in m.findings if f.path == ".claude/skills/docs/SKILL.md"] == ["instructions.dead-glob"]
