"""Serena: what a project's activation puts in context (the memory names, the project's initial
prompt and the memories it embeds), bodies by name, and the patterns that hide or protect them."""

from __future__ import annotations

from .table import AgentTable, Rule, Source

CODE = "https://github.com/oraios/serena/blob/main/src/serena/project.py"
_C = Source(CODE, "2026-11-27", "MemoriesManager: patterns are regular expressions matched in full against the "
            "memory name (its path under memories/ without `.md`, `/` between folders); the global and the "
            "project lists add up; the version that added them is not recorded")

AGENT = "https://github.com/oraios/serena/blob/main/src/serena/agent.py"
CHANGELOG = "https://github.com/oraios/serena/blob/main/CHANGELOG.md"
_A = Source(AGENT, "2026-11-29", "read in serena-agent 1.5.3, 1.6.0, 1.7.0 and 2.1.0 from PyPI: "
            "`get_project_activation_message`")

TABLE = AgentTable("serena", "Serena", "2.1.0", "2026-11-29", (
    Rule("memories.folder", ".serena/memories",
         "the name of every memory at project activation, as JSON (`{\"memories\": [...], "
         "\"read_only_memories\": [...]}`) and a line telling the agent to read them with `read_memory`; "
         "a body when the agent reads it by name", _A),
    Rule("memories.listing", "\n{names}\nUse the `read_memory` tool to read these memories later if they are relevant "
         "to the task.", "the names follow a blank line; the line after them has no line end", _A, until="1.7.0",
         when="setting"),
    Rule("memories.listing", "{names}\nUse the `read_memory` tool to read these memories later if they are relevant "
         "to the task.\n", "the names open the text; the line after them ends the text", _A, since="1.7.0",
         until="2.0.0", when="setting"),
    Rule("memories.listing", "{names}\nUse `read_memory` to read these memories later if they are relevant to the "
         "task.\n", "the line after the names says `Use `read_memory` to read these memories later ...`", _A,
         since="2.0.0", when="setting"),
    Rule("memories.folder-links", False,
         "a linked folder inside `.serena/memories/` is not walked: its memories are not listed",
         Source(CHANGELOG, "2026-11-29", "1.5.3 lists with `Path.rglob`, which follows no linked folder "
                "before Python 3.13"), until="1.6.0"),
    Rule("memories.folder-links", True,
         "a linked folder inside `.serena/memories/` is walked: its memories are listed as `FOLDER/NAME`",
         Source(CHANGELOG, "2026-11-29", "1.6.0: \"Make memory iteration follow symbolic links\"; the code's "
                "example is a monorepo linking each submodule's memory folder"), since="1.6.0"),
    Rule("project.initial-prompt", {"files": (".serena/project.yml", ".serena/project.local.yml"),
                                    "key": "initial_prompt", "template": False},
         "`initial_prompt` of `.serena/project.yml` (or of `project.local.yml`, whose keys override it) is "
         "given in full at every project activation, after the line `Project-specific instructions:`", _A,
         until="1.7.0"),
    Rule("project.initial-prompt", {"files": (".serena/project.yml", ".serena/project.local.yml"),
                                    "key": "initial_prompt", "template": True},
         "`initial_prompt` of `.serena/project.yml` (or of `project.local.yml`, whose keys override it) is "
         "given in full at every project activation, in `<project-instructions>`; `{{ embed_memory('NAME') }}` "
         "in it puts that memory's whole body there (in `<memory name=\"NAME\">`)",
         Source(CHANGELOG, "2026-11-29", "1.7.0: \"Support function `embed_memory` in prompt templates to "
                "inline a memory's contents\"; other template expressions are counted as written"),
         since="1.7.0"),
    Rule("memories.patterns", {"project": ".serena/project.yml", "global": ".serena/serena_config.yml",
                               "ignored": "ignored_memory_patterns", "read-only": "read_only_memory_patterns"},
         "`ignored_memory_patterns` hide memories from listing, reading and writing; `read_only_memory_patterns` "
         "keep the agent from writing them (project `.serena/project.yml` and global `~/.serena/serena_config.yml`)",
         _C, when="setting"),
    Rule("memories.off", {"tools": "excluded_tools", "tool": "read_memory", "modes": ("default_modes", "added_modes"),
                          "mode": "no-memories"},
         "`.serena/project.yml` naming `read_memory` in `excluded_tools`, or the `no-memories` mode in `default_modes` "
         "or `added_modes`, takes the memory tools away: no memory is listed at activation, none can be read",
         Source(AGENT, "2026-11-29", "`get_project_activation_message` lists the memories only while `read_memory` "
                "is available; the `no-memories` mode excludes it; a `--mode` given when the server starts is not "
                "seen by curator"), when="setting"),
    Rule("memories.global", ".serena/memories/global",
         "global memories in `~/.serena/memories/global/` (`global/NAME`), shown apart, read-only here; their names "
         "are in the system prompt (`The following global (not project-specific) memories are available to you: "
         "memories=['global/NAME', ...]`)", _C,
         when="memory"),
))
