"""The store's growth over its git history: memory files and their bytes at up to ~30 commits of
the store's history (evenly spaced, oldest first) and in the work tree now.

Cheap and bounded: one `git log` for the commits touching the store, one `git ls-tree -l` per
sampled commit (sizes without reading a blob), a timeout on every git call and on the whole.
Tokens are not counted here: `approx_tokens` estimates them from bytes (≈ 4 bytes a token), and
every face that shows them says "≈". Never raises: no git, not a repository, a shallow clone or
no history gives an empty `Growth` with the reason.

Memory files are the markdown files below the store folder, hidden folders skipped (as the loader
walks them); folders a `.curator.yaml` includes from outside the store are not followed."""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from ..base.git import GitError, GitTimeout
from ..base.git import run as git

SAMPLES = 30  # commits sampled at most (the work tree comes on top)
CALL_TIMEOUT = 5.0  # seconds, each git call
TOTAL_TIMEOUT = 15.0  # seconds, the whole history; past it the points gathered so far are kept
BYTES_PER_TOKEN = 4
# the sampled history of a (repository, store folder, HEAD): committed history never changes, so
# the app's live updates and repeated `curator tokens` calls in one process read git once
_HISTORY: dict[tuple[str, str, str, int], tuple[tuple[GrowthPoint, ...], int]] = {}
_HISTORY_KEPT = 8


@dataclass(frozen=True)
class GrowthPoint:
    date: str  # YYYY-MM-DD: the commit's date, or today for the work tree
    files: int
    bytes: int
    commit: str | None = None  # None: the work tree now

    @property
    def approx_tokens(self) -> int:
        return self.bytes // BYTES_PER_TOKEN

    def to_json(self) -> dict:
        return {"commit": self.commit, "date": self.date, "files": self.files, "bytes": self.bytes,
                "approx_tokens": self.approx_tokens}


@dataclass(frozen=True)
class Growth:
    points: tuple[GrowthPoint, ...] = ()  # oldest first; the last is the work tree
    reason: str = ""  # why there are no points
    commits: int = 0  # commits in the store's history (points sample them)

    def __bool__(self) -> bool:
        return bool(self.points)

    @property
    def sampled(self) -> int:
        return sum(1 for p in self.points if p.commit is not None)

    def legend(self) -> str:
        """One short line: first date, files and size then → now, the change."""
        if not self.points:
            return f"no git history ({self.reason})" if self.reason else "no git history"
        first, last = self.points[0], self.points[-1]
        size = last.bytes - first.bytes
        tok = size // BYTES_PER_TOKEN
        sign = "+" if size >= 0 else "−"
        return (f"{first.date} {first.files} files {kb(first.bytes)} → now {last.files} files "
                f"{kb(last.bytes)}: {sign}{kb(abs(size))} ≈{sign}{compact_count(abs(tok))} tokens")

    def title(self) -> str:
        if not self.points:
            return "Growth over git history"
        n = self.sampled
        of = f"{n} of {self.commits} commits" if self.commits > n else f"{n} commit{'s' if n != 1 else ''}"
        return f"Growth over git history ({of}, then the work tree)"

    def to_json(self) -> list[dict]:
        return [p.to_json() for p in self.points]


