"""Claude Code: what it loads, version by version (the memory, skills, settings and sub-agents
pages and the changelog). The context loaders (curator/context/claude*.py) read only these rows."""

from __future__ import annotations

from .table import AgentTable, Rule, Source

MEMORY = "https://code.claude.com/docs/en/memory"
SKILLS = "https://code.claude.com/docs/en/skills"
SETTINGS = "https://code.claude.com/docs/en/settings"
SUBAGENTS = "https://code.claude.com/docs/en/sub-agents"
CHANGELOG = "https://github.com/anthropics/claude-code/blob/main/CHANGELOG.md"
CLAUDE_DIR = "https://code.claude.com/docs/en/claude-directory"
CONFIG_DIR_HOME = "https://github.com/anthropics/claude-code/issues/58815"
CONFIG_DIR_BOTH = "https://github.com/anthropics/claude-code/issues/86837"
LISTING_BUDGET = "https://claudefa.st/blog/guide/mechanics/skill-listing-budget"
HOOKS = "https://code.claude.com/docs/en/hooks"
# the shipped code: npm's @anthropic-ai/claude-code (cli.js up to 2.1.112) and -linux-x64 (a Bun build since)
CODE = "https://registry.npmjs.org/@anthropic-ai/claude-code-linux-x64/-/claude-code-linux-x64-2.1.332.tgz"

_MEM = Source(MEMORY, "2026-09-29")
ROOT_NAMES = ("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md")
MODES = ("claude-md-or-agents-md", "claude-md", "claude-md-and-agents-md", "managed-only")

