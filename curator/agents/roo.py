"""Roo Code: rule folders, legacy files and AGENTS.md (the Roo custom instructions page, and Roo's
own loader `src/core/prompts/sections/custom-instructions.ts`)."""

from __future__ import annotations

from .table import AgentTable, Rule, Source

PAGE = "https://docs.roocode.com/features/custom-instructions"
CODE = ("https://github.com/RooCodeInc/Roo-Code/blob/cb83656718/src/core/prompts/sections/"
        "custom-instructions.ts")
_P = Source(PAGE, "2026-11-27")
_NOTE = "read in Roo's loader at cb83656718 (2026-04-14); since when it holds is not known"
_C = Source(CODE, "2026-11-29", _NOTE)
SKILLS = "https://github.com/RooCodeInc/Roo-Code/blob/cb83656718/src/services/skills/SkillsManager.ts"
_S = Source(SKILLS, "2026-11-29", "read at cb83656718 (3.52.1); skills since 3.38.0 (2025-12-27), `.agents/skills` "
            "since 3.47.2")

TABLE = AgentTable("roo", "Roo Code", "2026-11", "2026-11-29", (
    Rule("rules.folder", ".roo/rules", "every file of `.roo/rules/` (alphabetical) in every mode", _P),
    Rule("rules.mode-folder", ".roo/rules-", "`.roo/rules-{mode}/` in that mode", _P, when="on demand"),
    Rule("rules.skip-files", (".DS_Store", ".bak", ".cache", ".crdownload", ".db", ".dmp", ".dump", ".eslintcache",
                              ".lock", ".log", ".old", ".part", ".partial", ".pyc", ".pyo", ".stackdump", ".swo",
                              ".swp", ".temp", ".tmp", "Thumbs.db"),
         "leftovers of editors and systems in a rule folder (`.DS_Store`, `*.swp`, `*.log`, `*.lock`, `Thumbs.db`, "
         "...) are not rules", Source(CODE, "2026-11-29", _NOTE + "; `shouldIncludeRuleFile`"), when="never"),
    Rule("legacy.file", ".roorules", "`.roorules` only where no `.roo/rules/` (yours or the project's) holds a "
         "file", _C),
    Rule("legacy.cline-file", ".clinerules", "Cline's `.clinerules` file where neither `.roo/rules/` nor "
         "`.roorules` holds rules", _C),
    Rule("legacy.mode-file", ".roorules-", "`.roorules-{mode}` only when no `.roo/rules-{mode}/` holds a file",
         _P, when="on demand"),
    Rule("legacy.cline-mode-file", ".clinerules-", "`.clinerules-{mode}` where neither `.roo/rules-{mode}/` nor "
         "`.roorules-{mode}` holds rules", _C, when="on demand"),
    Rule("agents-md", ("AGENTS.md", "AGENT.md"), "the root `AGENTS.md` (else `AGENT.md`) in every mode", _C),
    Rule("agents-md.local", "AGENTS.local.md", "a root `AGENTS.local.md` (personal, not committed) loads too, with "
         "or without an `AGENTS.md`", _C),
    Rule("agents-md.nested", "enableSubfolderRules",
         "an `AGENTS.md` in a subfolder loads only with the `enableSubfolderRules` setting (off by default)", _C,
         when="never"),
    Rule("user.folder", ".roo", "your global `~/.roo/rules/` (every mode) and `~/.roo/rules-{mode}/` load before "
         "the project's (read-only, shown apart)", _C),
    Rule("rooignore", ".rooignore", "a root `.rooignore` is pasted whole into the rules (\"provided by a root-level "
         ".rooignore file\"), after the mode's rules", Source("https://github.com/RooCodeInc/Roo-Code/blob/cb83656718/"
                                                               "src/core/ignore/RooIgnoreController.ts", "2026-11-29",
                                                               _NOTE)),
    Rule("commands.folder", ".roo/commands", "commands `.roo/commands/*.md` (and yours in `~/.roo/commands/`): the "
         "body joins your message when you type `/name`", Source("https://github.com/RooCodeInc/Roo-Code/blob/"
                                                                   "cb83656718/src/services/command/commands.ts",
                                                                   "2026-11-29", _NOTE), when="on demand"),
    Rule("skills.folders", (".roo/skills", ".agents/skills"), "skills `<folder>/<name>/SKILL.md` in `.roo/skills/` "
         "or `.agents/skills/` (the former winning a name): name, description and path listed at start-up, the "
         "body through the `skill` tool; a name that is not its folder's (lowercase words joined by hyphens) or "
         "no description: skipped", _S, since="2025-12-27", when="on demand"),
    Rule("skills.mode-folders", (".roo/skills-", ".agents/skills-"), "`.roo/skills-{mode}/` and "
         "`.agents/skills-{mode}/`: skills listed in that mode only", _S, since="2025-12-27", when="on demand"),
    Rule("user.skills", (".roo/skills", ".agents/skills"), "your skills in `~/.roo/skills/` and `~/.agents/skills/` "
         "(a project skill of the same name wins), listed (shown apart)", _S, since="2025-12-27"),
    Rule("skills.same-name", "workspace", "a project skill and one of yours with one name: the project's is "
         "listed (`shouldOverrideSkill`: project over global)", _S, since="2025-12-27", when="on demand"),
), versioning="date", releases=(
    # the days of the releases (Roo's CHANGELOG at each tag): a release number reads the rows of its day
    ("3.38.0", "2025-12-27"), ("3.52.1", "2026-04-14"),
))
