"""Which agent version's rules a model applies: asked for (`--agent claude-code@2.1.270`,
`build_context(root, versions={...})`), else named in the repository's `.curator.yaml`

    agents:
      claude-code: {version: 2.1.270}
      cursor: {}

(a list of names, `name@version` strings among them, works too), else the newest curator knows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..agents import AGENTS, RuleSet, UnknownAgent, VersionError, canonical, parse_choice, rules_for

NEWEST = "newest known"
CONFIG = ".curator.yaml"


@dataclass(slots=True)
class Choice:
    """The agents a build is limited to (None: every present one), and per agent its rules."""

    wanted: list[str] | None
    named: list[str]  # agents .curator.yaml names (shown even with no file of theirs)
    rules: dict[str, RuleSet] = field(default_factory=dict)
    chosen_by: dict[str, str] = field(default_factory=dict)
    notes: dict[str, list[str]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)  # what .curator.yaml got wrong (left out)


def configured(root: str) -> tuple[dict[str, str | None], list[str]]:
    """The repository's `.curator.yaml` `agents:`: {agent: version or None} and what was wrong
    with it (each an English sentence; a wrong entry is left out, never fatal)."""
    from ..base.safeio import read_small_file

    try:
        text = read_small_file(Path(root) / CONFIG).decode("utf-8", "replace")
    except Exception:  # noqa: BLE001 - absent or odd config: nothing named
        return {}, []
    if not text or "agents" not in text:
        return {}, []
    try:
        from ..base.safeyaml import load

        data = load(text)
    except Exception:  # noqa: BLE001 - not YAML, or aliases past the budget: nothing named
        return {}, []
    named = data.get("agents") if isinstance(data, dict) else None
    return read_agents(named)


def read_agents(named) -> tuple[dict[str, str | None], list[str]]:
    """An `agents:` value (list or mapping) as {agent: version or None}, and its problems."""
    out: dict[str, str | None] = {}
    problems: list[str] = []
    items: Iterable = []
    if isinstance(named, list):
        items = [(str(x), None) for x in named]
    elif isinstance(named, Mapping):
        items = []
        for k, v in named.items():
            version = v.get("version") if isinstance(v, Mapping) else v if isinstance(v, (str, int, float)) else None
            items.append((str(k), None if version is None else str(version)))
    elif named is not None:
        problems.append(f"{CONFIG}: agents must be a list of names or a mapping of name: {{version: ...}}")
    for spec, version in items:
        try:
            agent, at = parse_choice(spec)
            if version is not None:
                rules_for(agent, version)
                at = version.strip().lstrip("v")
        except (UnknownAgent, VersionError) as exc:
            problems.append(f"{CONFIG}: {exc}")
            continue
        out[agent] = at
    return out, problems


def choose(root: str, agents: Iterable[str] | None = None, versions: Mapping[str, str] | None = None,
           chosen_by: str = "asked") -> Choice:
    """The agents and versions of one build. `agents` may carry versions (`codex@0.150.0`); a
    wrong name or version given here raises UnknownAgent / VersionError (the caller asked)."""
    asked: dict[str, str] = {}
    wanted = None
    if agents:
        wanted = []
        for spec in agents:
            agent, at = parse_choice(spec)
            wanted.append(agent)
            if at:
                asked[agent] = at
    for name, at in (versions or {}).items():
        agent = canonical(name)
        if at:
            rules_for(agent, at)
            asked[agent] = str(at).strip().lstrip("v")
    from_config, problems = configured(root)
    choice = Choice(wanted, [a for a in AGENTS if a in from_config], problems=problems)
    for agent in AGENTS:
        if agent in asked:
            at, by = asked[agent], chosen_by
        elif from_config.get(agent):
            at, by = from_config[agent], CONFIG
        else:
            at, by = None, NEWEST
        rules = rules_for(agent, at)
        choice.rules[agent], choice.chosen_by[agent] = rules, by
        if rules.newer_than_known:
            choice.notes.setdefault(agent, []).append(
                f"{rules.version} is newer than the rules curator knows ({rules.newest}): those apply")
    return choice
