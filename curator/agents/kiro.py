"""Kiro: steering files (the Kiro steering page)."""

from __future__ import annotations

from .table import AgentTable, Rule, Source

STEERING = "https://kiro.dev/docs/steering/"
_S = Source(STEERING, "2026-11-27")

TABLE = AgentTable("kiro", "Kiro", "2026-11", "2026-11-27", (
    Rule("steering.folder", ".kiro/steering",
         "`.kiro/steering/*.md` by `inclusion:`: `always` (the default) at start-up, `fileMatch` with "
         "`fileMatchPattern` for matching files, `auto` when picked by its description, `manual` on `#name`", _S),
    Rule("steering.keys", {"mode": "inclusion", "default": "always", "globs": "fileMatchPattern"},
         "the frontmatter keys `inclusion` and `fileMatchPattern`", _S, when="setting"),
    Rule("steering.include", "#[[file:", "`#[[file:path]]` pulls a file in, from the workspace root", _S),
    Rule("agents-md", "AGENTS.md", "`AGENTS.md` at the root at start-up; a nested one for files under its folder",
         _S),
), versioning="date")