# newest moved to 2.1.332 (npm's latest, 2026-11-24) after reading its shipped code (2026-11-29): the skill listing,
# MEMORY.md's load, the hooks' cut, bare and safe mode; the other rows hold there as the docs and changelog say
TABLE = AgentTable("claude-code", "Claude Code", "2.1.332", "2026-11-29", (
    Rule("project.files", ROOT_NAMES,
         "`CLAUDE.md`, `.claude/CLAUDE.md` and `CLAUDE.local.md` of the working folder (the repository root) and "
         "every folder above it load at start-up, in full, in that order", _MEM),
    Rule("project.nested", ROOT_NAMES,
         "the same files in a subfolder load when the agent reads a file under that subfolder", _MEM,
         when="on demand"),
    Rule("project.max-bytes", 4 * 1024 * 1024,
         "a `CLAUDE.md` over 4 MiB is skipped", Source(MEMORY, "2026-09-29",
         "documented by 2026-09-29 (\"loads a CLAUDE.md file of up to 4 MiB in full and skips a larger file\"); "
         "earlier pages said a CLAUDE.md loads in full regardless of length: the version the skip began is unknown"),
         when="never"),
    Rule("project.warn-chars", 40_000,
         "a `CLAUDE.md` over 40,000 characters makes the agent warn at start-up (it still loads)",
         Source("https://ivanmagda.dev/posts/fixing-40k-claude-md-warning-monorepo/", "2026-11-27",
                "the warning as users saw it (\"Large CLAUDE.md will impact performance (42.5k chars > 40.0k)\"); "
                "the memory page only says a warning is shown over the recommended length"), until="2.1.169",
         when="cap"),
    Rule("project.warn-chars", {"chars": 40_000, "window": 200_000},
         "a `CLAUDE.md` over about 40,000 characters on a 200k-token window makes the agent warn at start-up (it "
         "still loads); the threshold scales with the model's context window",
         Source(CHANGELOG, "2026-11-29", "2.1.169: \"The 'CLAUDE.md is too long' warning threshold now scales with "
                "the model's context window\"; 40,000 on 200k is the users' figure before it"), since="2.1.169",
         when="cap"),
    Rule("project.html-comments", "<!--", "block-level HTML comments (`<!-- ... -->` opening a line) of "
         "`CLAUDE.md`, the files it imports and the rules are left out of what loads; those in code blocks stay",
         Source(CHANGELOG, "2026-11-29", "2.1.72: \"Changed CLAUDE.md HTML comments (<!-- ... -->) to be hidden "
                "from Claude when auto-injected\"; that imports and rules are stripped too is our reading"),
         since="2.1.72", when="never"),
    Rule("imports.syntax", "@",
         "`@path` outside code spans and fenced blocks imports a file, relative to the importing file; `~` and "
         "absolute paths are allowed; each import is its own entry after its parent, each file once", _MEM),
    Rule("imports.max-hops", 5, "imports are followed at most five hops deep",
         Source(MEMORY, "2026-07-15", "the page said \"a maximum depth of five hops\" until some time before "
                "2026-07-15; no changelog entry names the change, so the boundary is unknown: curator moves to four "
                "hops at 2.1.210, the version current on 2026-07-15"), until="2.1.210", when="never"),
    Rule("imports.max-hops", 4, "imports are followed at most four hops deep",
         Source(MEMORY, "2026-09-29", "\"with a maximum depth of four hops\"; the first dated reading that says four "
                "is of 2026-07-15 (version 2.1.210); the exact version of the change is unknown"),
         since="2.1.210", when="never"),
    Rule("imports.nested", True,
         "imports in a nested `CLAUDE.md` (or `AGENTS.md`) load with it, resolved from its own folder",
         Source(MEMORY, "2026-09-29", "\"Relative paths resolve relative to the file containing the import\"; "
                "\"Inside each AGENTS.md: @path imports are expanded\""), when="on demand"),
    Rule("imports.outside", "approval",
         "an import that leaves the repository loads only after a one-time approval, and never in `claude -p`",
         _MEM, when="never"),
    Rule("agents-md.unsupported", "AGENTS.md",
         "no `AGENTS.md` is read unless a loaded file imports it (or a `CLAUDE.md` is a link to it)",
         Source(CHANGELOG, "2026-09-29", "support came in 2.1.277"), until="2.1.277", when="never"),
    Rule("agents-md.fallback", ("AGENTS.md", ".claude/AGENTS.md"),
         "where no `CLAUDE.md`, `.claude/CLAUDE.md` or `CLAUDE.local.md` is found in the working folder or above "
         "it, `AGENTS.md` and `.claude/AGENTS.md` load at start-up instead (with their imports)",
         Source(MEMORY, "2026-09-29", "changelog 2.1.277 (2026-09-18): \"Added AGENTS.md support: in a project with "
                "no CLAUDE.md, Claude Code reads AGENTS.md instead\""), since="2.1.277"),
    Rule("agents-md.nested", "AGENTS.md",
         "a subfolder's `AGENTS.md` loads when the agent reads a file there, unless that folder or one above it "
         "(up to the working folder) holds one of the three `CLAUDE.md` files",
         Source(MEMORY, "2026-09-29", "the page names the subfolder's own CLAUDE.md files and, for start-up, "
                "\"your working directory or any directory above it\"; that a CLAUDE.md between the working folder "
                "and the subfolder also stops it is our reading (\"a root CLAUDE.md stops the fallback below it\")"),
         since="2.1.277", when="on demand"),
    Rule("agents-md.not-read", ("AGENTS.local.md", "AGENTS.override.md", ".agents/"),
         "`AGENTS.local.md`, `AGENTS.override.md` and anything under a `.agents/` folder are never read",
         _MEM, since="2.1.277", when="never"),
    Rule("agents-md.setting", {"plugin": "agents-md@builtin", "option": "instructionFiles", "default": MODES[0],
                               "values": MODES},
         "`pluginConfigs[\"agents-md@builtin\"].options.instructionFiles`: `claude-md-or-agents-md` (the default), "
         "`claude-md`, `claude-md-and-agents-md` (each folder's CLAUDE.md files, then its AGENTS.md; a file already "
         "loaded is not read twice) or `managed-only` (only the managed CLAUDE.md and auto memory at start-up)",
         _MEM, since="2.1.277", when="setting"),
    Rule("agents-md.legacy-setting", {"key": "projectInstructions", "map": {
        "claude": "claude-md", "agents-fallback": "claude-md-or-agents-md", "both": "claude-md-and-agents-md",
        "none": "managed-only"}},
         "the option's first name, `projectInstructions` (`claude`, `agents-fallback`, `both`, `none`), still counts "
         "while `instructionFiles` is unset or the default",
         Source("https://github.com/anthropics/claude-code/blob/main/mods/agents-md/README.md", "2026-10-01",
                "the plugin's README, \"Setting the option\"; the memory page does not mention it"),
         since="2.1.277", when="setting"),
    Rule("agents-md.setting-scopes", ("user", "managed"),
         "`instructionFiles` is read from `~/.claude/settings.json`, a `--settings` file or managed settings; "
         "project and local settings files are ignored",
         Source(MEMORY, "2026-09-29", "\"Claude Code ignores it in project and local settings files\""),
         since="2.1.277", when="setting"),
    Rule("agents-md.providers", ("Bedrock", "Vertex", "Foundry"),
         "sessions on Amazon Bedrock, Google Vertex or Microsoft Foundry read CLAUDE.md files only",
         Source(CHANGELOG, "2026-10-01", "2.1.281: \"Changed AGENTS.md support to also work on Amazon Bedrock, "
                "Google Vertex AI, Microsoft Foundry, LLM gateways, and sessions with telemetry disabled\""),
         since="2.1.277", until="2.1.281", when="setting"),
    Rule("settings.files", {"user": ".claude/settings.json", "project": ".claude/settings.json",
                            "local": ".claude/settings.local.json",
                            "managed": {"linux": "/etc/claude-code/managed-settings.json",
                                        "darwin": "/Library/Application Support/ClaudeCode/managed-settings.json",
                                        "win32": "C:\\Program Files\\ClaudeCode\\managed-settings.json"}},
         "settings come from `~/.claude/settings.json` (user), `.claude/settings.json` (project), "
         "`.claude/settings.local.json` (local) and the managed settings file; managed wins, then local, project, user",
         Source(SETTINGS, "2026-09-29"), when="setting"),
    Rule("excludes.setting", "claudeMdExcludes",
         "`claudeMdExcludes`: globs matched against absolute paths take `CLAUDE.md`, `AGENTS.md` and rule files out "
         "of the walk (the arrays of user, project, local and managed settings add up; a managed CLAUDE.md cannot be "
         "excluded)", Source(MEMORY, "2026-09-29", "since when the setting exists is not on the page; an excluded "
                             "file does not count as a CLAUDE.md for the AGENTS.md fallback (our reading)"),
         when="setting"),
    Rule("rules.folder", ".claude/rules",
         "`.claude/rules/**/*.md` without `paths:` load at start-up", Source(MEMORY, "2026-09-29",
         "changelog 2.0.64: \"Added support for .claude/rules/\""), since="2.0.64"),
    Rule("rules.paths", "paths",
         "a rule with `paths:` globs loads when a matching file is read; `paths` is the only key read (`globs:`, "
         "`alwaysApply:` do nothing); YAML it cannot read makes it a rule without `paths`",
         Source(MEMORY, "2026-09-29"), since="2.0.64", when="on demand"),
    Rule("skills.folder", ".claude/skills",
         "skills `.claude/skills/<name>/SKILL.md`: name and description listed at start-up, the body when used "
         "(no readable description: the body's first line)", Source(SKILLS, "2026-09-29")),
    Rule("skills.listed-name", "folder",
         "a skill is listed, invoked and matched by `skillOverrides` under its folder's name; its frontmatter `name` "
         "is only the name menus show", Source(CODE, "2026-11-29", "`name: skillName` (the folder) and "
                                               "`userFacingName() { return displayName || skillName }` read in the "
                                               "code of 2.1.88; the listing's `- ${name}` the same in 2.1.332"),
         when="start-up"),
    Rule("skills.name-max", 64, "a skill name is at most 64 characters", Source(SKILLS, "2026-09-29"), when="cap"),
    Rule("skills.description-max", 1024, "a skill description is at most 1,024 characters; the rest is cut",
         Source(SKILLS, "2026-09-29"), when="cap"),
    Rule("skills.listing-budget", 16_000,
         "the listing's budget is 2% of the context window (about 16,000 characters on 200k): over it, the "
         "least-used skills lose their descriptions", Source(CHANGELOG, "2026-11-29", "2.1.32: \"Skill character "
                                                              "budget now scales with context window (2% of "
                                                              "context)\"; the move to 1% is in no changelog line, "
                                                              "so it ends where 1% is first known (2.1.129)"),
         since="2.1.32", until="2.1.129", when="cap"),
    Rule("skills.listing-budget", 8_000,
         "the listing's budget is 1% of the context window (about 8,000 characters on 200k; "
         "`skillListingBudgetFraction` raises it): over it, the least-used skills lose their descriptions",
         Source(SKILLS, "2026-09-29", "1% read from the 2.1.129 binary"), since="2.1.129", when="cap"),
    Rule("skills.listing-description-max", 250,
         "each description in the listing is cut at 250 characters", Source(CHANGELOG, "2026-11-29", "2.1.86: "
                                                                            "\"Skill descriptions in the /skills "
                                                                            "listing are now capped at 250 "
                                                                            "characters\""),
         since="2.1.86", until="2.1.105", when="cap"),
    Rule("skills.listing-description-max", 1_536,
         "each description in the listing is cut at `skillListingMaxDescChars` (1,536)", Source(SKILLS, "2026-09-29",
                                                                                          "2.1.105 raised the cut "
                                                                                          "from 250 (its changelog)"),
         since="2.1.105", when="cap"),
    Rule("skills.listing-fraction", {"setting": "skillListingBudgetFraction", "default": 0.01, "window": 200_000,
                                     "chars-per-token": 4},
         "the listing's budget is `skillListingBudgetFraction` (default 0.01) of the context window, counted at 4 "
         "characters a token: 8,000 characters on a 200k window",
         Source(LISTING_BUDGET, "2026-11-28", "the setting and its default as read from the 2.1.129 binary; the "
                "skills page says \"1% of the context window (fallback: 8,000 characters)\"; the 4 characters a "
                "token is the page's 8,000 characters for 1% of 200k"), since="2.1.129", when="cap"),
    Rule("skills.listing-description-setting", "skillListingMaxDescChars",
         "`skillListingMaxDescChars` sets where each description is cut in the listing (default 1,536); a "
         "description's `when_to_use` counts with it",
         Source(LISTING_BUDGET, "2026-11-28", "the cut happens before the budget is measured"), since="2.1.129",
         when="setting"),
    Rule("skills.listing-drop-order", "least-invoked",
         "over the budget, whole descriptions are dropped from the least-invoked skills first until the listing "
         "fits; every name stays listed",
         Source(LISTING_BUDGET, "2026-11-28", "the warning reads \"N descriptions dropped (full descriptions kept "
                "for most-used skills)\"; the order among skills used equally often is not documented: curator "
                "drops the later-listed first"), since="2.1.129", when="cap"),
    Rule("skills.manual-only", "disable-model-invocation",
         "a skill or command whose frontmatter sets `disable-model-invocation` true is left out of the listing the "
         "model sees; its body loads when you type `/name`",
         Source(CODE, "2026-11-29", "the listing's filter (`getSkillToolCommands`) read in the code of 2.0.20, 2.1.0, "
                "2.1.88 and 2.1.332; the skills page agrees; users reported such skills listed on 2.1.71 "
                "(anthropics/claude-code#31935), which none of these versions' code shows"), when="on demand"),
    Rule("rules.dot-slash", True, "a rule's or skill's `paths:` glob that starts with `./` matches no file: the "
         "globs are read as .gitignore lines, relative to the project, where `./docs/**` is not `docs/**`",
         Source(CODE, "2026-11-29", "the rules' and the conditional skills' globs go through the `ignore` package "
                "(`ignore().add(globs).ignores(relative path)`) in the code of 2.1.332; `ignore` 7 matches `./docs` "
                "against nothing (tried); since when is not known"), when="never"),
    Rule("rules.gitignore-lines", True, "a rule's or skill's `paths:` are .gitignore lines in order, braces "
         "expanded and a trailing `/**` dropped: a `!` line takes back what an earlier line matched, but not a file "
         "inside a folder an earlier line matches (`src/**` is read as `src`), and `!gen/**` (read as `!gen`, a "
         "folder) takes back no file a file pattern matched; a list that is then only `**` (`paths: \"**\"`) is no "
         "`paths:`: the rule loads at start-up",
         Source(CODE, "2026-11-29", "the `paths:` reading (`ra`, `vAi`: split at commas, braces expanded, `/**` "
                "off) and the match (its own rewrite of the `ignore` package, case-insensitive) in the code of "
                "2.1.332, taken out and run in node against curator's reading; since when is not known"),
         when="on demand"),
    Rule("frontmatter.requote", False, "frontmatter YAML cannot read loses every field (name, description, "
         "paths, allowed-tools) of a skill, command, subagent or rule",
         Source(CHANGELOG, "2026-11-29", "2.1.69: \"Fixed skill descriptions with colons (e.g., \"Triggers include: "
                "X, Y, Z\") failing to load from SKILL.md frontmatter\""), until="2.1.69", when="never"),
    Rule("frontmatter.requote", True, "frontmatter YAML cannot read is read again with every one-line `key: value` "
         "whose value holds `: `, `#`, `{`, `[`, `*`, `&`, `!`, `|`, `>`, `%`, `@` or a backtick put in double "
         "quotes (a description with \"Examples: <example>Context: …\" loads); only if that fails are its fields lost",
         Source(CODE, "2026-11-29", "the frontmatter reader (`qd`, its fallback `_u`) read in the code of 2.1.332, "
                "shared by skills, commands, subagents, rules and output styles; 2.1.69's changelog names the fix"),
         since="2.1.69", when="setting"),
    Rule("skills.booleans", ("true",), "a frontmatter switch is on only as `true`",
         Source(CODE, "2026-11-29", "`parseBooleanFrontmatter`: `value === true || value === 'true'`, read in the code "
                "of 2.1.88 and 2.1.112"), until="2.1.218", when="setting"),
    Rule("skills.booleans", ("1", "true", "yes", "on"), "a frontmatter switch is on as `true`, `yes`, `on` or `1`, "
         "in any case", Source(CHANGELOG, "2026-11-29", "2.1.218: \"Added `yes`/`no`/`on`/`off`/`1`/`0` (case-"
                                "insensitive) as accepted values for skill and plugin frontmatter booleans\"; read in "
                                "the code of 2.1.332"), since="2.1.218", when="setting"),
    Rule("skills.paths", "paths",
         "a skill with `paths:` (globs: a list, or one string split at commas) is listed only once the agent reads "
         "or edits a file matching them; a trailing `/**` is dropped, and `**` alone lists it at start-up",
         Source(CODE, "2026-11-29", "2.1.84: \"Rules and skills `paths:` frontmatter now accepts a YAML list of "
                "globs\" (its changelog, the first mention); the conditional skills read in the code of 2.1.88 and "
                "2.1.332"), since="2.1.84", when="on demand"),
    Rule("skills.nested", ".claude/skills",
         "a `.claude/skills/` folder below the root is read once the agent reads or edits a file under the folder "
         "holding it: its skills then join the listing", Source(CHANGELOG, "2026-11-29", "2.1.6: \"Added automatic "
                                                                 "discovery of skills from nested `.claude/skills` "
                                                                 "directories when working with files in "
                                                                 "subdirectories\"; 2.1.69 skips folders git "
                                                                 "ignores (curator skips those its walk skips: "
                                                                 "node_modules, .venv, …); read in the code of "
                                                                 "2.1.332"), since="2.1.6", when="on demand"),
    Rule("skills.nested-names", "<dir>:<name>",
         "a nested skill keeps its name, its description saying where it applies; one whose name is taken is "
         "listed as `<dir>:<name>`, scoped to its folder, and one whose scoped name is taken too is not offered",
         Source(CHANGELOG, "2026-11-29", "2.1.178: \"on a name clash, the nested skill appears as `<dir>:<name>` "
                "so both stay available\"; the descriptions read in the code of 2.1.332 (before 2.1.178 curator "
                "keeps the name already listed)"), since="2.1.178", when="on demand"),
    Rule("skills.overrides", {"setting": "skillOverrides", "values": ("on", "name-only", "user-invocable-only", "off")},
         "`skillOverrides` in a settings file (per skill name; the highest scope that sets it wins) lists a skill by "
         "its name alone (`name-only`) or leaves it out of the listing (`user-invocable-only`, `off`)",
         Source(CHANGELOG, "2026-11-29", "2.1.129: \"`skillOverrides` setting now works\"; read in the code of 2.1.332 "
                "(`/skills` writes it to settings.local.json)"), since="2.1.129", when="setting"),
    Rule("records.instructions", "instructions",
         "each session's transcript records its start-up instruction files (`attachment.type` `instructions`: "
         "`files[]` of path, type, content, parent for an import), again after a compaction with `changed` and "
         "`reason`",
         Source(CHANGELOG, "2026-11-28", "seen in transcripts from 2.1.276 on; up to about 2.1.261 the start-up "
                "files were part of the system prompt and left no record; versions between were not seen"),
         since="2.1.276", when="record"),
    Rule("records.attachments", ("nested_memory", "skill_listing", "invoked_skills"),
         "each session's transcript records what it attached later: a nested `CLAUDE.md`/`AGENTS.md` or a "
         "`paths:` rule (`nested_memory`), the skill listing (`skill_listing`) and the skills invoked",
         Source(CHANGELOG, "2026-11-28", "the oldest transcripts seen with these lines are of 2.1.220; transcripts "
                "of 2.1.38-2.1.39 have none; the version that began writing them is unknown"),
         since="2.1.220", when="record"),
    Rule("commands.folder", ".claude/commands",
         "`.claude/commands/**/*.md` are skills too: listed when they have a description, else only on `/name`",
         Source(SKILLS, "2026-09-29")),
    Rule("subagents.folder", ".claude/agents",
         "subagents `.claude/agents/*.md` are listed by name and description", Source(SUBAGENTS, "2026-09-29")),
    Rule("subagents.required", ("name", "description"),
         "a subagent file needs YAML frontmatter with `name` and `description`: without them it is never registered",
         Source(SUBAGENTS, "2026-11-28", "the page lists both fields as required; that a file lacking one is "
                "skipped (not listed by its file name) is how the loader behaves, not a sentence of the page"),
         when="never"),
    Rule("skills.description-fallback", "first paragraph",
         "a skill without a `description` is listed with the first paragraph of its body (a title alone says "
         "nothing about when to use it)", Source(SKILLS, "2026-11-28"), when="setting"),
    Rule("memory.auto", {"folder": ".claude/projects/<slug>/memory", "index": "MEMORY.md"},
         "auto memory `~/.claude/projects/<slug>/memory/MEMORY.md` loads at start-up, topic files on demand "
         "(the user's own, shown apart)", Source(MEMORY, "2026-11-29", "2.1.59: \"Claude automatically saves "
                                                  "useful context to auto-memory\" (its changelog)"),
         since="2.1.59", when="memory"),
    Rule("hooks.context", {"key": "hooks", "events": {"SessionStart": "at start-up", "UserPromptSubmit": "with every "
                                                                                                      "prompt"},
                           "max-chars": 50_000},
         "what a `SessionStart` hook's command prints joins the context at start-up, a `UserPromptSubmit` hook's with "
         "every prompt; output over 50,000 characters is saved to a file and only a preview goes in",
         Source(HOOKS, "2026-11-29", "SessionStart came in 1.0.62; the 50,000-character cut in 2.1.89 (its "
                "changelog); curator counts a hook that only `cat`s a file of the repository, and names the others"),
         since="1.0.62", until="2.1.332", when="start-up"),
    Rule("hooks.context", {"key": "hooks", "events": {"SessionStart": "at start-up", "UserPromptSubmit": "with every "
                                                                                                      "prompt",
                                                      "UserPromptExpansion": "when a prompt expands a command"},
                           "max-chars": 10_000},
         "what a `SessionStart` hook's command prints joins the context at start-up, a `UserPromptSubmit` or "
         "`UserPromptExpansion` hook's with the prompt; output over 10,000 characters is saved to a file and only a "
         "path and a 2,000-character preview go in",
         Source(CODE, "2026-11-29", "read in the code of 2.1.332 (`additionalContext` and plain stdout through a "
                "10,000-character threshold); when the cut moved from 2.1.89's 50,000 is not known: curator moves at "
                "2.1.332, the first version read doing it"), since="2.1.332", when="start-up"),
    Rule("output-styles.folder", {"folder": ".claude/output-styles", "setting": "outputStyle",
                                  "keep": "keep-coding-instructions", "default": "default"},
         "the output style your `outputStyle` setting names (a `.claude/output-styles/` file, by its frontmatter "
         "`name` or its file name; the repository's over yours) joins the context at start-up as `# Output Style: "
         "<name>` and its body; without `keep-coding-instructions: true` it takes the place of Claude Code's own "
         "coding instructions; a style no setting selects is never read",
         Source(CODE, "2026-11-29", "1.0.81: \"Released output styles\" (its changelog); read in the code of "
                "2.1.332, where the body goes in a message of its own, not the system prompt"),
         since="1.0.81", when="start-up"),
    Rule("switch.bare", "CLAUDE_CODE_SIMPLE",
         "with `CLAUDE_CODE_SIMPLE` set (or `--bare`) Claude Code reads no CLAUDE.md, rules, skills or hooks, and "
         "auto memory only when `CLAUDE_CODE_DISABLE_AUTO_MEMORY=0` forces it on",
         Source(CODE, "2026-11-29", "2.1.50: \"`CLAUDE_CODE_SIMPLE` mode now also disables MCP tools, attachments, "
                "hooks, and CLAUDE.md file loading\" (its changelog); read in the code of 2.1.332, where only managed "
                "hooks and an `--add-dir` folder's skills stay"), since="2.1.50", when="setting"),
    Rule("switch.safe", "CLAUDE_CODE_SAFE_MODE",
         "with `CLAUDE_CODE_SAFE_MODE` set (or `--safe-mode`) Claude Code reads no CLAUDE.md, rules, skills, hooks "
         "or auto memory (only managed-policy hooks)",
         Source(CODE, "2026-11-29", "2.1.169: \"Added `--safe-mode` flag (and `CLAUDE_CODE_SAFE_MODE`) to start "
                "Claude Code with all customizations … disabled\" (its changelog); read in the code of 2.1.332"),
         since="2.1.169", when="setting"),
    Rule("memory.auto-worktrees", "main checkout",
         "the worktrees of a repository share one auto memory: the folder named after its main checkout",
         Source(CHANGELOG, "2026-11-29", "2.1.63: \"Project configs & auto memory now shared across git worktrees "
                                         "of the same repository\""), since="2.1.63", when="memory"),
    Rule("memory.auto-switch", {"variable": "CLAUDE_CODE_DISABLE_AUTO_MEMORY", "simple": "CLAUDE_CODE_SIMPLE",
                                "setting": "autoMemoryEnabled"},
         "auto memory is off with `CLAUDE_CODE_DISABLE_AUTO_MEMORY=1` (`0` keeps it on whatever the settings say), "
         "in simple mode (`CLAUDE_CODE_SIMPLE`, `--bare`) or with `autoMemoryEnabled: false` in any settings file, "
         "the project's included", Source(MEMORY, "2026-11-29", "the variable first, then simple mode, then the "
                                          "settings, as `isAutoMemoryEnabled` reads them; `--bare` came in 2.1.81"), since="2.1.59", when="setting"),
    Rule("memory.auto-directory", {"setting": "autoMemoryDirectory", "scopes": ("managed", "local", "user")},
         "`autoMemoryDirectory` (an absolute or `~/` path) in your user or local settings, or the managed ones, "
         "moves the auto-memory folder; set in the project's `.claude/settings.json` it is ignored, so that a "
         "repository cannot send memory writes elsewhere", Source(CHANGELOG, "2026-11-29", "2.1.74: \"Added "
                                                                  "`autoMemoryDirectory` setting\"; the scopes are "
                                                                  "the memory page's"), since="2.1.74",
         when="setting"),
    Rule("memory.auto-cap", {"lines": 200, "bytes": 0}, "only the first 200 lines of the auto-memory `MEMORY.md` "
         "load", Source(CHANGELOG, "2026-11-29", "2.1.83 added the 25 KB cut"), until="2.1.83", when="cap"),
    Rule("memory.auto-cap", {"lines": 200, "bytes": 25_000, "strip": True},
         "the auto-memory `MEMORY.md` loads without its frontmatter and block HTML comments, trimmed, its first 200 "
         "lines, then cut at the last line break before 25,000 characters (\"25 KB\"), with a warning line added when "
         "anything was cut", Source(CODE, "2026-11-29", "2.1.83: \"MEMORY.md index now truncates at 25KB as well as "
                                    "200 lines\" (its changelog); the stripping, the order and the warning read in the "
                                    "code of 2.1.88 (`truncateEntrypointContent`) and 2.1.332"),
         since="2.1.83", when="cap"),
    Rule("memory.repository", ".claude/memory",
         "a `.claude/memory/` committed in the repository reaches start-up only when a loaded file imports its "
         "`MEMORY.md` (then the whole file, no 200-line cap)", _MEM, when="memory"),
    Rule("memory.subagents", {"project": ".claude/agent-memory", "local": ".claude/agent-memory-local",
                              "user": ".claude/agent-memory"},
         "subagent memory (`memory:` in a subagent's frontmatter): `.claude/agent-memory/<agent>/` (project), "
         "`.claude/agent-memory-local/<agent>/` (local), `~/.claude/agent-memory/<agent>/` (user); its `MEMORY.md` "
         "reaches that subagent, not the main session",
         Source(SUBAGENTS, "2026-09-29", "the version that added subagent memory is not on the page"), when="memory"),
    Rule("user.files", (".claude/CLAUDE.md", ".claude/rules"),
         "your own `~/.claude/CLAUDE.md` and `~/.claude/rules/` load at start-up (read-only, shown apart)", _MEM),
    Rule("managed.file", {"linux": "/etc/claude-code/CLAUDE.md",
                          "darwin": "/Library/Application Support/ClaudeCode/CLAUDE.md",
                          "win32": "C:\\Program Files\\ClaudeCode\\CLAUDE.md"},
         "the managed policy `CLAUDE.md` your organisation deploys loads first at start-up, in every project; "
         "`claudeMdExcludes` cannot take it out and `managed-only` keeps it (read-only, shown apart)",
         Source(MEMORY, "2026-11-29", "earlier pages put the Windows file in `C:\\ProgramData\\ClaudeCode`; "
                "when it moved is not on the page")),
    Rule("config.dir", "CLAUDE_CONFIG_DIR",
         "`$CLAUDE_CONFIG_DIR` moves `~/.claude`: your settings, auto memory, subagent memory and transcripts "
         "live under it", Source(CLAUDE_DIR, "2026-11-29", "\"If you set CLAUDE_CONFIG_DIR, every ~/.claude path "
                                "on this page lives under that directory instead\""), when="setting"),
    Rule("config.dir-instructions", ("home",),
         "with `$CLAUDE_CONFIG_DIR` set, your `CLAUDE.md` and `rules/` are still read from `~/.claude` only",
         Source(CONFIG_DIR_HOME, "2026-11-29", "reported on 2.1.140; the first version that reads the moved "
                "folder's CLAUDE.md is not known: curator moves at 2.1.233, the first seen doing it"),
         until="2.1.233", when="setting"),
    Rule("config.dir-instructions", ("moved", "home"),
         "with `$CLAUDE_CONFIG_DIR` set, your `CLAUDE.md` and `rules/` load from that folder and from `~/.claude` "
         "too (the docs say only the moved folder; sessions load both)",
         Source(CONFIG_DIR_BOTH, "2026-11-29", "reported on 2.1.233 and 2.1.238 (anthropics/claude-code #88528, "
                "open); that the moved folder's rules/ load is our reading of the claude-directory page"),
         since="2.1.233", when="setting"),
))