def kb(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    if n < 1024 * 1024:
        return f"{n / 1024:.0f} KB" if n >= 10 * 1024 else f"{n / 1024:.1f} KB"
    return f"{n / 1024 / 1024:.1f} MB"


def compact_count(n: int) -> str:
    if n < 1000:
        return str(n)
    if n < 1_000_000:
        return f"{n / 1000:.1f}k" if n < 10_000 else f"{n / 1000:.0f}k"
    return f"{n / 1_000_000:.1f}M"


def is_memory_file(rel: str) -> bool:
    """A markdown file, no hidden folder on the way (`.serena` is the store's own)."""
    parts = rel.split("/")
    return parts[-1].endswith(".md") and not any(p.startswith(".") and p != ".serena" for p in parts)


def sample(items: list, k: int) -> list:
    """At most k items evenly spaced, the first and the last always among them."""
    n = len(items)
    if n <= k:
        return list(items)
    if k <= 1:
        return items[-1:]
    return [items[round(i * (n - 1) / (k - 1))] for i in range(k)]


def work_tree_point(root: Path, today: date) -> GrowthPoint:
    files = size = 0
    for folder, dirs, names in os.walk(root):  # does not follow folder symlinks
        dirs[:] = [d for d in dirs if not d.startswith(".") or d == ".serena"]
        for name in names:
            if not name.endswith(".md") or name.startswith("."):
                continue
            try:
                st = os.lstat(os.path.join(folder, name))
            except OSError:
                continue
            if not os.path.islink(os.path.join(folder, name)):
                files += 1
                size += st.st_size
    return GrowthPoint(today.isoformat(), files, size)


def _tree_point(top: Path, commit: str, day: str, rel: str, timeout: float) -> GrowthPoint:
    spec = f"{commit}:{rel}" if rel else commit
    try:
        out = git(top, "ls-tree", "-r", "-l", "-z", spec, timeout=timeout)
    except GitTimeout:
        raise
    except GitError:
        return GrowthPoint(day, 0, 0, commit)  # the store's folder did not exist at that commit
    files = size = 0
    for entry in out.split("\0"):
        meta, _, path = entry.partition("\t")
        fields = meta.split()
        if len(fields) != 4 or fields[1] != "blob" or fields[0] == "120000" or not fields[3].isdigit():
            continue
        if is_memory_file(path):
            files += 1
            size += int(fields[3])
    return GrowthPoint(day, files, size, commit)


def store_growth(root: Path | str, *, samples: int = SAMPLES, today: date | None = None,
                 call_timeout: float = CALL_TIMEOUT, total_timeout: float = TOTAL_TIMEOUT) -> Growth:
    """The store's size at up to `samples` commits of its history and now; never raises."""
    try:
        return _growth(Path(root), samples, today or date.today(), call_timeout, total_timeout)
    except Exception as exc:  # noqa: BLE001 - a picture is never worth a crash
        return Growth(reason=f"git history unreadable: {exc}")


class _NoHistory(Exception):
    """Why the store has no history to show (the Growth's reason)."""


def _growth(root: Path, samples: int, today: date, call_timeout: float, total_timeout: float) -> Growth:
    deadline = time.monotonic() + total_timeout
    try:
        root, top, rel = _place(root, call_timeout)
        try:  # the history's points depend on HEAD only: a live change re-walks the work tree alone
            head = git(top, "rev-parse", "-q", "--verify", "HEAD", timeout=call_timeout).strip()
        except GitError:
            head = ""  # no commits yet: `git log` below says so
        key = (str(top), rel, head, samples)
        if head and key in _HISTORY:
            past, count = _HISTORY[key]
            return Growth((*past, work_tree_point(root, today)), commits=count)
        commits = _commits(top, rel, min(call_timeout, deadline - time.monotonic()))
    except _NoHistory as exc:
        return Growth(reason=str(exc))
    points, whole = _points(top, rel, sample(commits[::-1], samples), call_timeout, deadline)  # oldest first
    if whole and head:  # a history cut short by a timeout is read again next time
        while len(_HISTORY) >= _HISTORY_KEPT:
            _HISTORY.pop(next(iter(_HISTORY)))
        _HISTORY[key] = (tuple(points), len(commits))
    points.append(work_tree_point(root, today))
    return Growth(tuple(points), commits=len(commits))


def _place(root: Path, timeout: float) -> tuple[Path, Path, str]:
    """(the store's real folder, its repository's top, the store's path in it ("" at the top));
    raises _NoHistory when there is no full history to read."""
    try:
        root = root.resolve()
    except OSError:
        raise _NoHistory("the store folder cannot be read") from None
    if not root.is_dir():
        raise _NoHistory("the store folder cannot be read")
    if shutil.which("git") is None:
        raise _NoHistory("git is not installed")
    try:
        out = git(root, "rev-parse", "--show-toplevel", "--is-shallow-repository", timeout=timeout)
    except GitError:
        raise _NoHistory("not in a git repository") from None
    lines = out.strip().splitlines()
    if len(lines) < 2:
        raise _NoHistory("not in a git repository")
    top = Path(lines[0]).resolve()
    if lines[1].strip() == "true":
        raise _NoHistory("a shallow clone: its history is cut short (git fetch --unshallow)")
    try:
        rel = root.relative_to(top).as_posix()
    except ValueError:
        raise _NoHistory("the store is outside the repository's work tree") from None
    return root, top, "" if rel == "." else rel


def _commits(top: Path, rel: str, timeout: float) -> list[list[str]]:
    """[commit, day] of every commit that touched the store, newest first."""
    try:
        log = git(top, "--literal-pathspecs", "log", "--format=%H %cs", "--", rel or ".", timeout=timeout)
    except GitError as exc:
        text = str(exc)
        if "does not have any commits" in text or "bad default revision" in text:
            raise _NoHistory("the repository has no commits yet") from None
        raise _NoHistory(text) from None
    commits = [ln.split(" ", 1) for ln in log.splitlines() if " " in ln]
    if not commits:
        raise _NoHistory("the store has no commits yet")
    return commits


def _points(top: Path, rel: str, commits, call_timeout: float, deadline: float) -> tuple[list[GrowthPoint], bool]:
    """The store's size at each sampled commit, and whether every one was read before the
    deadline (a timeout or a git error stops the walk)."""
    points: list[GrowthPoint] = []
    for commit, day in commits:
        left = deadline - time.monotonic()
        if left <= 0:
            return points, False
        try:
            points.append(_tree_point(top, commit, day.strip(), rel, min(call_timeout, left)))
        except GitError:
            return points, False
    return points, True
