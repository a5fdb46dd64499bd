"""Stream one Claude Code transcript (`*.jsonl`) a line at a time — never the whole file.

One JSON object a line, dispatched on `type`. Blank lines, invalid JSON (a truncated last line
of a live session, a half-written copy), objects that are not mappings and unknown types are
counted, never fatal. What a pass learns is a `SessionScan`: the facts a sessions list shows and
the memory *touches* (reads, listings, files surfaced into context) that usage evidence is made
of. Touches keep the raw path or name; mapping them to a store's records is `usage`'s job.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from .lines import capped_lines
from .records import USE_TOOLS, Listing, Load, Recorder

# the conversation
MESSAGE_TYPES = frozenset({"user", "assistant", "system", "summary", "attachment", "progress"})
# metadata lines Claude Code writes beside the conversation (skipped, never "unknown")
METADATA_TYPES = frozenset({
    "file-history-snapshot", "queue-operation", "custom-title", "ai-title", "last-prompt", "tag",
    "agent-name", "pr-link", "mode", "worktree-state", "content-replacement", "marble-origami-commit",
    "marble-origami-snapshot", "x-anthropic-billing",
})
TITLE_KEYS = (("custom-title", "customTitle"), ("ai-title", "aiTitle"), ("summary", "summary"))

SERENA_READ = "read_memory"
SERENA_LIST = "list_memories"
READ_TOOLS = frozenset({"Read", "read_file", "View"})
EDIT_TOOLS = frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit"})  # touches too (`edit`): paths: rules attach
MAX_TEXT = 4000  # characters of one block kept for the conversation view


@dataclass(slots=True)
class LineStats:
    lines: int = 0
    blank: int = 0
    invalid: int = 0
    not_object: int = 0
    unknown: dict[str, int] = field(default_factory=dict)
    truncated: bool = False  # the last line had no newline and did not parse
    too_long: int = 0  # lines longer than LINE_CAP: skipped, never held in memory

    @property
    def problems(self) -> int:
        return self.invalid + self.not_object + self.too_long + sum(self.unknown.values())


@dataclass(slots=True)
class Touch:
    """A memory reaching the agent: `how` is serena-read, serena-list, read, edit or context."""

    how: str
    target: str  # a Serena memory name, or a file path as the session saw it
    timestamp: str
    uuid: str
    session_id: str


@dataclass(slots=True)
class SessionScan:
    path: str
    size: int
    mtime: float
    session_id: str = ""
    cwd: str = ""
    branch: str = ""
    title: str = ""
    title_source: str = ""  # custom-title, ai-title, summary or prompt
    first_prompt: str = ""
    started: str = ""
    ended: str = ""
    versions: list[str] = field(default_factory=list)
    user_messages: int = 0
    assistant_messages: int = 0
    tool_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_creation_tokens: int = 0
    sidechain: bool = False
    complete: bool = False  # False: only the head was peeked (counts are partial)
    stats: LineStats = field(default_factory=LineStats)
    touches: list[Touch] = field(default_factory=list)
    loads: list[Load] = field(default_factory=list)  # what the session recorded of its context (records.py)
    listings: list[Listing] = field(default_factory=list)  # its skill listings

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens + self.cache_read_tokens + self.cache_creation_tokens

    @property
    def messages(self) -> int:
        return self.user_messages + self.assistant_messages

    @property
    def duration_s(self) -> float | None:
        a, b = parse_time(self.started), parse_time(self.ended)
        return (b - a).total_seconds() if a and b else None


def parse_time(text: str) -> datetime | None:
    if not text:
        return None
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None


def iter_objects(path: Path, stats: LineStats | None = None, limit_bytes: int | None = None,
                 start: int = 0, first_line: int = 1) -> Iterator[tuple[int, dict]]:
    """(line number, object) for every JSON object line (from byte `start`, numbered from
    `first_line`); the rest is counted in `stats` (a line over LINE_CAP bytes is skipped)."""
    stats = stats if stats is not None else LineStats()
    read = 0
    with open(path, "rb") as fh:
        if start:
            fh.seek(start)
        for no, (raw, size) in enumerate(capped_lines(fh), first_line):
            stats.lines = no
            read += size
            if raw is None:
                stats.too_long += 1
            elif not raw.strip():
                stats.blank += 1
            else:
                try:
                    obj = json.loads(raw)
                except (ValueError, RecursionError):
                    stats.invalid += 1
                    if not raw.endswith(b"\n"):
                        stats.truncated = True
                else:
                    if isinstance(obj, dict):
                        yield no, obj
                    else:
                        stats.not_object += 1
            if limit_bytes is not None and read >= limit_bytes:
                return


def text_of(content) -> str:
    """The plain text of a message's content (a string or a list of blocks)."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    parts = []
    for block in content:
        if isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str):
            parts.append(block["text"])
        elif isinstance(block, str):
            parts.append(block)
    return "\n".join(parts)


