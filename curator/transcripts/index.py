"""The sessions of one repository: a quick first list, then a full index with progress.

`SessionIndex.quick()` peeks at the head of each transcript (title, branch, start) so a list can
be shown at once; `build(progress)` streams every file (the slow part, run in a worker by the
app) and keeps the scans in a user cache keyed by path, size and modification time, so a second
run only reads transcripts that grew.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path

from .discover import Discovery, TranscriptFile, discover
from .reader import SessionScan, resume, scan, scan_state

PEEK_BYTES = 64 * 1024
CACHE_VERSION = 5  # 5: loads and listings kept; 4: plain tuples in a checksummed marshal file (never pickle)
Progress = Callable[[str, float], None]


@dataclass(slots=True)
class Session:
    """One session: its main transcript's scan plus its subagents'."""

    session_id: str
    main: SessionScan
    subagents: list[SessionScan] = field(default_factory=list)

    @property
    def scans(self) -> list[SessionScan]:
        return [self.main, *self.subagents]

    @property
    def complete(self) -> bool:
        return all(s.complete for s in self.scans)

    @property
    def started(self) -> str:
        return min((s.started for s in self.scans if s.started), default="")

    @property
    def ended(self) -> str:
        return max((s.ended for s in self.scans if s.ended), default="")

    @property
    def duration_s(self) -> float | None:
        from .reader import parse_time

        a, b = parse_time(self.started), parse_time(self.ended)
        return (b - a).total_seconds() if a and b else None

    @property
    def title(self) -> str:
        return self.main.title or self.main.first_prompt or "(untitled)"

    @property
    def messages(self) -> int:
        return sum(s.messages for s in self.scans)

    @property
    def tokens(self) -> int:
        return sum(s.tokens for s in self.scans)

    @property
    def size(self) -> int:
        return sum(s.size for s in self.scans)

    @property
    def problems(self) -> int:
        return sum(s.stats.problems for s in self.scans)

    def to_json(self) -> dict:
        m = self.main
        return {
            "session_id": self.session_id, "path": m.path, "title": self.title, "title_source": m.title_source,
            "branch": m.branch, "cwd": m.cwd, "started": self.started, "ended": self.ended,
            "duration_s": self.duration_s, "versions": m.versions,
            "user_messages": sum(s.user_messages for s in self.scans),
            "assistant_messages": sum(s.assistant_messages for s in self.scans),
            "tool_calls": sum(s.tool_calls for s in self.scans),
            "tokens": {
                "input": sum(s.input_tokens for s in self.scans), "output": sum(s.output_tokens for s in self.scans),
                "cache_read": sum(s.cache_read_tokens for s in self.scans),
                "cache_creation": sum(s.cache_creation_tokens for s in self.scans), "total": self.tokens,
            },
            "subagents": [s.path for s in self.subagents], "bytes": self.size, "complete": self.complete,
            "lines": {"blank": sum(s.stats.blank for s in self.scans), "invalid": sum(s.stats.invalid for s in self.scans),
                      "truncated": any(s.stats.truncated for s in self.scans),
                      "too_long": sum(s.stats.too_long for s in self.scans),
                      "unknown_types": _merge(s.stats.unknown for s in self.scans)},
        }


def format_duration(seconds: float | None) -> str:
    """42s, 17m, 2h05 (or - when unknown)."""
    if seconds is None:
        return "-"
    s = int(seconds)
    return f"{s}s" if s < 60 else f"{s // 60}m" if s < 3600 else f"{s // 3600}h{(s % 3600) // 60:02d}"


def _merge(dicts) -> dict[str, int]:
    out: dict[str, int] = {}
    for d in dicts:
        for k, v in d.items():
            out[k] = out.get(k, 0) + v
    return out


# a cache entry's scan: these plain values, then its stats, touches, loads and listings
_HEAD_FIELDS = len(fields(SessionScan)) - 4


def _cache():
    from ..base.cache import user_cache

    return user_cache("sessions.marshal", CACHE_VERSION)


def _encode(size: int, mtime: float, scan: SessionScan, state) -> tuple:
    """A cache entry as plain values (`marshal` stores them; nothing is ever unpickled)."""
    from dataclasses import astuple

    return (size, mtime, astuple(scan), (set(state.seen), state.title_rank, bytes(state.tail)))


def _decode(value) -> tuple | None:
    """(size, mtime, scan, state) of a cache entry, or None when it is not one."""
    from .reader import LineStats, ScanState, Touch
    from .records import Listing, Load

    try:
        size, mtime, values, (seen, rank, tail) = value
        *head, stats, touches, loads, listings = values
        if len(head) != _HEAD_FIELDS:  # not this shape of SessionScan
            return None
        scan = SessionScan(*head)
        scan.stats, scan.touches = LineStats(*stats), [Touch(*t) for t in touches]
        scan.loads, scan.listings = [Load(*x) for x in loads], [Listing(*x) for x in listings]
        if not (isinstance(scan.path, str) and isinstance(scan.stats.unknown, dict) and isinstance(seen, set)
                and isinstance(tail, bytes) and isinstance(rank, int)):
            return None
        return size, mtime, scan, ScanState(seen, rank, tail)
    except (TypeError, ValueError):
        return None


class SessionIndex:
    def __init__(self, discovery: Discovery, use_cache: bool = True) -> None:
        self.discovery = discovery
        self.use_cache = use_cache
        self.sessions: dict[str, Session] = {}

    @classmethod
    def for_repo(cls, repo, roots=None, use_cache: bool = True, match_all: bool = False) -> SessionIndex:
        return cls(discover(repo, roots, match_all=match_all), use_cache)

    def _assemble(self, scans: dict[Path, SessionScan]) -> None:
        out: dict[str, Session] = {}
        for sid, files in self.discovery.sessions().items():
            main_files = [f for f in files if not f.subagent]
            subs = [scans[f.path] for f in files if f.subagent and f.path in scans]
            if main_files:
                out[sid] = Session(sid, scans[main_files[0].path], subs)
                for extra in main_files[1:]:  # a resumed session copied into a second file
                    out[sid].subagents.append(scans[extra.path])
            elif subs:  # subagent logs whose main transcript is gone
                out[sid] = Session(sid, subs[0], subs[1:])
        self.sessions = dict(sorted(out.items(), key=lambda kv: kv[1].started or "", reverse=True))

    def quick(self) -> list[Session]:
        """Peek at each transcript's head (and use complete cached scans): the first list."""
        cache = _cache() if self.use_cache else None
        scans = {}
        for f in self.discovery.files:
            cached = _cached(cache, f) if cache is not None else None
            scans[f.path] = cached or scan(f.path, PEEK_BYTES)
        self._assemble(scans)
        return list(self.sessions.values())

    def build(self, progress: Progress | None = None, should_stop: Callable[[], bool] | None = None) -> list[Session]:
        """Stream every transcript (cached ones are not re-read)."""
        cache = _cache() if self.use_cache else None
        files = self.discovery.files
        total = sum(f.size for f in files) or 1
        done = 0
        scans = {}
        for f in files:
            if should_stop is not None and should_stop():
                break
            cached = _cached(cache, f) if cache is not None else None
            if cached is None:
                if progress:
                    progress(f"reading {f.path.name}", done / total)
                entry = _decode(cache._load().get(str(f.path))) if cache is not None else None
                got = resume(f.path, entry[2], entry[3]) if entry is not None else None  # only the new lines
                cached, state = got or scan_state(f.path)
                if cache is not None and cached.complete:
                    cache._load()[str(f.path)] = _encode(f.size, f.mtime, cached, state)  # a grown file replaces it
                    cache._dirty = True
            scans[f.path] = cached
            done += f.size
        if cache is not None:
            cache.flush()
        if len(scans) == len(files):
            self._assemble(scans)
        if progress:
            progress(f"{len(self.sessions)} session(s) indexed", 1.0)
        return list(self.sessions.values())

    def find(self, key: str) -> Session | None:
        """A session by id, id prefix (unique) or transcript file name."""
        if key in self.sessions:
            return self.sessions[key]
        hits = [s for sid, s in self.sessions.items() if sid.startswith(key) or Path(s.main.path).stem == key]
        return hits[0] if len(hits) == 1 else None


def _cached(cache, f: TranscriptFile) -> SessionScan | None:
    """The cached scan of this file if it has not changed since (same size and mtime)."""
    value = _decode(cache._load().get(str(f.path)))
    return value[2] if value is not None and value[:2] == (f.size, f.mtime) else None
