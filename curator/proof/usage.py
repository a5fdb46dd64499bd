"""Which instruction files the sessions really used, and what each cost: per start-up file, rule
with `paths:`, nested CLAUDE.md/AGENTS.md, skill, command and subagent — the sessions that
attached or invoked it, how often, the last time, and its tokens times the API calls that carried
it (from each load to the next compaction; calls counted once per message id). A skill's listing
line costs too: it rides on every call of a session that listed it.

Only sessions whose version records attachments count (older ones are no evidence either way).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..transcripts.records import INVOKED, NESTED, SKILL, STARTUP
from .predict import Prediction
from .verify import MATCHED, SessionCheck

KINDS = ("start-up", "rule", "nested", "skill", "command", "subagent")


@dataclass(slots=True)
class ItemUse:
    path: str
    kind: str  # start-up | rule | nested | skill | command | subagent
    rule: str
    tokens: int  # what loads when it is used (the file, the skill's body)
    name: str = ""  # a skill's, command's or subagent's name
    globs: tuple[str, ...] = ()
    sessions: set[str] = field(default_factory=set)
    uses: int = 0  # attachments, invocations
    last: str = ""
    calls: int = 0  # API calls that carried it
    listed_tokens: int = 0  # its listing line
    listed_calls: int = 0  # calls that carried the listing line
    lines: list[str] = field(default_factory=list)  # session ids that used it, newest first

    @property
    def cost(self) -> int:
        return self.tokens * self.calls + self.listed_tokens * self.listed_calls

    def to_json(self) -> dict:
        out = {"path": self.path, "kind": self.kind, "rule": self.rule, "sessions": len(self.sessions),
               "uses": self.uses, "last": self.last or None, "tokens": self.tokens, "calls": self.calls,
               "cost_tokens": self.cost}
        if self.name:
            out["name"] = self.name
        if self.listed_tokens:
            out["listing"] = {"tokens": self.listed_tokens, "calls": self.listed_calls}
        return out


@dataclass(slots=True)
class Usage:
    items: list[ItemUse]
    sessions: int  # sessions that count (their version records attachments)
    oldest: str = ""

    def of(self, path: str) -> ItemUse | None:
        return next((i for i in self.items if i.path == path), None)

    def to_json(self) -> dict:
        return {"sessions": self.sessions, "items": [i.to_json() for i in self.items]}


def items_of(p: Prediction) -> list[ItemUse]:
    """Every item of the model whose use sessions can show."""
    out = [ItemUse(e.path, "start-up", e.rule, e.tokens) for e in p.startup.values()]
    for e in p.on_demand.values():
        if e.trigger == "path" and not e.parent:
            out.append(ItemUse(e.path, "rule", e.rule, e.tokens, globs=e.globs))
        elif e.trigger == "folder" and not e.parent:
            out.append(ItemUse(e.path, "nested", e.rule, e.tokens, globs=e.globs))
    bodies = {o.path: o.tokens for o in p.ctx.on_demand if o.trigger in ("description", "invoked")}
    lines = {e.path: e.tokens for e in p.ctx.startup if e.cut is not None}
    for x in p.ctx.listing:
        out.append(ItemUse(x.path, x.kind, _listing_rule(p, x.kind), bodies.get(x.path, 0), x.name,
                           listed_tokens=lines.get(x.path, 0)))
    return out


def _listing_rule(p: Prediction, kind: str) -> str:
    return p.rules.id({"skill": "skills.folder", "command": "commands.folder", "subagent": "subagents.folder"}[kind])


def usage(checks: list[SessionCheck], current: Prediction, rel_of) -> Usage:
    """Usage of `current`'s items (today's model) over the sessions checked; `rel_of` maps a
    recorded path to a repository-relative one (None: outside)."""
    items = items_of(current)
    by_path = {i.path: i for i in items if i.kind in ("start-up", "rule", "nested")}
    by_name: dict[str, list[ItemUse]] = {}
    for i in items:
        if i.name:
            by_name.setdefault(i.name, []).append(i)
    counted = [c for c in checks if c.attachments]
    for c in sorted(counted, key=lambda c: c.evidence.started, reverse=True):
        ev = c.evidence
        used: set[int] = set()
        recorded = {r.path for r in c.rows if r.status == MATCHED and r.when == "start-up"}
        for rel in recorded:
            item = by_path.get(rel)
            if item is not None and item.kind in ("start-up", "nested"):  # nested: the session ran below it
                _use(item, ev, 1, used)
        for load in ev.nested:
            item = by_path.get(rel_of(load.path) or "")
            if item is not None:
                _use(item, ev, 1, used, load.timestamp)
        when = {x.load.path: x.load.timestamp for x in sorted(ev.carried, key=lambda c: c.load.timestamp)
                if x.load.kind in (SKILL, INVOKED)}  # the newest use of each skill
        for name, n in ev.skills.items():
            for item in _named(by_name, name, ("skill", "command")):
                _use(item, ev, n, used, when.get(name, ""))
        for name in ev.attributed:
            for item in _named(by_name, name, ("skill", "command")):
                if id(item) not in used:
                    _use(item, ev, 1, used)
        for name, n in ev.subagents.items():
            for item in _named(by_name, name, ("subagent",)):
                _use(item, ev, n, used, ev.started_at.get(name, ""))
        _carried(ev, by_path, by_name, rel_of)
        _listed(ev, by_name)
    oldest = min((c.evidence.started for c in counted if c.evidence.started), default="")
    return Usage(items, len(counted), oldest)


def _named(by_name: dict, name: str, kinds: tuple[str, ...]) -> list[ItemUse]:
    short = name.rsplit(":", 1)[-1] if name not in by_name else name  # `plugin:name` names another's skill
    return [i for i in by_name.get(name, by_name.get(short, []) if ":" not in name else []) if i.kind in kinds]


def _use(item: ItemUse, ev, n: int, used: set[int], when: str = "") -> None:
    if ev.session_id not in item.sessions:
        item.sessions.add(ev.session_id)
        item.lines.append(ev.session_id)
    item.uses += n
    used.add(id(item))
    stamp = when or ev.started
    if stamp > item.last:
        item.last = stamp


def _carried(ev, by_path: dict, by_name: dict, rel_of) -> None:
    for c in ev.carried:
        load = c.load
        if load.kind in (STARTUP, NESTED):
            item = by_path.get(rel_of(load.path) or "")
            if item is not None:
                item.calls += c.calls
        elif load.kind in (SKILL, INVOKED):
            for item in _named(by_name, load.path, ("skill", "command")):
                item.calls += c.calls


def _listed(ev, by_name: dict) -> None:
    """The listing line rides on every call of a session whose listing named it."""
    listing = ev.listing
    if listing is None:
        return
    for name, chars in zip(listing.names, listing.described, strict=False):
        for item in _named(by_name, name, ("skill", "command")):
            item.listed_calls += ev.main_calls if chars else 0  # listed bare: its name only
