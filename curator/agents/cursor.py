"""Cursor: project rules (the Cursor rules page)."""

from __future__ import annotations

from .table import AgentTable, Rule, Source

RULES = "https://cursor.com/docs/context/rules"
_R = Source(RULES, "2026-11-27")

TABLE = AgentTable("cursor", "Cursor", "2026-11", "2026-11-27", (
    Rule("rules.folder", ".cursor/rules",
         "`.cursor/rules/**/*.mdc`: `alwaysApply: true` at start-up; `globs` when a matching file is attached; "
         "a `description` when the agent picks it; none of them only when @-mentioned", _R),
    Rule("rules.suffix", ".mdc", "project rules are `.mdc` files", _R),
    Rule("rules.nested", ".cursor/rules",
         "a `.cursor/rules/` folder in a subfolder holds rules for the files under that subfolder (its globs read "
         "from there)", Source(RULES, "2026-11-28", "\"Nested rules automatically attach when files in their "
         "directory are referenced\"; that their globs are relative to that folder is our reading"),
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
         "`AGENTS.md` at the root at start-up; a nested one for files under its folder (the nearest wins)", _R),
), versioning="date")
