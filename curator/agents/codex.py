"""Codex: the AGENTS.md chain (the Codex AGENTS.md guide) and the memories it writes."""

from __future__ import annotations

from .table import AgentTable, Rule, Source

GUIDE = "https://developers.openai.com/codex/guides/agents-md"
_G = Source(GUIDE, "2026-09-18")

TABLE = AgentTable("codex", "Codex", "0.154.0", "2026-09-18", (
    Rule("project.names", ("AGENTS.override.md", "AGENTS.md"),
         "from the project root down to the working folder, at most one file a folder (`AGENTS.override.md`, else "
         "`AGENTS.md`), concatenated root first; started at the root only the root file loads", _G),
    Rule("project.skip-empty", True, "an empty file is skipped", _G, when="never"),
    Rule("project.max-bytes", 32 * 1024,
         "adding stops at 32 KiB (`project_doc_max_bytes`): the file that crosses it is cut, later ones dropped",
         _G, when="cap"),
    Rule("project.imports", False, "`@path` lines are not imports (Codex does not expand them)", _G, when="never"),
    Rule("user.files", ("AGENTS.override.md", "AGENTS.md"),
         "your global `~/.codex/AGENTS.override.md`, else `~/.codex/AGENTS.md` (`$CODEX_HOME` moves the folder), "
         "shown apart", _G),
    Rule("memory.folder", "memories",
         "the memories Codex writes when they are turned on (opt-in), in `~/.codex/memories/` (shown apart, "
         "read-only)", Source("https://developers.openai.com/codex/memories", "2026-11-27",
                             "the version that added memories is not on the page"), when="memory"),
))
