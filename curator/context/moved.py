"""Where a path an instruction file names went: git's rename history first (the repository's
own record of the move), else the one file of that name (under the folder the path names, else
anywhere in the repository). Several files of that name is no answer: the candidates are named
and the line is fixed by hand."""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass

RENAMES_SCANNED = 2000  # commits of history read for renames (newest first)
_CACHE: dict[tuple[str, str], dict[str, str]] = {}  # (root, HEAD) -> renames: read once per commit


@dataclass(frozen=True, slots=True)
class Moved:
    now: str | None  # repository-relative path the file has now (None: unknown or ambiguous)
    how: str  # "git" | "near" (one of that name under the path's folder) | "name" (in the repository) | "candidates" | ""
    candidates: tuple[str, ...] = ()


def latest_names(lines: list[str]) -> dict[str, str]:
    """Old path → the path it has now, from `git log -M --diff-filter=R --name-status` lines
    (newest first; chains of renames followed to their end)."""
    newer: dict[str, str] = {}
    for line in lines:
        parts = line.split("\t")
        if len(parts) == 3 and parts[0].startswith("R"):
            newer.setdefault(parts[1], parts[2])  # the first (newest) rename of a path is its latest
    final: dict[str, str] = {}
    for old in newer:
        seen, now = {old}, newer[old]
        while now in newer and now not in seen:
            seen.add(now)
            now = newer[now]
        final[old] = now
    return final


def _git(root: str, *args: str) -> str | None:
    exe = shutil.which("git")
    if exe is None:
        return None
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"}
    try:
        proc = subprocess.run([exe, *args], cwd=root, capture_output=True, env=env, check=False, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.decode("utf-8", "replace") if proc.returncode == 0 else None


def renames(root: str) -> dict[str, str]:
    """Renames git recorded under `root` (paths relative to it); {} outside git or on failure."""
    head = _git(root, "rev-parse", "HEAD")
    if not head:
        return {}
    key = (root, head.strip())
    if key not in _CACHE:
        out = _git(root, "log", f"-n{RENAMES_SCANNED}", "-M", "--diff-filter=R", "--name-status", "--format=",
                   "--relative", "--", ".")
        _CACHE.clear()  # one repository's newest history is all a session asks about
        _CACHE[key] = latest_names(out.splitlines()) if out else {}
    return _CACHE[key]


def moved_to(fs, history: dict[str, str], path: str, parent: str) -> Moved:
    """Where `path` (repository-relative, missing; `parent` its existing folder) is now."""
    now = history.get(path)
    if now is not None and now in fs.fileset:
        return Moved(now, "git")
    name = path.rsplit("/", 1)[-1]
    same = [f for f in fs.files if f.rsplit("/", 1)[-1] == name and f not in fs.links]
    near = [f for f in same if f.startswith(parent + "/")] if parent else same
    for group, how in ((near, "near"), (same, "name")):
        if len(group) == 1:
            return Moved(group[0], how)
        if group:
            return Moved(None, "candidates", tuple(group[:5]))
    return Moved(None, "")
