"""Codex: the AGENTS.md chain (the Codex AGENTS.md guide) and the memories it writes."""

from __future__ import annotations

from .table import AgentTable, Rule, Source

GUIDE = "https://developers.openai.com/codex/guides/agents-md"
_G = Source(GUIDE, "2026-09-18")
_CODE = "https://github.com/openai/codex/blob/rust-v0.148.0/codex-rs/"
ROOTS = _CODE + "ext/skills/src/host_roots.rs"
RENDER = _CODE + "ext/skills/src/render.rs"
MEMORY = _CODE + "ext/memories/src/prompts.rs"
_READ = "read in the code at rust-v0.148.0 (2026-08-18), the newest release whose source curator could read"
NPM = "https://www.npmjs.com/package/@openai/codex"
_PROBED = ("the 0.154.0 and 0.171.0 binaries from npm run offline against a local endpoint that logged the request "
           "(2026-11-29): the same instruction text in both; a change dated by the builds between")

_HOOKS = {"key": "hooks", "file": "hooks.json", "max-tokens": 2_500}
_EVENTS = {"SessionStart": "at start-up", "UserPromptSubmit": "with every prompt", "PreToolUse": "before a tool runs",
           "PostToolUse": "after a tool runs", "SubagentStart": "when a subagent starts"}
_HOOKS_FROM = ("hooks come from `hooks.json` or `[hooks]` of your `$CODEX_HOME` and of a trusted project's `.codex/`, "
               "and run once you trust each")
_SPILL = "; past 2,500 tokens the rest is written to a file"

