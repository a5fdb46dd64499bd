"""Cline: rules, workflows, the Memory Bank and AGENTS.md (the Cline rules and Memory Bank pages,
and Cline's own loader: the extension's before 4.0, the Cline SDK's since 4.0 of 2026-06-26)."""

from __future__ import annotations

from .table import AgentTable, Rule, Source

RULES = "https://docs.cline.bot/features/cline-rules"
BANK = "https://docs.cline.bot/prompting/cline-memory-bank"
_GIT = "https://github.com/cline/cline/blob/"
OLD_RULES = _GIT + "v3.89.2/apps/vscode/src/core/context/instructions/user-instructions/external-rules.ts"
SDK_PATHS = _GIT + "v4.0.0/sdk/packages/shared/src/storage/paths.ts"
SDK_LOADER = _GIT + "v4.0.0/sdk/packages/core/src/extensions/config/user-instruction-config-loader.ts"
SDK_PROMPT = _GIT + "v4.0.0/sdk/packages/core/src/runtime/safety/rules.ts"
SKILLS_ON = "2026-01-30"  # Cline 3.57.0: skills always on (no setting)
SDK, SDK_VERSION = "2026-06-26", "4.0.0"  # Cline 4.0.0: the extension runs on the Cline SDK, whose loader reads rules otherwise
_R = Source(RULES, "2026-11-27")
_SDK_NOTE = ("4.0.0 (2026-06-26) is the first release on the SDK; the docs still describe the extension before it "
             "(read in the code at v4.0.0 and at 21cb8d2525, 4.1.13)")

