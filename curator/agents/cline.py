"""Cline: rules, workflows, the Memory Bank and AGENTS.md (the Cline rules and Memory Bank pages,
and Cline's own loader: the extension's before 4.0, the Cline SDK's since 4.0 of 2026-06-26; read
in the code npm ships, `cline` 2.18.0 (the extension core 3.82.0) and 3.0.65 with `@cline/core` and
`@cline/shared` 0.0.86, on 2026-11-29: /work/research/agents/cline18.md)."""

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
HOOK_TOOLS = "2026-08-20"  # Cline 4.1.11: a PreToolUse/PostToolUse hook's contextModification reaches the model again
HOME_RULES = "2026-09-05"  # @cline/shared 0.0.82 (the CLI 3.0.61): ~/Cline/Rules is a global rules folder too
NPM = "https://www.npmjs.com/package/cline"  # the CLI; its `@cline/core` and `@cline/shared` hold the SDK's loader
_NPM = "read in `@cline/core`/`@cline/shared` 0.0.86 (the CLI `cline` 3.0.65 of 2026-09-27)"
_OLD = "read in `cline` 2.18.0 from npm (2026-07-15), whose bundle is the extension core 3.82.0"
SDK, SDK_VERSION = "2026-06-26", "4.0.0"  # Cline 4.0.0: the extension runs on the Cline SDK, whose loader reads rules otherwise
_R = Source(RULES, "2026-11-27")
HOOK_ENDS = ("", ".sh", ".bash", ".zsh", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".py", ".ps1")
_SDK_NOTE = ("4.0.0 (2026-06-26) is the first release on the SDK; the docs still describe the extension before it "
             "(read in the code at v4.0.0 and at 21cb8d2525, 4.1.13)")

