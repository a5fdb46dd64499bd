"""What each agent loads from a repository: instruction files, imports, rules and skills.

    from curator.context import build_context
    model = build_context(repo_root)            # every agent whose files are present
    model.startup_tokens("claude-code")          # THE start-up number, the same in every face
    model.agents["codex"].startup                # [Loaded(path, bytes, tokens, why, via, cut)]
    model.agents["cursor"].on_demand             # [OnDemand(path, when, tokens, ...)]
    model.findings                               # instruction checks (curator check runs them too)

Pure: no Textual, no Rich. Nothing outside the repository is read except the documented
user-level files (~/.claude/CLAUDE.md and rules, the project's auto memory, ~/.codex/AGENTS.md),
kept apart in `AgentContext.user` and off when `CI` is set.
"""

from __future__ import annotations

import importlib

# loaded on first use (PEP 562): the check registry reads `context.check_pages` without the builder
_WHERE = {"build_context": "build", "present_agents": "build", "AGENTS": "model", "AgentContext": "model",
          "ContextModel": "model", "Cut": "model", "Loaded": "model", "OnDemand": "model", "Unseen": "model"}

__all__ = ["AGENTS", "AgentContext", "ContextModel", "Cut", "Loaded", "OnDemand", "Unseen", "build_context",
           "present_agents"]


def __getattr__(name: str):
    if name in _WHERE:
        return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
