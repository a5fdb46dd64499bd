"""Cursor: project rules (the Cursor rules page)."""

from __future__ import annotations

from .table import AgentTable, Rule, Source

RULES = "https://cursor.com/docs/context/rules"
HELP = "https://cursor.com/help/customization/rules"
SKILLS = "https://cursor.com/docs/context/skills"
SKILLS_SINCE = "2026-01-22"  # Cursor 2.4 (its changelog): native Agent Skills
_R = Source(RULES, "2026-11-27")
_FOLDERS = (".agents/skills", ".cursor/skills", ".claude/skills", ".codex/skills")

TABLE = AgentTable("cursor", "Cursor", "2026-11", "2026-11-29", (
    Rule("rules.folder", ".cursor/rules",
         "`.cursor/rules/**/*.mdc`: `alwaysApply: true` at start-up; `globs` when a matching file is attached; "
         "a `description` when the agent picks it; none of them only when @-mentioned", _R),
    Rule("rules.suffix", ".mdc", "project rules are `.mdc` files", _R),
    Rule("rules.nested", ".cursor/rules",
         "a `.cursor/rules/` folder in a subfolder holds rules for the files under that subfolder (its globs read "
         "from there)", Source(RULES, "2026-11-29", "\"Nested rules automatically attach when files in their "
         "directory are referenced\" (the 2025 page; the 2026 page no longer says it); that their globs are relative "
         "to that folder is our reading"),
         when="on demand"),
    Rule("rules.plain-md", ".md", "a plain `.md` in `.cursor/rules` is ignored", _R, when="never"),
    Rule("rules.keys", {"always": "alwaysApply", "globs": "globs", "description": "description"},
         "the frontmatter keys `alwaysApply`, `globs`, `description`, read line by line (unquoted globs are fine)",
         _R, when="setting"),
    Rule("rules.always-boolean", True,
         "`alwaysApply` must be the boolean `true`: the string \"true\" or frontmatter it cannot read disables it",
         _R, when="setting"),
    Rule("legacy.file", ".cursorrules", "the legacy `.cursorrules` at the root loads always", _R),
    Rule("agents-md", "AGENTS.md",
         "`AGENTS.md` at the root at start-up; a nested one for files under its folder, combined with those of the "
         "folders above it", Source(RULES, "2026-11-29", "\"Instructions from nested AGENTS.md files are combined "
                                    "with parent directories, with more specific instructions taking precedence\"")),
    Rule("agents-md.nested", "combined", "a nested `AGENTS.md` adds to the ones above it (the more specific wins "
         "on a conflict)", Source(RULES, "2026-11-29"), when="setting"),
    Rule("claude-md", "CLAUDE.md", "the root `CLAUDE.md`, read like `AGENTS.md` and applied to every conversation",
         Source(HELP, "2026-11-29", "since when is not on the page; a nested CLAUDE.md is not documented (curator "
                "reads the root one only); its `@` lines are not expanded (the page: referenced files are not "
                "inlined)")),
    Rule("skills.folders", _FOLDERS,
         "skills: any `SKILL.md` below `.agents/skills/`, `.cursor/skills/`, `.claude/skills/` or `.codex/skills/` "
         "is listed by name and description at start-up, its body loaded when the agent uses it",
         Source(SKILLS, "2026-11-29", "Cursor 2.4 (2026-01-22) brought skills; `.codex/` and `.agents/` were added "
                "later, on days not on the page"), since=SKILLS_SINCE, when="on demand"),
    Rule("skills.nested", (".cursor/skills", ".agents/skills"), "a `.cursor/skills/` or `.agents/skills/` folder "
         "inside the repository holds skills for the files under its folder", Source(SKILLS, "2026-11-29"),
         since=SKILLS_SINCE, when="on demand"),
    Rule("skills.keys", {"globs": ("paths", "globs"), "manual": "disable-model-invocation"},
         "a skill with `paths:` (or the older `globs:`) is listed only for matching files; "
         "`disable-model-invocation: true` only when you type `/name`", Source(SKILLS, "2026-11-29"),
         since=SKILLS_SINCE, when="setting"),
    Rule("user.skills", _FOLDERS, "your skills in `~/.agents/skills/`, `~/.cursor/skills/`, `~/.claude/skills/` and "
         "`~/.codex/skills/`, listed by name and description (shown apart)", Source(SKILLS, "2026-11-29"),
         since=SKILLS_SINCE),
), versioning="date")