TABLE = AgentTable("cline", "Cline", "2026-11", "2026-11-29", (
    Rule("rules.root", ".clinerules",
         "`.clinerules` at the workspace root only: a file, or the rule files of the folder, combined "
         "(numeric prefixes order them)", _R),
    Rule("rules.suffixes", ("",), "every file of the folder is a rule (the docs say `.md` and `.txt`)",
         Source(_GIT + "v3.89.2/apps/vscode/src/core/context/instructions/user-instructions/cline-rules.ts",
                "2026-11-29", "`readDirectory` takes every file"), until=SDK),
    Rule("rules.suffixes", (".md", ".markdown", ".txt"), "the rule files of a folder are `.md`, `.markdown` and "
         "`.txt`", Source(SDK_LOADER, "2026-11-29", _SDK_NOTE), since=SDK),
    Rule("rules.skip", ("workflows", "hooks", "skills"), "`workflows/`, `hooks/` and `skills/` of the folder are "
         "not rules", Source(RULES, "2026-11-29", "`skills/` is left out by cline-rules.ts at v3.89.2 and is the "
         "skills folder since 4.0")),
    Rule("rules.top-level", True, "only a rules folder's own files are read: files in its subfolders are not rules",
         Source(SDK_LOADER, "2026-11-29", _SDK_NOTE + "; `discoverRulesLikeFiles` lists one folder"), since=SDK,
         when="never"),
    Rule("rules.more-folders", (".cline/rules",), "`.cline/rules/` is a rules folder too, read like `.clinerules/`",
         Source(SDK_PATHS, "2026-11-29", _SDK_NOTE), since=SDK),
    Rule("rules.paths", "paths", "a rule with `paths:` globs applies to matching files only", _R, when="on demand",
         until=SDK),
    Rule("rules.switch", {"disabled": True, "enabled": False},
         "every rule loads in every task, `paths:` or not (the SDK does not read it); `disabled: true` or "
         "`enabled: false` in its frontmatter turns one off; one with no text, frontmatter YAML cannot read or a "
         "`disabled` that is not true or false is dropped; rules are keyed by `name:` (else the file's name), the "
         "last read wins",
         Source(SDK_PROMPT, "2026-11-29", _SDK_NOTE + "; `formatRulesForSystemPrompt` renders every enabled rule"),
         since=SDK),
    Rule("workflows.folder", (".clinerules/workflows",), "workflows run when you type `/name`", _R, when="on demand",
         until=SDK),
    Rule("workflows.folder", (".clinerules/workflows", ".cline/workflows"),
         "workflows (the own `.md`, `.markdown` and `.txt` files of `.clinerules/workflows/` and "
         "`.cline/workflows/`) run when you type `/name`, the file's name without its ending",
         Source(SDK_PATHS, "2026-11-29", _SDK_NOTE + "; before 4.0 the command was the whole file name"),
         when="on demand",
         since=SDK),
    Rule("hooks.context", {"folder": ".clinerules/hooks", "names": ("TaskStart", "UserPromptSubmit"),
                           "when": {"TaskStart": "at task start", "UserPromptSubmit": "with every message"}},
         "an executable `.clinerules/hooks/TaskStart` (or `UserPromptSubmit`, `.ps1` on Windows) runs at task start (with "
         "every message): the `contextModification` it prints joins the conversation, up to 50,000 characters",
         Source(_GIT + "v4.0.0/apps/vscode/src/sdk/hooks-adapter.ts", "2026-11-29", _SDK_NOTE + "; hooks are on "
                "unless you turn them off"), since=SDK, when="on demand"),
    Rule("memory-bank.folder", "memory-bank", "every `memory-bank/*.md` is read in full at every task start (no "
         "cap)", Source(BANK, "2026-11-27")),
    Rule("agents-md", "AGENTS.md", "`AGENTS.md` at the root at start-up", _R),
    Rule("agents-md.nested", "every",
         "where a root `AGENTS.md` exists, every `AGENTS.md` of the workspace loads at task start, combined",
         Source(OLD_RULES, "2026-11-29", "`findAgentsMdFiles` (searched recursively, the first 500 files listed); "
                "the docs say \"searched recursively\""), until=SDK),
    Rule("agents-md.nested", "none", "only the root `AGENTS.md` is read: an `AGENTS.md` in a subfolder never loads",
         Source(SDK_PATHS, "2026-11-29", _SDK_NOTE), since=SDK, when="never"),
    Rule("user.folders", ("Documents/Cline/Rules",), "your global rules `~/Documents/Cline/Rules/` load in every "
         "task (read-only, shown apart)", _R, until=SDK),
    Rule("user.folders", ("Documents/Cline/Rules", ".cline/rules"),
         "your global rules `~/Documents/Cline/Rules/` and `~/.cline/rules/` load in every task (read-only, shown "
         "apart)", Source(SDK_PATHS, "2026-11-29", _SDK_NOTE), since=SDK),
    Rule("user.agents-md", ".agents/AGENTS.md", "your `~/.agents/AGENTS.md` loads in every task (read-only, shown "
         "apart)", Source(SDK_PATHS, "2026-11-29", _SDK_NOTE), since=SDK),
    Rule("skills.folders", (".agents/skills", ".claude/skills", ".cline/skills", ".clinerules/skills"),
         "skills `<folder>/<name>/SKILL.md` (the first folder winning a name): name and description listed in the "
         "system prompt, the body through `use_skill`; a name that is not its folder's or no description: skipped",
         Source(_GIT + "v3.89.2/apps/vscode/src/core/storage/disk.ts", "2026-11-29", "skills came in 3.48.0 behind a "
                "setting, always on since 3.57.0 (2026-01-30); `.agents/skills` since 3.61.0"), since=SKILLS_ON,
         until=SDK, when="on demand"),
    Rule("skills.folders", (".agents/skills", ".cline/skills", ".clinerules/skills"),
         "skills `<folder>/<name>/SKILL.md` (`.claude/skills` no longer): only their names, in the `skills` tool's "
         "description (\"Available skills: a, b.\"); the body when the model calls it", Source(SDK_LOADER,
         "2026-11-29", _SDK_NOTE), since=SDK, when="on demand"),
    Rule("user.skills", (".agents/skills", ".cline/skills"), "your skills in `~/.agents/skills/` and "
         "`~/.cline/skills/` (a user skill wins a name), listed (shown apart)", Source(SDK_LOADER, "2026-11-29",
         _SDK_NOTE), since=SKILLS_ON),
    Rule("skills.same-name", "user", "a workspace skill and one of yours with one name (trimmed, any case): "
         "yours replaces the workspace's", Source(SDK_LOADER, "2026-11-29", "`resolveId` lower-cases the name "
                                                  "and the user's folders are read last; before 4.0 "
                                                  "`getAvailableSkills` also put yours over the project's"),
         since=SKILLS_ON, when="on demand"),
), versioning="date", releases=(
    # the days the releases came out (their tags in cline/cline): a release number reads the rows of its day
    ("3.57.0", SKILLS_ON), ("3.89.2", "2026-06-11"), (SDK_VERSION, SDK), ("4.1.13", "2026-08-22"),
))
