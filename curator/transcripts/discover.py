"""Find a repository's Claude Code transcripts.

Roots: every folder `$CLAUDE_CONFIG_DIR` names (comma-separated), else `~/.claude` and
`~/.config/claude`; transcripts live in `<root>/projects/<slug>/<session>.jsonl`, subagent logs in
`<slug>/<session>/subagents/*.jsonl` (older versions: `<slug>/agent-*.jsonl`). A session belongs
to the repository when its `cwd` is the repository or a folder inside it — the slug (the path with
every non-alphanumeric character turned into `-`) is lossy, so it only narrows the search.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..base.paths import is_within
from .lines import capped_lines

SLUG_MAX = 200  # longer slugs are shortened (and hashed) by Claude Code: never trust them then
PEEK_LINES = 40


@dataclass(slots=True)
class TranscriptFile:
    path: Path
    session_id: str  # the session it belongs to (a subagent log: its parent's)
    cwd: str
    subagent: bool
    size: int
    mtime: float


@dataclass(slots=True)
class Discovery:
    repo: Path | None
    roots: list[Path]
    files: list[TranscriptFile] = field(default_factory=list)
    skipped: int = 0  # transcripts in candidate folders whose cwd is elsewhere

    def sessions(self) -> dict[str, list[TranscriptFile]]:
        """Session id → its files, the main transcript first."""
        out: dict[str, list[TranscriptFile]] = {}
        for f in sorted(self.files, key=lambda f: (f.subagent, str(f.path))):
            out.setdefault(f.session_id, []).append(f)
        return out


def slug(path: str | Path) -> str:
    return re.sub(r"[^A-Za-z0-9]", "-", str(path))


def claude_roots(env: Mapping[str, str] | None = None, home: Path | None = None) -> list[Path]:
    """The `projects` folders to search, existing or not."""
    env = os.environ if env is None else env
    home = Path.home() if home is None else home
    given = env.get("CLAUDE_CONFIG_DIR", "")
    if given.strip():
        bases = [Path(p.strip()).expanduser() for p in given.split(",") if p.strip()]
    else:
        bases = [home / ".claude", home / ".config" / "claude"]
    out: list[Path] = []
    for b in bases:
        p = b / "projects"
        if p not in out:
            out.append(p)
    if env is os.environ and home == Path.home():
        from ..base.locations import demo_projects

        demo = demo_projects()  # the demo repository's sessions (only its own cwd matches them)
        if demo.is_dir() and demo not in out:
            out.append(demo)
    return out


def projects_folder_of(path: Path, roots: list[Path]) -> Path | None:
    """A store kept by Claude Code itself (`<root>/projects/<slug>/memory`): its slug folder."""
    p = Path(path).absolute()
    for root in roots:
        try:
            rel = p.relative_to(root.absolute())
        except ValueError:
            continue
        if rel.parts:
            return root / rel.parts[0]
    return None


def peek(path: Path) -> tuple[str, str]:
    """(sessionId, cwd) from the first lines that carry them."""
    sid = cwd = ""
    try:
        with open(path, "rb") as fh:
            for i, (raw, _size) in enumerate(capped_lines(fh)):
                if i >= PEEK_LINES or (sid and cwd):
                    break
                if raw is None:
                    continue
                try:
                    obj = json.loads(raw)
                except (ValueError, RecursionError):
                    continue
                if isinstance(obj, dict):
                    if not sid and isinstance(obj.get("sessionId"), str):
                        sid = obj["sessionId"]
                    if not cwd and isinstance(obj.get("cwd"), str):
                        cwd = obj["cwd"]
    except OSError:
        pass
    return sid, cwd


def inside(cwd: str, repo: Path) -> bool:
    """Was a session run in `repo` (its cwd the repository or a folder below)?"""
    return bool(cwd) and is_within(cwd, repo)


def _transcripts(folder: Path) -> list[tuple[Path, bool]]:
    out: list[tuple[Path, bool]] = []
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return out
    for e in entries:
        try:
            if e.name.endswith(".jsonl") and e.is_file():
                out.append((Path(e.path), e.name.startswith("agent-")))
            elif e.is_dir() and e.name != "memory":
                sub = Path(e.path) / "subagents"
                if sub.is_dir():
                    out.extend((p, True) for p in sorted(sub.glob("*.jsonl")) if p.is_file())
        except OSError:
            continue
    return out


def discover(repo: str | Path | None, roots: list[Path] | None = None, *, match_all: bool = False) -> Discovery:
    """The transcripts of sessions run in `repo` (or, `match_all`, every transcript)."""
    roots = claude_roots() if roots is None else roots
    repo_path = Path(repo).expanduser().absolute() if repo is not None else None
    d = Discovery(repo_path, roots)
    own = projects_folder_of(repo_path, roots) if repo_path is not None else None
    want = slug(repo_path) if repo_path is not None else ""
    for root in roots:
        try:
            folders = sorted(p for p in root.iterdir() if p.is_dir())
        except OSError:
            continue
        for folder in folders:
            whole = match_all or (own is not None and folder.absolute() == own.absolute())
            if not whole and len(folder.name) < SLUG_MAX and not folder.name.startswith(want):
                continue  # a cwd inside the repository has a slug starting with the repository's
            for path, sub in _transcripts(folder):
                sid, cwd = peek(path)
                if not (whole or (repo_path is not None and inside(cwd, repo_path))):
                    d.skipped += 1
                    continue
                if not sid:
                    sid = path.parent.parent.name if sub and path.parent.name == "subagents" else path.stem
                try:
                    st = path.stat()
                except OSError:
                    continue
                d.files.append(TranscriptFile(path, sid, cwd, sub, st.st_size, st.st_mtime))
    return d


def explain_none(d: Discovery) -> list[str]:
    """Why no session of the repository was found: where transcripts were looked for, and how to
    point curator at them. The first line is the headline; both faces print every line."""
    where = d.repo if d.repo is not None else "this repository"
    lines = [f"No Claude Code sessions ran in {where}."]
    pattern = f"{slug(d.repo)}*/" if d.repo is not None else "*/"
    for root in d.roots:
        if root.is_dir():
            lines.append(f"Looked in {root}/{pattern}: no transcript (*.jsonl) ran in it.")
        else:
            lines.append(f"Looked in {root}: it does not exist.")
    if d.skipped:
        lines.append(f"{d.skipped} transcript(s) there ran in other folders (`curator sessions --all` lists them).")
    lines.append("Claude Code writes them to ~/.claude/projects/<path-as-slug>/; to read a copy elsewhere, set "
                 "CLAUDE_CONFIG_DIR to the folder holding projects/ (several: comma-separated; CLI: --projects DIR).")
    return lines
