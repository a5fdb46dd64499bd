"""Roo Code: rule folders and legacy files (the Roo custom instructions page)."""

from __future__ import annotations

from .table import AgentTable, Rule, Source

PAGE = "https://docs.roocode.com/features/custom-instructions"
_P = Source(PAGE, "2026-11-27")

TABLE = AgentTable("roo", "Roo Code", "2026-11", "2026-11-27", (
    Rule("rules.folder", ".roo/rules", "every file of `.roo/rules/` (alphabetical) in every mode", _P),
    Rule("rules.mode-folder", ".roo/rules-", "`.roo/rules-{mode}/` in that mode", _P, when="on demand"),
    Rule("legacy.file", ".roorules", "`.roorules` only when `.roo/rules/` is absent", _P),
    Rule("legacy.mode-file", ".roorules-", "`.roorules-{mode}` only when `.roo/rules-{mode}/` is absent", _P,
         when="on demand"),
    Rule("agents-md", "AGENTS.md", "`AGENTS.md` at the root at start-up; a nested one for files under its folder",
         _P),
), versioning="date")
