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

from ..agents import AGENTS, UnknownAgent, VersionError
from .build import build_context, present_agents
from .model import (
    AgentContext,
    ContextModel,
    Cut,
    ImportEdge,
    Listed,
    Loaded,
    MemoryFolder,
    OnDemand,
    Unseen,
)

__all__ = ["AGENTS", "AgentContext", "ContextModel", "Cut", "ImportEdge", "Listed", "Loaded", "MemoryFolder",
           "OnDemand", "UnknownAgent", "Unseen", "VersionError", "build_context", "present_agents"]
