"""What each agent loads, as data: one table per agent, each rule with the agent version it holds
since (and until) and the page it comes from. The context loaders read their behaviour from these
rows, docs/agents.md is generated from them, and a change in an agent is one row.

    from curator.agents import rules_for, parse_choice
    rules = rules_for("claude-code", "2.1.270")     # the rules that hold at that version
    rules.value("imports.max-hops")                  # 4 (5 before 2.1.210)
    rules.has("agents-md.fallback")                  # False: AGENTS.md is read from 2.1.277
    parse_choice("windsurf@2026-05")                 # ("devin", "2026-05")

Pure data, standard library only (it sits below the model layer: the Serena patterns and the
auto-memory cap are read there too).
"""

from __future__ import annotations

from . import (
    claude_code,
    cline,
    codex,
    copilot,
    copilot_cli,
    cursor,
    devin,
    gemini,
    kiro,
    roo,
    serena,
)
from .table import (
    AgentTable,
    Rule,
    RuleSet,
    Source,
    VersionError,
    kilobytes,
    mebibytes,
    version_key,
)

TABLES: dict[str, AgentTable] = {t.agent: t for t in (
    claude_code.TABLE, codex.TABLE, gemini.TABLE, cursor.TABLE, copilot.TABLE, copilot_cli.TABLE, cline.TABLE,
    devin.TABLE, kiro.TABLE, roo.TABLE, serena.TABLE)}
AGENTS: tuple[str, ...] = tuple(TABLES)
ALIASES: dict[str, str] = {alias: t.agent for t in TABLES.values() for alias in t.aliases}


class UnknownAgent(ValueError):
    """An agent name curator has no table for."""


def canonical(name: str) -> str:
    """The agent's name (`windsurf` → `devin`); UnknownAgent for a name curator does not know."""
    n = str(name).strip().lower()
    n = ALIASES.get(n, n)
    if n not in TABLES:
        known = ", ".join(AGENTS + tuple(ALIASES))
        raise UnknownAgent(f"unknown agent {name!r} (known: {known})")
    return n


def parse_choice(text: str) -> tuple[str, str | None]:
    """`claude-code@2.1.270` → ("claude-code", "2.1.270"); `codex` → ("codex", None). Raises
    UnknownAgent or VersionError with a message fit for the command line."""
    name, _, version = str(text).partition("@")
    agent = canonical(name)
    if version:
        version_key(version)
        return agent, version.strip().lstrip("v")
    return agent, None


def rules_for(agent: str, version: str | None = None) -> RuleSet:
    """The rules of `agent` (an alias is fine) at `version` (default: the newest known)."""
    return TABLES[canonical(agent)].at(version)


def label(agent: str, version: str | None = None) -> str:
    """The agent's name as people know it at that version (Windsurf before 2026-06)."""
    rules = rules_for(agent, version)
    return str(rules.value("name", rules.table.label))


__all__ = ["AGENTS", "ALIASES", "TABLES", "AgentTable", "Rule", "RuleSet", "Source", "UnknownAgent", "VersionError",
           "canonical", "kilobytes", "label", "mebibytes", "parse_choice", "rules_for", "version_key"]