def is_prompt(obj: dict) -> bool:
    """A user line a person typed (not a tool result, not a meta/system-injected line)."""
    if obj.get("isMeta") or obj.get("isCompactSummary"):
        return False
    msg = obj.get("message")
    if not isinstance(msg, dict):
        return False
    content = msg.get("content")
    if isinstance(content, list) and any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content):
        return False
    text = text_of(content).strip()
    return bool(text) and not text.startswith(("<command-", "<local-command", "[Request interrupted"))


def tool_name(name: str) -> str:
    """`mcp__serena__read_memory` → `read_memory`; `Read` stays `Read`."""
    return name.rsplit("__", 1)[-1] if "__" in name else name


class Scanner:
    """Folds objects into a SessionScan; `scan()` streams a file through it."""

    def __init__(self, scan: SessionScan) -> None:
        self.s = scan
        self._seen_usage: set[str] = set()
        self._versions: dict[str, None] = {}
        self._title_rank = 99
        self.rec = Recorder(scan)

    def feed(self, obj: dict) -> None:
        s = self.s
        kind = obj.get("type")
        if not isinstance(kind, str):
            kind = ""
        if kind not in MESSAGE_TYPES and kind not in METADATA_TYPES:
            s.stats.unknown[kind or "(none)"] = s.stats.unknown.get(kind or "(none)", 0) + 1
            return
        for rank, (t, key) in enumerate(TITLE_KEYS):
            if kind == t and isinstance(obj.get(key), str) and obj[key].strip() and rank <= self._title_rank:
                s.title, s.title_source, self._title_rank = obj[key].strip(), t, rank
        if kind in METADATA_TYPES or kind == "summary":
            return
        ts = obj.get("timestamp")
        if isinstance(ts, str) and ts:
            if not s.started or ts < s.started:
                s.started = ts
            if ts > s.ended:
                s.ended = ts
        if not s.session_id and isinstance(obj.get("sessionId"), str):
            s.session_id = obj["sessionId"]
        if not s.cwd and isinstance(obj.get("cwd"), str):
            s.cwd = obj["cwd"]
        if isinstance(obj.get("gitBranch"), str) and obj["gitBranch"]:
            s.branch = obj["gitBranch"]
        if obj.get("isSidechain") is True:
            s.sidechain = True
        v = obj.get("version")
        if isinstance(v, str) and v not in self._versions:
            self._versions[v] = None
            s.versions = list(self._versions)
        if kind == "user":
            self._user(obj, ts if isinstance(ts, str) else "")
        elif kind == "assistant":
            self._assistant(obj, ts if isinstance(ts, str) else "")
        elif kind == "attachment":
            self._attachment(obj, ts if isinstance(ts, str) else "")
        elif kind == "system":
            self.rec.system(obj)

    def _user(self, obj: dict, ts: str) -> None:
        s = self.s
        self.rec.user(obj)
        if is_prompt(obj):
            s.user_messages += 1
            if not s.first_prompt:
                s.first_prompt = " ".join(text_of(obj["message"].get("content")).split())[:200]

    def _assistant(self, obj: dict, ts: str) -> None:
        s = self.s
        msg = obj.get("message")
        if not isinstance(msg, dict):
            return
        # Claude Code writes one line per content block, each repeating the message's usage:
        # count a message (and its usage) once, by its id
        mid = i if isinstance(i := msg.get("id"), str) else str(obj.get("uuid"))
        if mid not in self._seen_usage:
            self._seen_usage.add(mid)
            s.assistant_messages += 1
            usage = msg.get("usage")
            if isinstance(usage, dict):
                s.input_tokens += _int(usage.get("input_tokens"))
                s.output_tokens += _int(usage.get("output_tokens"))
                s.cache_read_tokens += _int(usage.get("cache_read_input_tokens"))
                s.cache_creation_tokens += _int(usage.get("cache_creation_input_tokens"))
        if "attributionSkill" in obj:
            self.rec.assistant(obj)
        content = msg.get("content")
        if not isinstance(content, list):
            return
        for block in content:
            if not isinstance(block, dict) or block.get("type") != "tool_use":
                continue
            s.tool_calls += 1
            name = block.get("name")
            inp = block.get("input")
            if not isinstance(name, str) or not isinstance(inp, dict) or (name in USE_TOOLS and self.rec.tool(obj, block)):
                continue
            short = tool_name(name)
            uuid = u if isinstance(u := obj.get("uuid"), str) else ""
            if short == SERENA_READ:
                target = inp.get("memory_file_name") or inp.get("memory_name") or inp.get("name")
                if isinstance(target, str) and target.strip():
                    s.touches.append(Touch("serena-read", target.strip(), ts, uuid, s.session_id))
            elif short == SERENA_LIST:
                s.touches.append(Touch("serena-list", "", ts, uuid, s.session_id))
            elif name in READ_TOOLS or name in EDIT_TOOLS:
                target = inp.get("file_path") or inp.get("path") or inp.get("notebook_path")
                if isinstance(target, str) and target.strip():
                    how = "read" if name in READ_TOOLS else "edit"
                    s.touches.append(Touch(how, target.strip(), ts, uuid, s.session_id))

    def _attachment(self, obj: dict, ts: str) -> None:
        att = obj.get("attachment")
        if not isinstance(att, dict):
            return
        uuid = u if isinstance(u := obj.get("uuid"), str) else ""
        paths = []
        kind = att.get("type")
        self.rec.attachment(obj, att)
        if kind == "nested_memory":
            inner = att.get("content")
            paths.append(att.get("path") or (inner.get("path") if isinstance(inner, dict) else None))
        elif kind == "relevant_memories":
            mems = att.get("memories")
            if isinstance(mems, list):
                paths.extend(m.get("path") for m in mems if isinstance(m, dict))
        elif kind in ("file", "compact_file_reference"):
            paths.append(att.get("filename") or att.get("path"))
        for p in paths:
            if isinstance(p, str) and p.strip():
                self.s.touches.append(Touch("context", p.strip(), ts, uuid, self.s.session_id))


