"""Devin Desktop (Windsurf until 2026-06): rules, legacy files and the global AGENTS.md."""

from __future__ import annotations

from .table import AgentTable, Rule, Source

CASCADE = "https://docs.windsurf.com/windsurf/cascade/memories"
DEVIN = "https://docs.devin.ai/cli/extensibility/rules"
SKILLS = "https://docs.devin.ai/desktop/cascade/skills"
WORKFLOWS = "https://docs.devin.ai/desktop/cascade/workflows"
_C = Source(CASCADE, "2026-11-27")

TABLE = AgentTable("devin", "Devin Desktop", "2026-11", "2026-11-27", (
    Rule("name", "Windsurf", "the agent is called Windsurf", _C, until="2026-06", when="setting"),
    Rule("name", "Devin Desktop", "Windsurf is renamed Devin Desktop", Source(DEVIN, "2026-11-27"),
         since="2026-06", when="setting"),
    Rule("rules.folder", ".devin/rules", "rules in `.devin/rules/*.md`", Source(DEVIN, "2026-11-27"),
         since="2026-06"),
    Rule("rules.legacy-folder", ".windsurf/rules", "rules in `.windsurf/rules/*.md` (Windsurf's folder, still read)",
         _C),
    Rule("rules.triggers", {"always": "always_on", "glob": "glob", "description": "model_decision",
                            "manual": "manual"},
         "`trigger:` `always_on` at start-up, `glob` for matching files, `model_decision` when picked by its "
         "description, `manual` when @-mentioned", _C, when="setting"),
    Rule("rules.max-chars", 12_000, "12,000 characters a rule file: the rest is cut", _C, when="cap"),
    Rule("legacy.file", ".windsurfrules", "the legacy `.windsurfrules` at the root loads always", _C),
    Rule("user.file", ".codeium/windsurf/memories/global_rules.md", "your global rules "
         "`~/.codeium/windsurf/memories/global_rules.md` (shown apart)", _C, until="2026-06"),
    Rule("user.file", ".config/devin/AGENTS.md", "your global `~/.config/devin/AGENTS.md` (shown apart)",
         Source(DEVIN, "2026-11-27"), since="2026-06"),
    Rule("agents-md", "AGENTS.md", "`AGENTS.md` at the root always on; a nested one for files under its folder",
         _C),
    Rule("skills.folder", ".windsurf/skills",
         "skills `.windsurf/skills/<name>/SKILL.md`: only their `name` and `description` are shown at start-up, the "
         "body when Cascade invokes the skill or you @-mention it", Source(SKILLS, "2026-11-29", "when skills "
         "arrived is not on the page"), when="on demand"),
    Rule("user.skills", (".codeium/windsurf/skills",), "your global skills `~/.codeium/windsurf/skills/<name>/`, "
         "listed by name and description (shown apart)", Source(SKILLS, "2026-11-29")),
    Rule("workflows.folder", ".windsurf/workflows",
         "workflows `.windsurf/workflows/*.md` (of the workspace and its subfolders) run only when you type `/name`",
         Source(WORKFLOWS, "2026-11-29", "also from folders above the workspace up to the git root, which curator "
                "does not read"), when="on demand"),
), versioning="date", aliases=("windsurf",))