TABLE = AgentTable("cline", "Cline", "2026-11", "2026-11-29", (
    Rule("rules.root", ".clinerules",
         "`.clinerules` at the workspace root only: a file, or the rule files of the folder, combined (the CLI "
         "reads it where it is started, not at the git root)", Source(RULES, "2026-11-29", _NPM + ": "
                                                                      "`rules:{workspacePath:cwd}`")),
    Rule("rules.order", "listed", "rule files load in the order the file system lists them: nothing sorts them",
         Source(NPM, "2026-11-29", _OLD + "; `readDirectory` has no sort (the docs' numeric prefixes order "
                "nothing)"), until=SDK),
    Rule("rules.order", "name", "every rule — the folders', yours and `AGENTS.md` (named \"Workspace AGENTS.md\") — "
         "loads sorted by its name as text (`10-x` before `2-y`), under `# Rules`, each as `## name`",
         Source(SDK_PROMPT, "2026-11-29", _NPM + ": `.sort((a,b)=>a.name.localeCompare(b.name))`"), since=SDK),
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
    Rule("rules.paths", "paths", "a rule (the root `.clinerules` file too) with a `paths:` list of globs applies when "
         "a file it matches is named in your last message, open in a tab or edited in the task; `paths: []` never "
         "loads, a `paths:` that is not a list of names always loads, and frontmatter YAML cannot read loads whole",
         Source(NPM, "2026-11-29", _OLD + " (`evaluateRuleConditionals`, at most 100 paths)"), when="on demand",
         until=SDK),
    Rule("rules.others", {"file": (".cursorrules", ".windsurfrules"), "folder": ".cursor/rules", "suffix": ".mdc"},
         "`.cursorrules`, `.windsurfrules` and every `.cursor/rules/**/*.mdc` load too, besides `.clinerules` "
         "(not instead of it; an `.mdc`'s `paths:` read as a rule's)",
         Source(NPM, "2026-11-29", _OLD + "; the SDK reads none of them (the docs still say \"automatically "
                "detected\")"), until=SDK),
    Rule("rules.switch", {"disabled": True, "enabled": False},
         "every rule loads in every task, `paths:` or not (the SDK does not read it); `disabled: true` or "
         "`enabled: false` in its frontmatter turns one off; one with no text, frontmatter YAML cannot read or a "
         "`disabled` that is not true or false, or a `name:` that is not text, is dropped; rules are keyed by `name:` "
         "(else the file's name; `.clinerules` for the file), the last read wins, and a turned-off rule keeps its "
         "name (it hides an earlier rule of that name)",
         Source(SDK_PROMPT, "2026-11-29", _SDK_NOTE + "; `formatRulesForSystemPrompt` renders every enabled rule; "
                + _NPM), since=SDK),
    Rule("workflows.folder", (".clinerules/workflows",), "workflows run when you type `/name`", _R, when="on demand",
         until=SDK),
    Rule("workflows.folder", (".clinerules/workflows", ".cline/workflows"),
         "workflows (the own `.md`, `.markdown` and `.txt` files of `.clinerules/workflows/` and "
         "`.cline/workflows/`) run when you type `/name`, the file's name without its ending",
         Source(SDK_PATHS, "2026-11-29", _SDK_NOTE + "; before 4.0 the command was the whole file name"),
         when="on demand",
         since=SDK),
    Rule("hooks.context", {"folders": (".clinerules/hooks",), "ends": ("", ".ps1"),
                           "names": ("TaskStart", "TaskResume", "UserPromptSubmit", "PreToolUse", "PostToolUse"),
                           "when": {"TaskStart": "at task start", "TaskResume": "when a task resumes",
                                    "UserPromptSubmit": "with every message", "PreToolUse": "before each tool call",
                                    "PostToolUse": "after each tool call"}, "silent": ()},
         "an executable `.clinerules/hooks/TaskStart` (`TaskResume`, `UserPromptSubmit`, `PreToolUse`, "
         "`PostToolUse`; `.ps1` on Windows) runs at task start (on resume, with every message, around each tool "
         "call): the `contextModification` it prints joins the conversation, up to 50,000 characters",
         Source(NPM, "2026-11-29", _OLD + ": `<hook_context source=\"TaskStart\">`"), until=SDK, when="on demand"),
    Rule("hooks.context", {"folders": (".clinerules/hooks", ".cline/hooks"), "ends": HOOK_ENDS, "names": (),
                           "when": {}, "silent": ("TaskStart", "UserPromptSubmit", "PreToolUse", "PostToolUse"), "any_case": True},
         "hooks in `.clinerules/hooks/` and `.cline/hooks/` run, but what they print never reaches the model",
         Source(_GIT + "v4.0.0/apps/vscode/src/sdk/hooks-adapter.ts", "2026-11-29", _SDK_NOTE + "; every hook "
                "returns only `mapStopControl(result)`"), since=SDK, until=HOOK_TOOLS, when="never"),
    Rule("hooks.context", {"folders": (".clinerules/hooks", ".cline/hooks"), "ends": HOOK_ENDS,
                           "names": ("PreToolUse", "PostToolUse"),
                           "when": {"PreToolUse": "before each tool call", "PostToolUse": "after each tool call"},
                           "silent": ("TaskStart", "UserPromptSubmit"), "any_case": True},
         "a `PreToolUse` or `PostToolUse` hook in `.clinerules/hooks/` or `.cline/hooks/` (the event's name, any "
         "case, bare or `.sh`, `.js`, `.ts`, `.py`, `.ps1`…) runs around each tool call: the `contextModification` it "
         "prints joins the conversation, up to 50,000 characters; a `TaskStart` or `UserPromptSubmit` hook's never does",
         Source(NPM, "2026-11-29", "the extension since 4.1.11 (2026-08-20; its changelog: \"Deliver a PreToolUse "
                "hook's contextModification to the model again\"); " + _NPM + ": TaskStart and UserPromptSubmit "
                "hooks run detached"), since=HOOK_TOOLS, when="on demand"),
    Rule("memory-bank.folder", {"folder": "memory-bank", "told": ("memory-bank", "memory bank")},
         "`memory-bank/*.md` is read in full at every task start when a rule that loads tells Cline to (the Memory "
         "Bank page's instructions, kept as a rule): the model reads each file with `read_file`; with no such rule "
         "only when it chooses to", Source(BANK, "2026-11-29", "Cline's own loader holds no memory-bank code "
                                           "(`cline` 2.18.0 and 3.0.65 on npm): the Memory Bank is a rule's "
                                           "instruction to the model")),
    Rule("agents-md.as-rule", "Workspace AGENTS.md", "the root `AGENTS.md` is read as a rule named \"Workspace "
         "AGENTS.md\": its frontmatter is taken out, and `disabled: true`, no text or frontmatter YAML cannot read "
         "drops it", Source(SDK_PATHS, "2026-11-29", _NPM), since=SDK),
    Rule("agents-md", "AGENTS.md", "`AGENTS.md` at the root at start-up", _R),
    Rule("agents-md.nested", "every",
         "where a root `AGENTS.md` exists, every `AGENTS.md` of the workspace loads at task start, combined",
         Source(OLD_RULES, "2026-11-29", "`findAgentsMdFiles` (searched recursively, the first 500 files listed); "
                "the docs say \"searched recursively\""), until=SDK),
    Rule("agents-md.nested", "none", "only the root `AGENTS.md` is read: an `AGENTS.md` in a subfolder never loads",
         Source(SDK_PATHS, "2026-11-29", _SDK_NOTE), since=SDK, when="never"),
    Rule("user.folders", ("Documents/Cline/Rules",), "your global rules, every file under "
         "`~/Documents/Cline/Rules/` (subfolders too), load in every task (read-only, shown apart)",
         Source(NPM, "2026-11-29", _OLD + ": every file, `workflows/` included"), until=SDK),
    Rule("user.folders", (".cline/rules", "Documents/Cline/Rules"),
         "your global rules, the own `.md`, `.markdown` and `.txt` files of `~/.cline/rules/` and "
         "`~/Documents/Cline/Rules/`, load in every task, after the project's (read-only, shown apart)",
         Source(SDK_PATHS, "2026-11-29", _SDK_NOTE), since=SDK, until=HOME_RULES),
    Rule("user.folders", (".cline/rules", "Cline/Rules", "Documents/Cline/Rules"),
         "your global rules, the own `.md`, `.markdown` and `.txt` files of `~/.cline/rules/`, `~/Cline/Rules/` and "
         "`~/Documents/Cline/Rules/`, load in every task, after the project's (read-only, shown apart)",
         Source(NPM, "2026-11-29", "`~/Cline/Rules` since `@cline/shared` 0.0.82 (the CLI 3.0.61, 2026-09-05); "
                + _NPM), since=HOME_RULES),
    Rule("user.agents-md", ".agents/AGENTS.md", "your `~/.agents/AGENTS.md` loads in every task (read-only, shown "
         "apart)", Source(SDK_PATHS, "2026-11-29", _SDK_NOTE), since=SDK),
    Rule("user.agents-md.as-rule", "Global AGENTS.md", "your `~/.agents/AGENTS.md` is read first of your rules, as a "
         "rule named \"Global AGENTS.md\" (frontmatter and switches as the project's rules)",
         Source(SDK_PATHS, "2026-11-29", _NPM), since=SDK),
    Rule("skills.folders", (".agents/skills", ".claude/skills", ".cline/skills", ".clinerules/skills"),
         "skills `<folder>/<name>/SKILL.md` (of one name, the one in the folder listed first here wins: Cline reads "
         "them the other way round and keeps the last): name and description listed in the system prompt, the body "
         "through `use_skill`; a name that is not its folder's or no description: skipped",
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
    ("3.57.0", SKILLS_ON), ("3.89.2", "2026-06-11"), (SDK_VERSION, SDK), ("4.1.11", HOOK_TOOLS),
    ("4.1.13", "2026-08-22"),
))
