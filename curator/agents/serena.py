"""Serena: memory names at start-up, bodies by name, and the patterns that hide or protect them."""

from __future__ import annotations

from .table import AgentTable, Rule, Source

CODE = "https://github.com/oraios/serena/blob/main/src/serena/project.py"
_C = Source(CODE, "2026-11-27", "MemoriesManager: patterns are regular expressions matched in full against the "
            "memory name (its path under memories/ without `.md`, `/` between folders); the global and the "
            "project lists add up; the version that added them is not recorded")

TABLE = AgentTable("serena", "Serena", "1.5", "2026-11-27", (
    Rule("memories.folder", ".serena/memories",
         "the name of every memory (`list_memories`) at start-up; a body when the agent reads it by name",
         Source("https://github.com/oraios/serena", "2026-11-27")),
    Rule("memories.patterns", {"project": ".serena/project.yml", "global": ".serena/serena_config.yml",
                               "ignored": "ignored_memory_patterns", "read-only": "read_only_memory_patterns"},
         "`ignored_memory_patterns` hide memories from listing, reading and writing; `read_only_memory_patterns` "
         "keep the agent from writing them (project `.serena/project.yml` and global `~/.serena/serena_config.yml`)",
         _C, when="setting"),
    Rule("memories.global", ".serena/memories/global",
         "global memories in `~/.serena/memories/global/` (`global/NAME`), shown apart, read-only here", _C,
         when="memory"),
))
