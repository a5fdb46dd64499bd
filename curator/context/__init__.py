"""What each agent loads from a repository: instruction files, imports, rules and skills.

    from curator.context import build_context
    model = build_context(repo_root)            # every agent whose files are present
    model.startup_tokens("claude-code")          # THE start-up number, the same in every face
    model.agents["codex"].startup                # [Loaded(path, bytes, tokens, why, via, cut, rule)]
    model.agents["cursor"].on_demand             # [OnDemand(path, when, tokens, ...)]
    model.findings                               # instruction checks (curator check runs them too)

    model = build_context(repo_root, versions={"claude-code": "2.1.276"})   # an older agent's rules
    model.agents["claude-code"].version          # "2.1.276" (default: the newest curator knows)
    model.agents["claude-code"].startup[0].rule  # "claude-code/project.files": the row that loaded it

The rules come from curator.agents (one table per agent, each row with its version and source).
Pure: no Textual, no Rich. Nothing outside the repository is read except the documented
user-level files (~/.claude/CLAUDE.md, rules and settings, the project's auto memory, the managed
settings, ~/.codex/AGENTS.md, the global Devin rules), kept apart in `AgentContext.user` and off
when `CI` is set.
"""

from __future__ import annotations

import importlib

# loaded on first use (PEP 562): the check registry reads `context.check_pages` without the builder
_WHERE = {"build_context": "build", "present_agents": "build", "AgentContext": "model", "ContextModel": "model",
          "Cut": "model", "ImportEdge": "model", "Listed": "model", "Loaded": "model", "MemoryFolder": "model",
          "OnDemand": "model", "Unseen": "model"}
_AGENTS = ("AGENTS", "UnknownAgent", "VersionError")  # from curator.agents (the rule tables)

__all__ = ["AGENTS", "AgentContext", "ContextModel", "Cut", "ImportEdge", "Listed", "Loaded", "MemoryFolder",
           "OnDemand", "UnknownAgent", "Unseen", "VersionError", "build_context", "present_agents"]


def __getattr__(name: str):
    if name in _WHERE:
        return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    if name in _AGENTS:
        return getattr(importlib.import_module("..agents", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
