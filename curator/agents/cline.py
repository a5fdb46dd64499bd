"""Cline: rules and the Memory Bank (the Cline rules and Memory Bank pages)."""

from __future__ import annotations

from .table import AgentTable, Rule, Source

RULES = "https://docs.cline.bot/features/cline-rules"
BANK = "https://docs.cline.bot/prompting/cline-memory-bank"
_R = Source(RULES, "2026-11-27")

TABLE = AgentTable("cline", "Cline", "2026-11", "2026-11-27", (
    Rule("rules.root", ".clinerules",
         "`.clinerules` at the workspace root only: a file, or every `.md`/`.txt` of the folder, combined "
         "(numeric prefixes order them)", _R),
    Rule("rules.suffixes", (".md", ".txt"), "the rule files of the folder are `.md` and `.txt`", _R),
    Rule("rules.skip", ("workflows", "hooks"), "`workflows/` and `hooks/` of the folder are not rules", _R),
    Rule("rules.paths", "paths", "a rule with `paths:` globs applies to matching files only", _R, when="on demand"),
    Rule("workflows.folder", ".clinerules/workflows", "workflows run when you type `/name`", _R, when="on demand"),
    Rule("memory-bank.folder", "memory-bank", "every `memory-bank/*.md` is read in full at every task start (no "
         "cap)", Source(BANK, "2026-11-27")),
    Rule("agents-md", "AGENTS.md", "`AGENTS.md` at the root at start-up; a nested one for files under its folder",
         _R),
))
