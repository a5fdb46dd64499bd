"""The shape of an agent's load rules: rows with the version they hold since (and until), and the
page each comes from. One table per agent (the sibling modules); `RuleSet` is a table read at one
version, which is all a loader sees: `rules.value("imports.max-hops")`, `rules.id("...")`.

A version is dotted numbers (`2.1.277`) or a date (`2026-06`, for agents whose docs carry no
version); both compare as tuples of integers. A row with `since=None` holds in every version
curator models; `until` is the first version it no longer holds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

_VERSION = re.compile(r"^\d+(?:[.-]\d+){0,3}$")
_MISSING = object()


class VersionError(ValueError):
    """A version that is not dotted numbers or a date."""


@lru_cache(maxsize=1024)  # every build sorts the agents' tables (~150 keys): parsed once each
def version_key(text: str) -> tuple[int, ...]:
    """`2.1.277` → (2, 1, 277, 0); `2026-06` → (2026, 6, 0, 0). Raises VersionError."""
    s = str(text).strip().lstrip("v")
    if not _VERSION.match(s):
        raise VersionError(f"not a version: {text!r} (write it as 2.1.277, or a date such as 2026-06)")
    parts = [int(p) for p in re.split(r"[.-]", s)]
    return tuple(parts + [0] * (4 - len(parts)))


def kilobytes(n: int) -> str:
    """A cap in bytes as the docs write it: 25000 → "25 KB"."""
    return f"{n // 1000:,} KB"


def mebibytes(n: int) -> str:
    """4194304 → "4 MiB"."""
    return f"{n / (1 << 20):g} MiB"


@dataclass(frozen=True, slots=True)
class Source:
    """Where a rule is written down: the page's address, the day its wording was checked, and
    what the page does not say (an unknown boundary, a reading of ours)."""

    page: str
    checked: str  # YYYY-MM-DD
    note: str = ""


@dataclass(frozen=True, slots=True)
class Rule:
    """One behaviour of one agent. `key` is what a loader asks for; `value` what it reads (a
    number, a name, a tuple of names, a mapping); `what` the sentence docs/agents.md prints."""

    key: str
    value: object
    what: str
    source: Source
    since: str | None = None
    until: str | None = None
    when: str = "start-up"  # start-up | on demand | never | cap | setting | memory | record (what a session writes down)

    def holds_at(self, version: str) -> bool:
        v = version_key(version)
        if self.since is not None and v < version_key(self.since):
            return False
        return not (self.until is not None and v >= version_key(self.until))

    def versions(self) -> str:
        """`since 2.1.277`, `until 2.1.210`, `2.0.64 – 2.1.210` or `all versions`."""
        if self.since and self.until:
            return f"{self.since} – {self.until}"
        if self.since:
            return f"since {self.since}"
        if self.until:
            return f"until {self.until}"
        return "all versions"


@dataclass(frozen=True, slots=True)
class AgentTable:
    """Every rule of one agent, and the newest version its rules were checked against (the
    default a model is built for)."""

    agent: str
    label: str
    newest: str  # the newest version curator knows (the default)
    newest_checked: str  # the day it was known newest
    rows: tuple[Rule, ...]
    versioning: str = "release"  # release (dotted numbers) | date (the docs' date)
    aliases: tuple[str, ...] = ()
    # for a table kept by date whose agent has release numbers too: (release, its day), oldest
    # first, so `cline@4.1.13` reads the rows of the day 4.1.13 came out
    releases: tuple[tuple[str, str], ...] = ()

    def rule_id(self, rule: Rule) -> str:
        return f"{self.agent}/{rule.key}" + (f"@{rule.since}" if rule.since else "")

    def at(self, version: str | None = None) -> RuleSet:
        """The rules that hold at `version` (default: the newest known)."""
        chosen = self.newest if version in (None, "") else str(version).strip().lstrip("v")
        read_at, newer = self.dated(chosen)
        held = {}
        for rule in self.rows:
            if rule.holds_at(read_at):
                if rule.key in held:
                    raise ValueError(f"{self.agent}: two rows of {rule.key} hold at {chosen}")
                held[rule.key] = rule
        return RuleSet(self, chosen, held, newer)

    def dated(self, version: str) -> tuple[str, bool]:
        """The version the rows are read at, and whether it is newer than any curator knows. A
        table kept by date reads a release number as the day of the newest known release at or
        below it (before the first known: the oldest rows; past the last: the newest rows)."""
        key = version_key(version)
        if self.versioning == "date" and not self.releases and key[0] < 1000:
            raise VersionError(f"{self.label}'s rules are kept by the day of its docs: write {self.agent}@2026-01 "
                               f"(not {self.agent}@{version})")
        if not (self.versioning == "date" and self.releases and key[0] < 1000):
            return version, key > version_key(self.newest)
        if key > version_key(self.releases[-1][0]):
            return self.newest, True
        days = [day for release, day in self.releases if version_key(release) <= key]
        return (days[-1] if days else "0"), False

    def boundaries(self) -> list[str]:
        """Every version at which a rule starts or stops, oldest first (the versions worth
        choosing between)."""
        seen = {v for r in self.rows for v in (r.since, r.until) if v}
        return sorted(seen, key=version_key)


@dataclass(frozen=True, slots=True)
class RuleSet:
    """One agent's rules at one version: what the loaders read."""

    table: AgentTable
    version: str  # as asked (`4.1.13`, `2026-06`)
    held: dict = field(default_factory=dict)
    newer: bool = False  # than any version curator knows

    @property
    def agent(self) -> str:
        return self.table.agent

    @property
    def newer_than_known(self) -> bool:
        return self.newer

    @property
    def newest(self) -> str:
        """The newest version curator knows, written as this one is (a release or a day)."""
        table = self.table
        if table.versioning == "date" and table.releases and version_key(self.version)[0] < 1000:
            return table.releases[-1][0]
        return table.newest

    def has(self, key: str) -> bool:
        """Does the rule hold at this version (a behaviour an older agent lacks)?"""
        return key in self.held

    def value(self, key: str, default: object = _MISSING) -> Any:  # whatever the row holds: names, a number, a mapping
        """The row's value; `default` when no row of `key` holds at this version (without a
        default that is a bug in a loader: KeyError)."""
        rule = self.held.get(key)
        if rule is None:
            if default is _MISSING:
                raise KeyError(f"{self.agent} has no rule {key!r} at {self.version}")
            return default
        return rule.value

    def rule(self, key: str) -> Rule | None:
        return self.held.get(key)

    def id(self, key: str) -> str:
        """The id of the row `key` read at this version ('' when none holds)."""
        rule = self.held.get(key)
        return self.table.rule_id(rule) if rule is not None else ""