TABLE = AgentTable("codex", "Codex", "0.171.0", "2026-11-29", (
    Rule("project.names", ("AGENTS.override.md", "AGENTS.md"),
         "from the project root down to the working folder, at most one file a folder (`AGENTS.override.md`, else "
         "`AGENTS.md`), concatenated root first; started at the root only the root file loads", _G),
    Rule("project.skip-empty", True, "an empty file is skipped", _G, when="never"),
    Rule("project.max-bytes", 32 * 1024,
         "adding stops at 32 KiB (`project_doc_max_bytes`): the file that crosses it is cut, later ones dropped",
         _G, when="cap"),
    Rule("config.file", "config.toml", "your `$CODEX_HOME/config.toml`, then the project's `.codex/config.toml` "
         "when you trust the project: `project_doc_fallback_filenames` adds names tried after `AGENTS.md` in each "
         "folder (trimmed), `project_doc_max_bytes` moves the cap (0: no project file is read)",
         Source(_CODE + "core/src/agents_md.rs", "2026-11-29", _READ + "; fallback names since 0.44.0, project "
                "config only in trusted projects since 0.88.0"), since="0.88.0", when="setting"),
    Rule("config.fallback-names", "names only", "a `project_doc_fallback_filenames` entry that is a path (holds a "
         "`/`, or is `.` or `..`) is ignored, with a warning", Source(NPM, "2026-11-29", _PROBED + ": the "
                                                                   "warning's text is in the builds since 0.156.0"),
         since="0.156.0", when="setting"),
    Rule("project.trust", "untrusted",
         "in a project you marked untrusted (`[projects.\"<path>\"] trust_level = \"untrusted\"` in your config) no "
         "project `AGENTS.md` is read; your own `~/.codex/AGENTS.md` still is",
         Source("https://github.com/openai/codex/releases/tag/rust-v0.150.0", "2026-11-29",
                "its release note: \"Untrusted projects no longer supply project-level AGENTS.md instructions\" "
                "(#39837); reported still sent on 0.150.1 (openai/codex#41499); whether a project never asked "
                "about counts as untrusted is not stated, so curator does not assume it"),
         since="0.150.0", when="setting"),
    Rule("hooks.context", {"key": "hooks", "file": "hooks.json",
                           "events": {k: _EVENTS[k] for k in ("SessionStart", "UserPromptSubmit", "PostToolUse")}},
         "what a `SessionStart` hook prints joins the context at start-up, a `UserPromptSubmit` hook's with every "
         "prompt, a `PostToolUse` hook's after a tool runs; " + _HOOKS_FROM,
         Source(_CODE + "hooks/src/engine/discovery.rs", "2026-11-29", _READ + "; hooks stable and on since 0.124.0 "
                "(#19012), the spill since 0.129.0 (#21069)"), since="0.124.0", until="0.129.0", when="start-up"),
    Rule("hooks.context", {**_HOOKS, "events": {k: _EVENTS[k] for k in ("SessionStart", "UserPromptSubmit",
                                                                        "PreToolUse", "PostToolUse")}},
         "what a `SessionStart` hook prints joins the context at start-up, a `UserPromptSubmit` hook's with every "
         "prompt, a `PreToolUse` or `PostToolUse` hook's around a tool; " + _HOOKS_FROM + _SPILL,
         Source(_CODE + "hooks/src/events/pre_tool_use.rs", "2026-11-29", _READ + "; PreToolUse additionalContext "
                "since 0.129.0 (#20692)"), since="0.129.0", until="0.133.0", when="start-up"),
    Rule("hooks.context", {**_HOOKS, "events": _EVENTS},
         "what a `SessionStart` hook prints joins the context at start-up, a `UserPromptSubmit` hook's with every "
         "prompt, a `PreToolUse` or `PostToolUse` hook's around a tool, a `SubagentStart` hook's when a subagent "
         "starts (a `PreModelRequest` hook's, since 0.164.0, never); " + _HOOKS_FROM + _SPILL,
         Source(_CODE + "hooks/src/engine/discovery.rs", "2026-11-29", _READ + "; SubagentStart since 0.133.0 "
                "(#22782); " + _PROBED), since="0.133.0", when="start-up"),
    Rule("project.imports", False, "`@path` lines are not imports (Codex does not expand them)", _G, when="never"),
    Rule("user.files", ("AGENTS.override.md", "AGENTS.md"),
         "your global `~/.codex/AGENTS.override.md`, else `~/.codex/AGENTS.md` (`$CODEX_HOME` moves the folder; an "
         "empty override is passed over), shown apart", Source(GUIDE, "2026-11-29", _PROBED)),
    Rule("memory.folder", "memories",
         "the memories Codex writes when they are turned on (off by default), in `~/.codex/memories/` (shown apart, "
         "read-only): only `memory_summary.md` enters the context, cut to 2,500 tokens; the rest is read on demand",
         Source(MEMORY, "2026-11-29", _READ + "; memories since 0.99.0, the summary cut 5,000 tokens before 0.132.0"),
         when="memory"),
    Rule("memory.version-2", "memories_v2", "with `[memories] version = \"v2\"` in your config, Codex reads its "
         "memories from `~/.codex/memories_v2/` instead (the same summary, the same cut)",
         Source(NPM, "2026-11-29", _PROBED + "; `memories_v2` first in the 0.155.0 build"), since="0.155.0",
         when="memory"),
    Rule("skills.folders", (".codex/skills",), "skills: every `SKILL.md` below `.codex/skills/` of each folder from "
         "the project root down to where Codex starts is listed at start-up as `- name: description (file: path)`, "
         "the body read when the skill is used", Source(ROOTS, "2026-11-29", _READ + "; on by default since 0.76.0"),
         since="0.76.0", until="0.94.0", when="on demand"),
    Rule("skills.folders", (".agents/skills", ".codex/skills"), "skills: every `SKILL.md` below `.agents/skills/` "
         "or `.codex/skills/` of each folder from the project root down to where Codex starts is listed at start-up "
         "as `- name: description (file: path)`, the body read when the skill is used",
         Source(ROOTS, "2026-11-29", _READ + "; `.agents/skills` since 0.94.0 (#10317)"), since="0.94.0",
         when="on demand"),
    Rule("skills.description-max", 1_024, "a skill's description is cut to 1,024 characters in the listing",
         Source(RENDER, "2026-11-29", _READ + "; since 0.142.0"), since="0.142.0", when="cap"),
    Rule("skills.listing-budget", 8_000, "the skills listing gets 2% of the model's context window (8,000 "
         "characters when the window is unknown); past it descriptions are shortened, then skills left out",
         Source(RENDER, "2026-11-29", _READ + "; since 0.122.0"), since="0.122.0", when="cap"),
    Rule("user.skills", ("$CODEX_HOME/skills",), "your skills in `$CODEX_HOME/skills/` (with Codex's bundled "
         "skills in its `.system/`), listed by name and description (shown apart)",
         Source(ROOTS, "2026-11-29", _READ), since="0.76.0", until="0.95.0"),
    Rule("user.skills", (".agents/skills", "$CODEX_HOME/skills"), "your skills in `~/.agents/skills/` and "
         "`$CODEX_HOME/skills/` (deprecated there; Codex's bundled skills are in its `.system/`), listed by name and "
         "description (shown apart)", Source(ROOTS, "2026-11-29", _READ + "; `~/.agents/skills` since 0.95.0"),
         since="0.95.0"),
))
