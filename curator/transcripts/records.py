"""What a Claude Code session wrote down about its own context (see design.md, "What a Claude
Code session records"): the start-up instruction files (`attachment.type` `instructions`), the
files it attached later (`nested_memory`), the skill listing (`skill_listing`), the skills and
subagents it used (`Skill` / `Task` tool calls, `invoked_skills`, `attributionSkill`) and the
compactions that emptied its context. The reader folds each such line into plain `Load` and
`Listing` values kept on the scan (cached with it); nothing here needs the repository.

Contents are kept as a hash and a length only: a transcript may repeat a 20 KB CLAUDE.md after
every compaction, and the index stays small.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

STARTUP, NESTED, SKILL, INVOKED, SUBAGENT, COMPACT, ATTRIBUTION = (
    "startup", "nested", "skill", "invoked", "subagent", "compact", "attribution")
SKILL_TOOL = "Skill"
SUBAGENT_TOOLS = frozenset({"Task", "Agent"})
USE_TOOLS = SUBAGENT_TOOLS | {SKILL_TOOL}  # the calls the reader hands to `Recorder.tool`
LAUNCHING = "Launching skill:"
MAX_NAMES = 2000  # a listing's names kept (a hostile transcript may list millions)
MAX_LOADS = 20_000  # loads kept per transcript (each compaction re-records the start-up files)


@dataclass(slots=True)
class Load:
    """One thing the session put into the model's context, as its transcript recorded it."""

    kind: str  # startup | nested | skill | invoked | subagent | compact | attribution
    path: str  # a file's path as recorded (absolute), or a skill's or subagent's name
    type: str = ""  # Project | User | AutoMem | Managed (where the agent found the file)
    parent: str = ""  # the file whose @import brought it
    sha: str = ""  # sha256 (16 hex) of the content recorded ('' when none was)
    chars: int = 0  # characters of the content recorded
    differs: bool = False  # the agent said the content differs from the file on disk
    note: str = ""  # compaction reason, a rule's globs, "error" (a Skill call refused), "after compaction"
    calls: int = 0  # API calls (distinct message ids) the transcript held before this line
    timestamp: str = ""
    uuid: str = ""
    version: str = ""
    cwd: str = ""
    raw_sha: str = ""  # sha of `rawContent` (a rule's text with its frontmatter), when recorded

    def __reduce__(self):  # cached as a plain tuple: a slotted dataclass pickles a dict a load, 3x slower
        return (Load, tuple(getattr(self, f) for f in _LOAD_FIELDS))


@dataclass(slots=True)
class Listing:
    """A `skill_listing` line: every name, and how many characters of each one's description the
    listing kept (0: the budget dropped it, the name is listed bare)."""

    names: list[str] = field(default_factory=list)
    described: list[int] = field(default_factory=list)
    chars: int = 0  # the listing text's length
    initial: bool = True  # later listings are deltas (skills added)
    count: int = 0  # skillCount
    timestamp: str = ""
    uuid: str = ""
    version: str = ""

    def __reduce__(self):
        return (Listing, (self.names, self.described, self.chars, self.initial, self.count, self.timestamp, self.uuid,
                          self.version))


_LOAD_FIELDS = tuple(Load.__dataclass_fields__)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _str(v) -> str:
    return v if isinstance(v, str) else ""


def _line_facts(obj: dict) -> dict:
    return {"timestamp": _str(obj.get("timestamp")), "uuid": _str(obj.get("uuid")),
            "version": _str(obj.get("version")), "cwd": _str(obj.get("cwd"))}


def _content(entry: dict, facts: dict, kind: str, calls: int, note: str = "") -> Load | None:
    path = _str(entry.get("path")).strip()
    if not path:
        return None
    text = entry.get("content")
    text = text if isinstance(text, str) else ""
    raw = entry.get("rawContent")
    globs = entry.get("globs")
    if isinstance(globs, list):
        note = note or ", ".join(str(g) for g in globs[:20])
    elif isinstance(globs, str) and globs:
        note = note or globs
    return Load(kind, path, _str(entry.get("type")), _str(entry.get("parent")), digest(text) if text else "",
                len(text), entry.get("contentDiffersFromDisk") is True, note, calls,
                raw_sha=digest(raw) if isinstance(raw, str) and raw else "", **facts)


def attachment_loads(obj: dict, att: dict, calls: int) -> tuple[list[Load], Listing | None]:
    """The loads (and the listing) one `attachment` line records."""
    kind = att.get("type")
    facts = _line_facts(obj)
    out: list[Load] = []
    if kind == "instructions":
        files = att.get("files")
        again = "changed" in att or "reason" in att
        note = _str(att.get("reason")) or ("after compaction" if again else "")
        for entry in files if isinstance(files, list) else ():
            if isinstance(entry, dict):
                got = _content(entry, facts, STARTUP, calls, note)
                if got is not None:
                    out.append(got)
        if not out:  # a record of nothing: the session loaded no instruction file
            out.append(Load(STARTUP, "", note=note, calls=calls, **facts))
    elif kind == "nested_memory":
        inner = att.get("content")
        entry = dict(inner) if isinstance(inner, dict) else {}
        entry["path"] = _str(att.get("path")) or _str(entry.get("path"))
        got = _content(entry, facts, NESTED, calls)
        if got is not None:
            out.append(got)
    elif kind == "invoked_skills":
        skills = att.get("skills")
        for s in skills if isinstance(skills, list) else ():
            if isinstance(s, dict) and _str(s.get("name")):
                body = _str(s.get("content"))
                out.append(Load(INVOKED, s["name"], "", _str(s.get("path")), digest(body) if body else "", len(body),
                                calls=calls, **facts))
    elif kind == "skill_listing":
        return out, listing_of(att, facts)
    return out, None