def _int(value) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def new_scan(path: Path) -> SessionScan:
    try:
        st = path.stat()
        size, mtime = st.st_size, st.st_mtime
    except OSError:
        size, mtime = 0, 0.0
    return SessionScan(str(path), size, mtime, session_id="")


TAIL = 256  # bytes before the end of what was read, to recognise a file that only grew


@dataclass(slots=True)
class ScanState:
    """What resuming a scan needs besides the scan: usage already counted, the title's rank, and
    the bytes the scanned part ended with."""

    seen: set
    title_rank: int
    tail: bytes


def _finish(path: Path, s: SessionScan) -> SessionScan:
    if not s.session_id:
        s.session_id = path.stem
    if not s.title and s.first_prompt:
        s.title, s.title_source = s.first_prompt, "prompt"
    for t in s.touches:
        if not t.session_id:
            t.session_id = s.session_id
    return s


def _tail(path: Path, size: int) -> bytes:
    try:
        with open(path, "rb") as fh:
            fh.seek(max(0, size - TAIL))
            return fh.read(min(size, TAIL))
    except OSError:
        return b""


def scan_state(path: Path, limit_bytes: int | None = None) -> tuple[SessionScan, ScanState]:
    """A scan and the state to resume it from when the file grows."""
    path = Path(path)
    s = new_scan(path)
    sc = Scanner(s)
    try:
        for _, obj in iter_objects(path, s.stats, limit_bytes):
            sc.feed(obj)
        s.complete = limit_bytes is None or s.size <= limit_bytes
    except OSError as exc:
        s.stats.unknown[f"unreadable: {exc.strerror or exc}"] = 1
    return _finish(path, s), ScanState(sc._seen_usage, sc._title_rank, _tail(path, s.size))


def scan(path: Path, limit_bytes: int | None = None) -> SessionScan:
    """Stream a transcript (or only its first `limit_bytes`: a peek for the first list)."""
    return scan_state(path, limit_bytes)[0]


def resume(path: Path, prev: SessionScan, state: ScanState) -> tuple[SessionScan, ScanState] | None:
    """Read only what was appended since `prev` (a live session grows line by line); None when
    the file did not just grow (shorter, its last bytes read changed, or `prev` ended mid-line).
    Claude Code only appends to a transcript; an edit further back is not detected."""
    import copy

    path = Path(path)
    fresh = new_scan(path)
    if not prev.complete or prev.stats.truncated or fresh.size < prev.size or _tail(path, prev.size) != state.tail \
            or (prev.size and not state.tail.endswith(b"\n")):
        return None
    s = copy.deepcopy(prev)
    s.size, s.mtime = fresh.size, fresh.mtime
    sc = Scanner(s)
    sc._seen_usage, sc._title_rank = set(state.seen), state.title_rank
    sc._versions = dict.fromkeys(s.versions)
    if s.title_source == "prompt":  # a fallback, not a title: a real one may come
        s.title, s.title_source = "", ""
    if s.session_id == path.stem:  # maybe the file name standing in for an id not yet seen
        s.session_id = ""
        for t in s.touches:
            if t.session_id == path.stem:
                t.session_id = ""
    try:
        for _, obj in iter_objects(path, s.stats, start=prev.size, first_line=prev.stats.lines + 1):
            sc.feed(obj)
    except OSError:
        return None
    return _finish(path, s), ScanState(sc._seen_usage, sc._title_rank, _tail(path, s.size))
