"""The repository as the context adapters see it: one walk, confined reads, every oddity noted.

Nothing outside the repository is read here (the user-level files are read by `user.py`); a
symbolic link whose target leaves the repository is never followed, only reported. Reads are
lenient: a binary, non-UTF-8, oversized, unreadable or special file is a `Problem`, never raised.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field

from ..agents import rules_for
from ..base.paths import is_within

# an instruction file larger than this is reported, not read: Claude Code's own limit (it skips one)
MAX_BYTES: int = rules_for("claude-code").value("project.max-bytes")
SKIP_DIRS = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".mypy_cache",
                       ".pytest_cache", ".curator"})
MAX_WALK = 200_000  # files listed at most (a giant monorepo still answers)
# a linked folder at or under one of these is walked into (the agent reads through the link)
AGENT_DIRS = frozenset({".claude", ".cursor", ".github", ".windsurf", ".devin", ".kiro", ".roo", ".agents",
                        ".clinerules", ".gemini", ".codex", "memory-bank"})


@dataclass(frozen=True, slots=True)
class Problem:
    path: str
    kind: str  # binary | encoding | too-large | unreadable | special | symlink-outside | missing
    message: str


@dataclass(slots=True)
class Text:
    path: str  # as asked (repository-relative, `/`)
    real: str  # repository-relative path of the bytes read (differs through a symbolic link)
    data: bytes
    text: str
    bad: int | None = None  # where the bytes stop being UTF-8 (the text has U+FFFD there, as agents read it)

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass(slots=True)
class RepoFS:
    root: str  # absolute, real
    files: list[str] = field(default_factory=list)  # every file, repository-relative, sorted
    dirs: set[str] = field(default_factory=set)
    links: dict[str, str] = field(default_factory=dict)  # symbolic link -> its raw target
    listed: list[str] = field(default_factory=list)  # absolute folders the walk listed
    truncated: bool = False
    problems: dict[str, Problem] = field(default_factory=dict)
    read_paths: set[str] = field(default_factory=set)  # absolute files read (for replay keys)
    _texts: dict[str, Text | Problem] = field(default_factory=dict)
    _fileset: set[str] | None = None
    _by_name: dict[str, list[str]] | None = None
    _tails: set[str] | None = None

    @classmethod
    def scan(cls, root: str | os.PathLike) -> RepoFS:
        fs = cls(os.path.realpath(root))
        fs._walk()
        return fs

    @classmethod
    def scan_folders(cls, root: str | os.PathLike, folders: tuple[str, ...]) -> RepoFS:
        """Only these folders walked (the rest of the repository unseen): for a caller that
        needs one kind of file fast, never for checks (a glob would seem to match nothing)."""
        fs = cls(os.path.realpath(root))
        fs._walk([f for f in folders if os.path.isdir(os.path.join(fs.root, f))])
        fs.truncated = True  # not the whole repository: no "matches no file" judgement
        fs.dirs.update(f for folder in folders for f in _parents(folder) if f in fs.dirs or fs.under(folder))
        return fs

    def _walk(self, start: list[str] | None = None) -> None:
        stack = [""] if start is None else list(start)
        files, dirs, links, listed = self.files, self.dirs, self.links, self.listed
        while stack:
            rel = stack.pop()
            full = os.path.join(self.root, rel) if rel else self.root
            try:
                with os.scandir(full) as it:
                    entries = list(it)
            except OSError:
                continue
            listed.append(full)
            if rel and any(e.name == "CACHEDIR.TAG" for e in entries):
                continue  # a build cache (cargo's target/, ...): never instructions, often huge
            for e in entries:
                name = e.name
                path = f"{rel}/{name}" if rel else name
                try:
                    if e.is_symlink():
                        links[path] = os.readlink(e.path)
                        if e.is_dir():  # a linked folder is listed; walked into only as an agent's folder
                            dirs.add(path)
                            if self._follow(path, e.path):
                                stack.append(path)
                        else:
                            files.append(path)
                    elif e.is_dir():
                        if name not in SKIP_DIRS:
                            dirs.add(path)
                            stack.append(path)
                    else:
                        files.append(path)
                except OSError:
                    continue
            if len(files) > MAX_WALK:
                self.truncated = True
                break
        files.sort()

    def _follow(self, rel: str, full: str) -> bool:
        """Walk into a linked folder when it is (or is inside) an agent's folder — `.claude/skills ->
        ../.ai/skills`: the agents follow such links — and it stays in the repository without
        leading back to a folder above it (a loop)."""
        if not any(p in AGENT_DIRS for p in rel.split("/")):
            return False
        real = os.path.realpath(full)
        if real == self.root or not is_within(real, self.root):
            return False
        here = os.path.realpath(os.path.dirname(full))
        return not is_within(here, real)

    @property
    def fileset(self) -> set[str]:
        if self._fileset is None:
            self._fileset = set(self.files)
        return self._fileset

    def changed(self) -> None:
        """`files` was edited in place (a planned move modelled): the lookups are built again."""
        self.files.sort()
        self._fileset = self._by_name = self._tails = None

    def named(self, name: str) -> list[str]:
        """Every file of that base name, in walk order (one dict, not a scan of every file per
        question: a large folder asks thousands)."""
        if self._by_name is None:
            self._by_name = {}
            for f in self.files:
                self._by_name.setdefault(f.rsplit("/", 1)[-1], []).append(f)
        return self._by_name.get(name, [])

    def ends_with(self, path: str) -> bool:
        """Does some file's path end with `/path` (a path written from a folder further down)?"""
        if self._tails is None:
            tails: set[str] = set()
            for f in self.files:
                i = f.find("/")
                while i != -1:
                    tails.add(f[i + 1:])
                    i = f.find("/", i + 1)
            self._tails = tails
        return path in self._tails

    def exists(self, rel: str) -> bool:
        """Is `rel` a file or folder of the repository (one the walk did not enter: asked)?"""
        if rel in self.fileset or rel in self.dirs:
            return True
        parts = rel.split("/")
        hidden = any(p in SKIP_DIRS for p in parts[:-1]) or any(
            "/".join(parts[:i]) in self.links for i in range(1, len(parts)))
        if self.truncated or hidden:
            full = self.inside(rel)
            return full is not None and os.path.exists(full)
        return False

    def inside(self, rel: str) -> str | None:
        """The absolute path of `rel` when it stays inside the repository (links resolved)."""
        full = os.path.realpath(os.path.join(self.root, rel))
        if is_within(full, self.root):
            return full
        return None

    def under(self, folder: str) -> list[str]:
        """Files below `folder` (repository-relative), sorted."""
        prefix = folder.rstrip("/") + "/"
        import bisect

        i = bisect.bisect_left(self.files, prefix)
        out = []
        while i < len(self.files) and self.files[i].startswith(prefix):
            out.append(self.files[i])
            i += 1
        return out

    def read(self, rel: str) -> Text | Problem:
        """The file's bytes and text, or why not. Remembered: one read a file per build."""
        hit = self._texts.get(rel)
        if hit is None:
            hit = self._texts[rel] = self._read(rel)
            if isinstance(hit, Problem):
                self.problems.setdefault(rel, hit)
        return hit

    def _read(self, rel: str) -> Text | Problem:
        full = self.inside(rel)
        if full is None:
            if os.path.lexists(os.path.join(self.root, rel)):
                return Problem(rel, "symlink-outside", "a symbolic link that leaves the repository (not followed)")
            return Problem(rel, "missing", "no such file")
        try:
            fd = os.open(full, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        except FileNotFoundError:
            return Problem(rel, "missing", "no such file (or a broken symbolic link)")
        except OSError as exc:
            return Problem(rel, "unreadable", f"cannot be read ({exc.strerror or type(exc).__name__})")
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                if stat.S_ISDIR(st.st_mode):
                    return Problem(rel, "missing", "a folder, not a file")
                return Problem(rel, "special", "not a regular file (never opened)")
            if st.st_size > MAX_BYTES:
                return Problem(rel, "too-large", f"{st.st_size:,} bytes: too large to be an instruction file (not read)")
            chunks = []
            while True:
                b = os.read(fd, 1 << 20)
                if not b:
                    break
                chunks.append(b)
            data = b"".join(chunks)
        except OSError as exc:
            return Problem(rel, "unreadable", f"cannot be read ({exc.strerror or type(exc).__name__})")
        finally:
            os.close(fd)
        self.read_paths.add(full)
        if b"\0" in data[:8192]:
            return Problem(rel, "binary", "a binary file, not text")
        bad = None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:  # every agent reads on (Node's utf-8 readFile, Codex's from_utf8_lossy)
            text, bad = data.decode("utf-8", "replace"), exc.start
        real = os.path.relpath(full, self.root).replace(os.sep, "/")
        return Text(rel, real, data, text, bad)


def _parents(folder: str) -> list[str]:
    parts = folder.split("/")
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]
