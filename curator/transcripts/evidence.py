"""One session's record of its own context, folded across its transcripts (the main one and its
subagents'): the start-up files it recorded, what it attached later, the skills and subagents it
used, its skill listing, the files it read — and what each load cost: its tokens were carried by
every API call after it until the next compaction emptied the context (`carried`).

A `nested_memory` copied into a subagent keeps its uuid: such a copy is one attachment for the
session (its calls still count, they carried it). Pure: no repository, no model of the agent.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .records import ATTRIBUTION, COMPACT, INVOKED, NESTED, SKILL, STARTUP, SUBAGENT, Listing, Load

RECORDS = (STARTUP, NESTED, INVOKED)  # attachment lines: a version that writes them records what it attached


@dataclass(slots=True)
class Carried:
    """A load and the API calls that carried it (in its own transcript)."""

    load: Load
    calls: int
    scan: int  # which transcript of the session: 0 the main one


@dataclass(slots=True)
class SessionEvidence:
    session_id: str
    version: str  # the version the start-up was recorded under (else the session's first)
    cwd: str
    started: str
    branch: str = ""
    versions: list[str] = field(default_factory=list)
    startup: list[Load] = field(default_factory=list)  # the first start-up record, in its order
    recorded: bool = False  # the transcript holds a start-up record at all
    attachments: bool = False  # it holds attachment lines (start-up files, nested files, skills, a listing)
    rerecords: int = 0  # start-up records after compactions
    nested: list[Load] = field(default_factory=list)  # attached later (one per uuid), in order
    skills: dict[str, int] = field(default_factory=dict)  # skill -> invocations (refused calls left out)
    subagents: dict[str, int] = field(default_factory=dict)
    attributed: dict[str, int] = field(default_factory=dict)  # skill -> runs of lines attributed to it
    started_at: dict[str, str] = field(default_factory=dict)  # subagent -> the newest call that started it
    listings: list[Listing] = field(default_factory=list)
    reads: list = field(default_factory=list)  # Touch (read or edit), every transcript
    calls: int = 0  # API calls of every transcript
    main_calls: int = 0  # of the main transcript (what its listing rode on)
    carried: list[Carried] = field(default_factory=list)  # every load with the calls that carried it
    compactions: int = 0

    @property
    def used_skills(self) -> set[str]:
        return set(self.skills) | set(self.attributed)

    @property
    def listing(self) -> Listing | None:
        """The first full listing the session recorded."""
        return next((x for x in self.listings if x.initial), self.listings[0] if self.listings else None)


def _carried(scan_loads: list[Load], total_calls: int, scan: int) -> list[Carried]:
    """Each start-up file, attachment and invoked skill with the calls from it to the next
    compaction (or the transcript's end)."""
    out: list[Carried] = []
    open_: list[Load] = []
    for load in scan_loads:
        if load.kind == COMPACT:
            out += [Carried(x, max(0, load.calls - x.calls), scan) for x in open_]
            open_ = []
        elif load.kind in (STARTUP, NESTED, INVOKED, SKILL) and load.note != "error" and load.path:
            open_.append(load)
    out += [Carried(x, max(0, total_calls - x.calls), scan) for x in open_]
    return out


def session_evidence(session) -> SessionEvidence:
    """The record of one `index.Session`."""
    scans = session.scans
    main = session.main
    first_startup = next((x for x in main.loads if x.kind == STARTUP), None)
    version = first_startup.version if first_startup and first_startup.version else (main.versions[:1] or [""])[0]
    ev = SessionEvidence(session.session_id, version, (first_startup.cwd if first_startup else "") or main.cwd,
                         session.started, main.branch)
    seen_versions: dict[str, None] = {}
    seen_uuids: set[str] = set()
    ev.main_calls = main.assistant_messages
    for n, sc in enumerate(scans):
        for v in sc.versions:
            seen_versions.setdefault(v, None)
        ev.calls += sc.assistant_messages
        ev.reads += [t for t in sc.touches if t.how in ("read", "edit")]
        ev.listings += sc.listings
        ev.carried += _carried(sc.loads, sc.assistant_messages, n)
        ev.attachments = ev.attachments or bool(sc.listings) or any(x.kind in RECORDS for x in sc.loads)
        _fold(ev, sc.loads, n == 0 or first_startup is None, seen_uuids)
    ev.versions = list(seen_versions)
    return ev


def _fold(ev: SessionEvidence, loads: list[Load], main: bool, seen: set[str]) -> None:
    """One transcript's loads into the session's record."""
    invoked_since_compact: set[str] = set()
    in_first = False
    for load in loads:
        if load.kind == COMPACT:
            ev.compactions += main
            invoked_since_compact = set()
            in_first = False
            continue
        if load.uuid and load.kind in (NESTED, STARTUP, INVOKED):
            key = f"{load.kind}:{load.uuid}:{load.path}"
            if key in seen:
                continue  # a copy in a subagent of what the session already recorded
            seen.add(key)
        if load.kind == STARTUP:
            if main and not ev.recorded:
                ev.recorded, in_first = True, True
            if main and in_first and not load.note:
                if load.path:  # '' stands for a record of no file
                    ev.startup.append(load)
            elif main:
                ev.rerecords += 1
        else:
            in_first = False
            if load.kind == NESTED:
                ev.nested.append(load)
            elif load.kind == SKILL and load.note != "error":
                ev.skills[load.path] = ev.skills.get(load.path, 0) + 1
                invoked_since_compact.add(load.path)
            elif load.kind == INVOKED:
                if load.path not in invoked_since_compact and not _used_before(ev, load.path):
                    ev.skills[load.path] = ev.skills.get(load.path, 0) + 1  # a /command typed by the user
                invoked_since_compact.add(load.path)
            elif load.kind == SUBAGENT:
                ev.subagents[load.path] = ev.subagents.get(load.path, 0) + 1
                ev.started_at[load.path] = max(ev.started_at.get(load.path, ""), load.timestamp)
            elif load.kind == ATTRIBUTION:
                ev.attributed[load.path] = ev.attributed.get(load.path, 0) + 1


def _used_before(ev: SessionEvidence, name: str) -> bool:
    """An `invoked_skills` re-attached after a compaction names a skill the session used before."""
    return name in ev.skills
