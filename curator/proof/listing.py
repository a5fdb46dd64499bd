"""The skill listing as Claude Code builds it (every number from the rules of the version,
curator/agents/claude_code.py): each description (with its `when_to_use`) cut at
`skillListingMaxDescChars`, the listing measured against `skillListingBudgetFraction` of the
context window at 4 characters a token, and, over that budget, whole descriptions dropped from the
least-invoked skills first until it fits — names stay. Which skills would be listed bare, and which
trigger phrases fall past the cut; beside it, what the sessions' own `skill_listing` records show.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field

from ..agents import RuleSet

_QUOTED = re.compile(r"[\"“']([^\"”'\n]{3,60})[\"”']")
_TRIGGER = re.compile(r"\b((?:use (?:this )?(?:skill )?when|use for|trigger(?:s|ed)? (?:on|by|when)|when the user)"
                      r"[^.;!?\n]*)", re.I)
FULL, CUT, BARE = "full", "cut", "bare"


@dataclass(slots=True)
class Entry:
    name: str
    description: str  # as written (description and when_to_use)
    path: str = ""  # '' for a skill from outside the repository (seen in a session's listing)
    kind: str = "skill"  # skill | command
    invocations: int = 0
    state: str = FULL  # full | cut | bare
    listed: str = ""  # the description as listed
    lost: list[str] = field(default_factory=list)  # trigger phrases past the cut (or with the dropped text)

    @property
    def line(self) -> str:
        return f"- {self.name}: {self.listed}" if self.listed else f"- {self.name}"

    def to_json(self) -> dict:
        out: dict[str, object] = {"name": self.name, "path": self.path or None, "kind": self.kind, "invocations": self.invocations,
               "state": self.state, "chars": len(self.description), "listed_chars": len(self.listed)}
        if self.lost:
            out["lost_triggers"] = self.lost
        return out


@dataclass(slots=True)
class Simulation:
    entries: list[Entry]
    budget: int  # characters
    window: int  # tokens
    fraction: float
    max_desc: int
    total: int  # characters of the listing as built
    full: int  # characters it would take with every description (after the cut)
    rules: list[str] = field(default_factory=list)  # the rule ids the numbers came from
    settings_from: str = "defaults"

    @property
    def over(self) -> bool:
        return self.full > self.budget

    @property
    def dropped(self) -> list[Entry]:
        return [e for e in self.entries if e.state == BARE and e.description]

    def to_json(self) -> dict:
        return {"budget_chars": self.budget, "context_window": self.window, "fraction": self.fraction,
                "max_description_chars": self.max_desc, "chars": self.total, "chars_if_all_described": self.full,
                "over_budget": self.over, "dropped": [e.name for e in self.dropped], "rules": self.rules,
                "settings_from": self.settings_from, "entries": [e.to_json() for e in self.entries]}


def triggers(text: str, past: int = 0) -> list[str]:
    """Phrases in `text` that make an agent pick a skill — quoted words, `Use when ...` clauses —
    that end past character `past` (0: all of them)."""
    found = [(m.group(1).strip(), m.end(1)) for rx in (_QUOTED, _TRIGGER) for m in rx.finditer(text)]
    return list(dict.fromkeys(t for t, end in sorted(found, key=lambda x: x[1]) if t and end > past))


def settings(root: str, home: str | None, ci: bool) -> tuple[dict, str]:
    """`skillListingBudgetFraction` / `skillListingMaxDescChars` from the settings Claude Code
    reads (the local, project and user files; the highest that sets one wins) and where."""
    from ..base.safeio import read_small_file

    places = [(os.path.join(root, ".claude", "settings.local.json"), ".claude/settings.local.json"),
              (os.path.join(root, ".claude", "settings.json"), ".claude/settings.json")]
    if home and not ci:
        places.append((os.path.join(home, ".claude", "settings.json"), "~/.claude/settings.json"))
    out: dict = {}
    where: list[str] = []
    for path, shown in places:
        try:
            data = json.loads(read_small_file(path).decode("utf-8"))
        except Exception:  # noqa: BLE001 - absent, unreadable, not JSON: sets nothing
            continue
        if not isinstance(data, dict):
            continue
        for key in ("skillListingBudgetFraction", "skillListingMaxDescChars"):
            v = data.get(key)
            if key not in out and isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0:
                out[key] = v
                where.append(shown)
    return out, ", ".join(dict.fromkeys(where)) or "defaults"


def simulate(entries: list[Entry], rules: RuleSet, *, fraction: float | None = None, max_desc: int | None = None,
             window: int | None = None, settings_from: str = "defaults") -> Simulation:
    """Build the listing: cut each description, then drop whole descriptions from the
    least-invoked (later-listed first among equals) until it fits the budget."""
    budget_rule = rules.value("skills.listing-fraction", None)
    ids = [rules.id(k) for k in ("skills.listing-fraction", "skills.listing-description-max",
                                 "skills.listing-drop-order", "skills.listing-budget") if rules.id(k)]
    max_desc = int(max_desc or rules.value("skills.listing-description-max", 0)) or 10**9  # none before 2.1.86
    if budget_rule is not None:
        window = int(window or budget_rule["window"])
        fraction = float(fraction or budget_rule["default"])
        budget = int(window * min(1.0, fraction) * budget_rule["chars-per-token"])
    else:  # before the setting existed: the fixed budget
        budget = int(rules.value("skills.listing-budget", 0)) or 10**9  # none curator knows before 2.1.32
        window, fraction = int(window or 200_000), 0.0
    for e in entries:
        e.listed = e.description[:max_desc]
        e.state = CUT if len(e.description) > max_desc else FULL
        e.lost = triggers(e.description, max_desc) if e.state == CUT else []
    full = _size(entries)
    total = full
    if total > budget and rules.value("skills.listing-drop-order", "least-invoked") == "least-invoked":
        order = sorted(range(len(entries)), key=lambda i: (entries[i].invocations, -i))
        for i in order:
            if total <= budget:
                break
            e = entries[i]
            if not e.listed:
                continue
            total -= len(e.line) - len(f"- {e.name}")
            e.lost = triggers(e.description)
            e.listed, e.state = "", BARE
    return Simulation(entries, budget, window, fraction, max_desc, total, full, ids, settings_from)


def _size(entries: list[Entry]) -> int:
    return sum(len(e.line) + 1 for e in entries)


@dataclass(slots=True)
class Seen:
    """A repository skill in a session's recorded listing beside the simulation."""

    name: str
    recorded: str  # full | cut | bare | absent
    simulated: str
    session_id: str
    timestamp: str

    @property
    def agrees(self) -> bool:
        return self.recorded == self.simulated or self.recorded == "absent"


def recorded_state(listing, name: str, max_desc: int) -> str:
    if listing is None or name not in listing.names:
        return "absent"
    chars = listing.described[listing.names.index(name)]
    return BARE if chars == 0 else CUT if chars >= max_desc else FULL