def listing_of(att: dict, facts: dict) -> Listing:
    """The names and, per name, the characters of its description the listing text kept."""
    names = [n for n in att.get("names", []) if isinstance(n, str)][:MAX_NAMES] \
        if isinstance(att.get("names"), list) else []
    text = _str(att.get("content"))
    described: dict[str, int] = {}
    for line in text.splitlines():
        if not line.startswith("- "):
            continue
        head = line[2:]
        for name in _names_at(head, names):
            rest = head[len(name):]
            described[name] = len(rest[1:].strip()) if rest.startswith(":") else 0
            break
        else:  # a listing line whose name `names` lacks (older versions wrote no names[])
            name, sep, rest = head.partition(": ")
            if name and name not in described:
                described[name] = len(rest.strip()) if sep else 0
    if not names:
        names = list(described)[:MAX_NAMES]
    count = att.get("skillCount")
    return Listing(names, [described.get(n, 0) for n in names], len(text), att.get("isInitial") is not False,
                   count if isinstance(count, int) and not isinstance(count, bool) else len(names),
                   facts["timestamp"], facts["uuid"], facts["version"])


def _names_at(head: str, names: list[str]):
    """The names `head` (a listing line without its `- `) starts with, longest first."""
    return sorted((n for n in names if head.startswith(n) and head[len(n):len(n) + 1] in ("", ":")),
                  key=len, reverse=True)


def tool_loads(obj: dict, block: dict, calls: int) -> Load | None:
    """A `Skill` call (the skill named in `input.skill`) or a subagent started (`Task`/`Agent`
    with `input.subagent_type`)."""
    name, inp = block.get("name"), block.get("input")
    if not isinstance(inp, dict):
        return None
    if name == SKILL_TOOL and _str(inp.get("skill")).strip():
        return Load(SKILL, inp["skill"].strip(), calls=calls, timestamp=_str(obj.get("timestamp")))
    if name in SUBAGENT_TOOLS and _str(inp.get("subagent_type")).strip():
        return Load(SUBAGENT, inp["subagent_type"].strip(), calls=calls, timestamp=_str(obj.get("timestamp")))
    return None


def launched(text: str) -> str:
    """The skill a tool result says was launched ('' when it says nothing of the kind)."""
    if not text.startswith(LAUNCHING):
        return ""
    return text[len(LAUNCHING):].strip().split()[0] if text[len(LAUNCHING):].strip() else ""


class Recorder:
    """Folds the lines that record the context into a scan's `loads` and `listings` (the reader
    hands it every line it dispatches)."""

    def __init__(self, scan) -> None:
        self.s = scan
        self._skill_calls: dict[str, Load] = {}  # tool id -> its Skill call, until its result says how it went
        self._attributed = ""

    def _add(self, load: Load) -> None:
        if len(self.s.loads) < MAX_LOADS:
            self.s.loads.append(load)

    def system(self, obj: dict) -> None:
        if obj.get("subtype") == "compact_boundary":  # the context was emptied: what follows is re-recorded
            self._add(Load(COMPACT, "", calls=self.s.assistant_messages, **_line_facts(obj)))

    def assistant(self, obj: dict) -> None:
        skill = obj.get("attributionSkill")
        if isinstance(skill, str) and skill and skill != self._attributed:  # once for a run of lines
            self._attributed = skill
            self._add(Load(ATTRIBUTION, skill, calls=self.s.assistant_messages, timestamp=_str(obj.get("timestamp"))))

    def tool(self, obj: dict, block: dict) -> bool:
        """A Skill or subagent call (USE_TOOLS; True: the reader has nothing more to do with it)."""
        used = tool_loads(obj, block, self.s.assistant_messages)
        if used is not None:
            self._add(used)
            if used.kind == SKILL and isinstance(block.get("id"), str) and len(self._skill_calls) < MAX_NAMES:
                self._skill_calls[block["id"]] = used
        return True

    def user(self, obj: dict) -> None:
        """A Skill call's result: refused (an error), or "Launching skill: NAME" (a launch whose
        call this transcript does not hold counts as a use of its own)."""
        msg = obj.get("message")  # (every user line passes here: exact type checks, no more)
        content = msg.get("content") if msg.__class__ is dict else None
        if content.__class__ is not list:
            return
        calls = self._skill_calls
        for block in content:
            if block.__class__ is not dict or block.get("type") != "tool_result":
                continue
            if calls:
                use_id = block.get("tool_use_id")
                call = calls.pop(use_id, None) if isinstance(use_id, str) else None
                if call is not None:
                    if block.get("is_error") is True:
                        call.note = "error"
                    continue
            text = block.get("content")
            if text.__class__ is list and text and text[0].__class__ is dict:
                text = text[0].get("text")
            name = launched(text) if text.__class__ is str and text.startswith(LAUNCHING) else ""
            if name:
                self._add(Load(SKILL, name, note="launched", calls=self.s.assistant_messages,
                               timestamp=_str(obj.get("timestamp"))))

    def attachment(self, obj: dict, att: dict) -> None:
        if att.get("type") not in ("instructions", "nested_memory", "invoked_skills", "skill_listing"):
            return
        loads, listing = attachment_loads(obj, att, self.s.assistant_messages)
        for load in loads:
            self._add(load)
        if listing is not None and len(self.s.listings) < MAX_LOADS:
            self.s.listings.append(listing)
