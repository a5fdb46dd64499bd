"""Gemini CLI: context files and their imports (the Gemini CLI configuration and import pages)."""

from __future__ import annotations

from .table import AgentTable, Rule, Source

CONFIG = "https://geminicli.com/docs/get-started/configuration/"
MEMPORT = "https://geminicli.com/docs/reference/memport"
CODE = "https://github.com/google-gemini/gemini-cli/blob/5411f113ca/packages/core/src/"
V56 = "https://github.com/google-gemini/gemini-cli/blob/v0.56.0/packages/"
SKILLS = V56 + "core/src/skills/skillManager.ts"
TRUST = V56 + "core/src/utils/trust.ts"
_READ = "read in the code at v0.56.0"
_PULL = "https://github.com/google-gemini/gemini-cli/pull/"
FILENAMES_ADDED, TRUST_FALSE, RESTRICTED, BAD_NAME = (_PULL + n for n in ("26950", "28792", "29099", "29169"))

# newest moved from 0.40.0 after reading the loader at v0.56.0 (2026-08-19): between the two, memoryDiscovery,
# memoryImportProcessor, jit-context and memoryContextManager changed only to skip a GEMINI.md that is a
# folder and to refuse an import through a linked folder leaving the project (#28233) — no rule below moved.
# newest moved to 0.61.0 after reading the npm bundles 0.56.0–0.61.0 (2026-11-29): discovery, imports, skills, the
# system prompt and memory unchanged; folder trust (trust.env-off) and extension names (extensions.bad-name) moved
TABLE = AgentTable("gemini", "Gemini CLI", "0.61.0", "2026-11-29", (
    Rule("context.default-names", ("GEMINI.md",),
         "`GEMINI.md` of the working folder and its parents at start-up, with its `@imports`; `AGENTS.md` is not "
         "read unless named", Source(CONFIG, "2026-11-27")),
    Rule("context.setting", ("context", "fileName"),
         "`context.fileName` (a name or a list; the workspace's `.gemini/settings.json`, else yours) replaces the "
         "names read",
         Source(CONFIG, "2026-11-27", "the nested settings format arrived in 0.3.0"), since="0.3.0", until="0.44.0",
         when="setting"),
    Rule("context.setting", {"path": ("context", "fileName"), "then": ("GEMINI.md",)},
         "`context.fileName` (a name or a list; the workspace's `.gemini/settings.json`, else yours) adds names to "
         "the ones read: the names given first, `GEMINI.md` still read after them",
         Source(FILENAMES_ADDED, "2026-11-29", "\"made context files append instead of replace\" (#26950), first "
                "tagged v0.44.0; `setGeminiMdFilename` keeps the current names, read in the code at v0.56.0 and in "
                "the 0.61.0 bundle"), since="0.44.0", when="setting"),
    Rule("context.legacy-setting", "contextFileName",
         "the top-level `contextFileName` names the context files",
         Source("https://github.com/google-gemini/gemini-cli/issues/26728", "2026-05-09",
                "reported not working in 0.40.0 (2026-05-09); 0.3.0 moved it under `context`, migrating it on save; "
                "the version it stopped working is unknown"), until="0.40.0", when="setting"),
    Rule("context.nested", True, "a context file in a subfolder loads just in time, when a tool touches a file "
         "under it", Source(CONFIG, "2026-11-27"), when="on demand"),
    Rule("context.not-in", ".gemini",
         "a context file inside `.gemini/` is never read as project context", Source(CONFIG, "2026-11-27"),
         when="never"),
    Rule("imports.syntax", "@", "`@file` imports, relative to the importing file, with cycle detection",
         Source(MEMPORT, "2026-11-27")),
    Rule("imports.max-hops", 5, "imports are followed at most five deep", Source(MEMPORT, "2026-11-27",
         "the processor's default `maxDepth`"), when="never"),
    Rule("user.folder", ".gemini", "your global `~/.gemini/GEMINI.md` (the context file names) loads at start-up "
         "(read-only, shown apart)", Source(CONFIG, "2026-11-29")),
    Rule("memory.project", {"registry": ".gemini/projects.json", "folder": ".gemini/tmp", "memory": "memory",
                            "index": "MEMORY.md"},
         "your private project memory `~/.gemini/tmp/<project>/memory/MEMORY.md` (else a `GEMINI.md` there) loads at "
         "start-up; `~/.gemini/projects.json` names the project's folder (read-only, shown apart)",
         Source(CODE + "utils/memoryDiscovery.ts", "2026-11-29", "`getUserProjectMemoryPaths`, with "
                "`config/storage.ts` and `config/projectRegistry.ts`; added by #24161, first released in 0.37.0"),
         since="0.37.0", when="memory"),
    Rule("skills.folders", (".gemini/skills",), "skills `.gemini/skills/<name>/SKILL.md` of the working folder: "
         "name, description and path listed at start-up (`<available_skills>`), the body when the model activates "
         "the skill; one without a name or a description is skipped", Source(SKILLS, "2026-11-29", _READ + "; "
         "skills came in 0.24.0 behind `experimental.skills`, on by default since 0.26.0"), since="0.26.0",
         until="0.28.0", when="on demand"),
    Rule("skills.folders", (".agents/skills", ".gemini/skills"), "skills `.agents/skills/` and "
         "`.gemini/skills/` (`<name>/SKILL.md`, the former winning a name) of the working folder: name, description "
         "and path listed at start-up (`<available_skills>`), the body when the model activates the skill; one "
         "without a name or a description is skipped", Source(SKILLS, "2026-11-29", _READ + "; `.agents/skills` "
         "since 0.28.0 (#18151)"), since="0.28.0", when="on demand"),
    Rule("user.skills", (".gemini/skills",), "your skills in `~/.gemini/skills/`, listed (shown apart)",
         Source(SKILLS, "2026-11-29", _READ), since="0.26.0", until="0.28.0"),
    Rule("user.skills", (".agents/skills", ".gemini/skills"), "your skills in `~/.agents/skills/` and "
         "`~/.gemini/skills/`, listed (shown apart)", Source(SKILLS, "2026-11-29", _READ), since="0.28.0"),
    Rule("skills.same-name", "workspace", "a workspace skill and one of yours with one name: the workspace's is "
         "listed (\"Skill conflict detected\", the workspace read last)", Source(SKILLS, "2026-11-29", _READ),
         since="0.26.0", when="on demand"),
    Rule("system.file", {"variable": "GEMINI_SYSTEM_MD", "file": ".gemini/system.md", "on": ("1", "true"),
                         "off": ("0", "false")},
         "with `GEMINI_SYSTEM_MD` set to `1` or `true`, `.gemini/system.md` of the folder Gemini starts in replaces "
         "its whole system prompt (another value is the file's path; `0` or `false` keeps the built-in prompt), "
         "trusted folder or not; the context files still follow",
         Source(V56 + "core/src/prompts/promptProvider.ts", "2026-11-29", _READ + " (`resolvePathFromEnv`); "
                "a missing file stops Gemini with \"missing system prompt file\""), when="setting"),
    Rule("system.env-file", (".gemini/.env", ".env"),
         "in a trusted folder `GEMINI_SYSTEM_MD` can come from the first of `.gemini/.env` and `.env` (your shell's "
         "value wins); an untrusted folder's `.env` gives only the login variables",
         Source(V56 + "cli/src/config/settings.ts", "2026-11-29", _READ + " (`findEnvFile`, `loadEnvironment`); "
                "curator reads the working folder's files, not those of its parents or your home"), when="setting"),
    Rule("extensions.folder", ".gemini/extensions", "each enabled extension in `~/.gemini/extensions/` brings its "
         "context files (`contextFileName`, `GEMINI.md` by default) into every session, trusted folder or not; "
         "shown apart", Source(V56 + "cli/src/config/extension-manager.ts", "2026-11-29", _READ + "; "
                                "`extension-enablement.json` turns one off for a folder, its last matching override "
                                "winning")),
    Rule("subagents.folder", ".gemini/agents", "subagents `.gemini/agents/*.md` (not `_*.md`): name and description "
         "listed in the system prompt once you acknowledge them, the body when the model hands one a task; one "
         "without both is dropped", Source(V56 + "core/src/agents/registry.ts", "2026-11-29", _READ + "; on by "
                                           "default (`experimental.enableAgents`) since 0.36.0"), since="0.36.0",
         when="on demand"),
    Rule("trust.env-off", {"GEMINI_CLI_TRUST_WORKSPACE": "false"},
         "`GEMINI_CLI_TRUST_WORKSPACE=false` makes the folder untrusted, whatever `trustedFolders.json` says",
         Source(TRUST_FALSE, "2026-11-29", "first tagged v0.57.0; the value compared exactly"), since="0.57.0",
         until="0.59.0", when="setting"),
    Rule("trust.env-off", {"GEMINI_RESTRICTED_MODE": "true", "GEMINI_CLI_TRUST_WORKSPACE": "false"},
         "`GEMINI_RESTRICTED_MODE=true` or `GEMINI_CLI_TRUST_WORKSPACE=false` makes the folder untrusted, before "
         "`GEMINI_CLI_TRUST_WORKSPACE=true` (`--skip-trust`) and even with folder trust turned off",
         Source(RESTRICTED, "2026-11-29", "first tagged v0.59.0 (`checkPathTrust` asks these first); read in the "
                "0.61.0 bundle"), since="0.59.0", when="setting"),
    Rule("extensions.bad-name", "extension",
         "an extension whose context-file name leaves its folder is skipped whole (no context, skills or commands)",
         Source(V56 + "cli/src/config/extension-manager.ts", "2026-11-29", _READ + " (\"Invalid context file "
                "path\", then \"Skipping extension\")"), until="0.60.0", when="never"),
    Rule("extensions.bad-name", "file",
         "a context-file name that is empty, absolute or holds `..` (also URL-encoded) is dropped; the extension's "
         "other files load", Source(BAD_NAME, "2026-11-29", "first tagged v0.60.0; read in the 0.61.0 bundle"),
         since="0.60.0", when="never"),
    Rule("trust.folder", {"file": ".gemini/trustedFolders.json", "setting": ("security", "folderTrust", "enabled"),
                          "variable": "GEMINI_CLI_TRUST_WORKSPACE"},
         "in a folder you have not trusted, the workspace's GEMINI.md files, `.gemini/settings.json` and skills are "
         "not read (your own files are); `~/.gemini/trustedFolders.json` holds your choices, the longest matching "
         "path deciding", Source(TRUST, "2026-11-29", _READ + "; folder trust is on by default since 0.28.0 (#17806; "
                                 "the trusted-folders page still says off)"), since="0.28.0", when="setting"),
))
