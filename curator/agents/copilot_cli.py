"""GitHub Copilot CLI: what the terminal agent loads, which is not what VS Code loads (the `copilot`
table). Read in the code npm ships (`@github/copilot` 1.0.102: its native runtime and the
`changelog.json` inside it; the JavaScript loader of 1.0.60 and older) and by running the 1.0.102
binary against a local endpoint that logged each prompt (/work/research/agents/copilot_cli18.md).
curator reads a repository from its root, so the folders between the working folder and the git
root are the root itself; a subfolder's files load once the agent views a file there."""

from __future__ import annotations

from .table import AgentTable, Rule, Source

NPM = "https://www.npmjs.com/package/@github/copilot"
DOCS = "https://docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/add-custom-instructions"
_RUN = "the 1.0.102 binary run with a logged prompt (2026-11-29)"
_R = Source(NPM, "2026-11-29", _RUN)


def _cl(version: str, what: str) -> Source:
    return Source(NPM, "2026-11-29", f"its changelog at {version}: {what}; " + _RUN)


TABLE = AgentTable("copilot-cli", "Copilot CLI", "1.0.102", "2026-11-29", (
    Rule("repo.file", ".github/copilot-instructions.md", "`.github/copilot-instructions.md` (any case) at start-up, "
         "each file in `<custom_instruction>` tags", _R),
    Rule("model.files", {"names": ("AGENTS.md", "CLAUDE.md", "GEMINI.md"), "all": True}, "the root `AGENTS.md`, "
         "`CLAUDE.md` and `GEMINI.md` "
         "(any case) load at start-up, all of them (a file with the same text as one before it is sent once); "
         "never `CLAUDE.local.md`", _cl("0.0.385", "\"Combine all custom instruction files instead of using "
                                         "priority-based fallbacks\""), since="0.0.385"),
    Rule("model.files", {"names": ("AGENTS.md", "CLAUDE.md", "GEMINI.md"), "all": False}, "only the first of "
         "`copilot-instructions.md`, "
         "`AGENTS.md`, `CLAUDE.md`, `GEMINI.md` found loads", _cl("0.0.384", "the fallback the JavaScript loader "
                                                                  "had"), until="0.0.385"),
    Rule("nested.on-view", ("AGENTS.md", "CLAUDE.md", ".claude/CLAUDE.md", "GEMINI.md",
                            ".github/copilot-instructions.md"),
         "a subfolder's `AGENTS.md`, `CLAUDE.md`, `.claude/CLAUDE.md`, `GEMINI.md` and `.github/copilot-instructions.md` "
         "are added (in a `<system_reminder>`, once a session) after the agent views a file in that folder",
         Source(NPM, "2026-11-29", "on by default since 1.0.57 (`enableOnDemandInstructionDiscovery`); " + _RUN),
         since="1.0.57", when="on demand"),
    Rule("path.folder", ".github/instructions", "`.github/instructions/**/*.instructions.md` (any case): one without "
         "`applyTo`, or with only `**`, `**/*` or `*`, is put whole into every prompt; one with other globs is a row of "
         "a table at start-up (`| Pattern | File Path | Description |`) and its text is added when the agent views a "
         "file it matches", _R),
    Rule("path.suffix", ".instructions.md", "path instructions end in `.instructions.md` (any case)", _R, when="never"),
    Rule("path.every-file", ("**", "**/*", "*"), "an `applyTo` of only `**`, `**/*` or `*` (or none) puts the file "
         "in every prompt", _R),
    Rule("path.keys", {"globs": "applyTo", "exclude": "excludeAgent"}, "`applyTo` is one string of comma-separated "
         "globs or a YAML list (since 1.0.6); matched case-sensitively against the path from the git root, and a glob "
         "without `/` against the file's name in any folder", _cl("1.0.6", "applyTo as a list"), when="setting"),
    Rule("path.exclude", ("coding-agent", "cloud-agent"), "`excludeAgent: coding-agent` (or `cloud-agent`) keeps the "
         "file from the CLI altogether (`code-review` does not)", _cl("1.0.30", "`cloud-agent` joined `coding-agent`"),
         when="never"),
    Rule("path.on-view", True, "a root `.instructions.md` with globs is added when the agent views a file it matches",
         _cl("1.0.100", "root path instructions on read"), since="1.0.100", when="on demand"),
    Rule("claude-rules", {"folder": ".claude/rules", "globs": "paths"}, "`.claude/rules/**/*.md` are read as path "
         "instructions, with `paths:` for `applyTo`", _cl("1.0.89", "\"Claude Code rule files in .claude/rules as "
                                                           "custom instructions\""), since="1.0.89"),
    Rule("imports", {"in": (".github/copilot-instructions.md", "AGENTS.md", "CLAUDE.md"), "hops": 8},
         "`@path` in `copilot-instructions.md`, `AGENTS.md` and `CLAUDE.md` (not a root `GEMINI.md`) brings that "
         "file, relative to the importing one, inside the repository, up to 8 levels deep; each root file's imports "
         "are its own (a file two of them import is sent twice)",
         _cl("1.0.66", "\"Expand @-style imports in AGENTS.md, CLAUDE.md, and Copilot instruction files\""),
         since="1.0.66"),
    Rule("skills.folders", (".github/skills", ".agents/skills", ".claude/skills"), "skills `<folder>/<name>/SKILL.md` "
         "(at any depth since 1.0.55) listed by name and description (`disable-model-invocation: true`: not listed), "
         "the body when used", _cl("0.0.370", "skills"),
         since="0.0.370", when="on demand"),
    Rule("commands.folder", ".claude/commands", "each `.claude/commands/*.md` is listed as a skill (its name and "
         "description), its text when used", _cl("0.0.399", "\"Support .claude/commands/ single-file commands as "
                                                  "simpler alternative to skills\""), since="0.0.399"),
    Rule("agents.folder", (".github/agents", ".claude/agents"), "every `.md` in `.github/agents/` (README.md too) "
         "and `.claude/agents/` is a custom agent, listed by name and description in the task tool at start-up, its "
         "text when it runs", _R),
    Rule("user.files", {"home": ".copilot", "variable": "COPILOT_HOME", "file": "copilot-instructions.md",
                        "folder": "instructions"},
         "your `~/.copilot/copilot-instructions.md` and `~/.copilot/instructions/**/*.instructions.md` "
         "(`$COPILOT_HOME` moves the folder), shown apart", _cl("0.0.412", "the instructions folder")),
    Rule("user.skills", (".copilot/skills", ".agents/skills"), "your skills in `~/.copilot/skills/` and "
         "`~/.agents/skills/` (the second not when `COPILOT_HOME` is set), listed (shown apart)",
         _cl("1.0.66", "`~/.agents/skills` only without COPILOT_HOME"), since="1.0.11"),
    Rule("skills.same-name", "workspace", "a project skill and one of yours with one name: the project's is listed",
         _cl("1.0.55", "project > plugin-dir > personal"), when="on demand"),
), versioning="release")
