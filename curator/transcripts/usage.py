"""Evidence of use: which memory files the agent's sessions really read, and when.

A *touch* from a transcript (Serena `read_memory` by name, a `Read` of a path, a memory file
surfaced into context) is mapped to a record of the store: Serena names resolve like Serena does
(`name` → `name.md`, topic folders kept); paths resolve against the store's folder, also when the
session ran in another worktree or checkout (the store's place inside the repository, e.g.
`.serena/memories/`, is looked for in the path). `list_memories` reads no memory: it is counted
per session. Claude Code's own memory folder has its `MEMORY.md` loaded into every session
(`startup`). Pure: no store object is needed, only its root and its record paths.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path, PurePosixPath

from .reader import Touch


@dataclass(slots=True)
class Read:
    path: str  # the record, relative to the store root
    how: str
    day: date | None
    timestamp: str
    session_id: str
    uuid: str


@dataclass(slots=True)
class MemoryUse:
    path: str
    reads: int = 0
    sessions: set[str] = field(default_factory=set)
    last: str = ""  # ISO timestamp of the newest read
    reads_30: int = 0
    reads_90: int = 0
    hows: dict[str, int] = field(default_factory=dict)

    @property
    def last_day(self) -> str:
        return self.last[:10]

    def to_json(self) -> dict:
        return {"path": self.path, "reads": self.reads, "sessions": len(self.sessions), "last_read": self.last or None,
                "reads_30d": self.reads_30, "reads_90d": self.reads_90, "by": dict(sorted(self.hows.items()))}


def _stem(path: str) -> str:
    """`PurePosixPath(path).stem` of a normalised record path, without building a path object
    (10,000 of them cost the app 0.1–0.3 s each time a store loads)."""
    name = path.rpartition("/")[2]
    i = name.rfind(".")
    return name[:i] if 0 < i < len(name) - 1 else name


class PathMapper:
    """Touch target → record path (or None: not a memory of this store)."""

    def __init__(self, store_root: Path, record_paths: Iterable[str], repo: Path | None = None) -> None:
        self.root = Path(store_root).absolute()
        self.paths = set(record_paths)
        self.by_stem: dict[str, list[str]] = {}
        for p in self.paths:
            self.by_stem.setdefault(_stem(p), []).append(p)
        # Claude Code's own memory folder (`~/.claude/projects/<slug>/memory`): its MEMORY.md is
        # put into the context of every session of the project, so each session read it
        self.always = ["MEMORY.md"] if (self.root.name == "memory" and self.root.parent.parent.name == "projects"
                                        and "MEMORY.md" in self.paths) else []
        self.anchor = ""
        if repo is not None:
            try:
                rel = self.root.relative_to(Path(repo).absolute()).as_posix()
                self.anchor = "" if rel == "." else f"/{rel}/"
            except ValueError:
                pass

    def name(self, name: str) -> str | None:
        n = name.strip().lstrip("./").replace("\\", "/")
        for cand in (n, f"{n}.md"):
            if cand in self.paths:
                return cand
        hits = self.by_stem.get(PurePosixPath(n).stem if n.endswith(".md") else PurePosixPath(n).name, [])
        return hits[0] if len(hits) == 1 else None

    def path(self, raw: str) -> str | None:
        p = raw.replace("\\", "/")
        root = self.root.as_posix().rstrip("/") + "/"
        rel = None
        if p.startswith(root):
            rel = p[len(root):]
        elif self.anchor and self.anchor in p:
            rel = p.rsplit(self.anchor, 1)[1]
        if rel is None:
            return None
        rel = PurePosixPath(rel).as_posix()
        return rel if rel in self.paths else None

    def map(self, t: Touch) -> str | None:
        if t.how == "serena-read":
            return self.path(t.target) if t.target.startswith("/") else self.name(t.target)
        if t.how in ("read", "context"):
            return self.path(t.target)
        return None


class UsageIndex:
    """Per memory: reads, sessions, last read, reads in the last 30 / 90 days."""

    def __init__(self, reads: list[Read], listings: dict[str, int], today: date, sessions: int) -> None:
        self.reads = reads
        self.listings = listings  # session id → list_memories calls
        self.today = today
        self.session_count = sessions
        self.by_path: dict[str, MemoryUse] = {}
        d30, d90 = today - timedelta(days=30), today - timedelta(days=90)
        for r in reads:
            u = self.by_path.get(r.path)
            if u is None:
                u = self.by_path[r.path] = MemoryUse(r.path)
            u.reads += 1
            u.sessions.add(r.session_id)
            u.hows[r.how] = u.hows.get(r.how, 0) + 1
            if r.timestamp > u.last:
                u.last = r.timestamp
            if r.day is not None and r.day > d30:
                u.reads_30 += 1
            if r.day is not None and r.day > d90:
                u.reads_90 += 1

    @property
    def has_evidence(self) -> bool:
        return self.session_count > 0

    def use(self, path: str) -> MemoryUse:
        return self.by_path.get(path) or MemoryUse(path)

    def read_counts(self, days: int | None = None) -> dict[str, int]:
        """Reads per memory (all, or in the last `days`): the prior's frequency."""
        if days is None:
            return {p: u.reads for p, u in self.by_path.items()}
        cutoff = self.today - timedelta(days=days)
        out: dict[str, int] = {}
        for r in self.reads:
            if r.day is not None and r.day > cutoff:
                out[r.path] = out.get(r.path, 0) + 1
        return out



def _day(ts: str) -> date | None:
    try:
        return date.fromisoformat(ts[:10])
    except ValueError:
        return None


def build_usage(scans, mapper: PathMapper, today: date) -> UsageIndex:
    """From session scans (main transcripts and subagent logs) to a UsageIndex."""
    reads: list[Read] = []
    listings: dict[str, int] = {}
    sessions = set()
    for s in scans:
        sessions.add(s.session_id)
        if not s.sidechain and s.started:
            reads.extend(Read(p, "startup", _day(s.started), s.started, s.session_id, "") for p in mapper.always)
        for t in s.touches:
            if t.how == "serena-list":
                listings[t.session_id] = listings.get(t.session_id, 0) + 1
                continue
            path = mapper.map(t)
            if path is not None:
                reads.append(Read(path, t.how, _day(t.timestamp), t.timestamp, t.session_id, t.uuid))
    return UsageIndex(reads, listings, today, len(sessions))


def usage_for_store(store_root: Path, record_paths: Iterable[str], today: date, repo: Path | None = None,
                    roots=None, progress=None) -> tuple[UsageIndex, object]:
    """Discover, index (cached) and map: (UsageIndex, SessionIndex)."""
    from ..base.paths import transcript_repository
    from .index import SessionIndex

    repo = repo or transcript_repository(store_root)
    index = SessionIndex.for_repo(repo, roots)
    sessions = index.build(progress)
    scans = [sc for s in sessions for sc in s.scans]
    return build_usage(scans, PathMapper(store_root, record_paths, repo), today), index

