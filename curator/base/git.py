"""curator's one way to run git, and what several places ask it.

`run` calls the real `git` executable with the environment every call wants (no optional locks,
the C locale so messages parse, never a prompt, no stdin), an optional timeout, and one error:
`GitError`, whose message is one line for the user (git missing, not a repository, unknown
revision, the last line git printed); `GitTimeout` when the call ran out of time. Nothing here
raises anything else. `toplevel` is git's own answer to "which work tree holds this path" (for
running git; `base.paths` names the roots that need no git), and `renames` the moves git
recorded, read once per commit.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Literal, overload

RENAMES_SCANNED = 2000  # commits of history read for renames (newest first)
_RENAMES: dict[tuple, dict[str, str]] = {}  # (folder, HEAD, pathspec, relative) -> renames
_RENAMES_KEPT = 8


class GitError(Exception):
    """git is missing, failed, or the folder is not in a repository (the message is one line)."""


class GitTimeout(GitError):
    """git did not answer within the time given."""


@overload
def run(cwd: Path | str, *args: str, binary: Literal[False] = False, timeout: float | None = None,
        env: dict | None = None) -> str: ...
@overload
def run(cwd: Path | str, *args: str, binary: Literal[True], timeout: float | None = None,
        env: dict | None = None) -> bytes: ...
def run(cwd: Path | str, *args: str, binary: bool = False, timeout: float | None = None,
        env: dict | None = None) -> str | bytes:
    """git's output (text, or bytes when `binary`); GitError when it cannot run or fails.
    `env` replaces the process environment (the demo's fixed author); the variables that keep
    git quiet and parseable are always added."""
    exe = shutil.which("git")
    if exe is None:
        raise GitError("git is not installed")
    full = {**(os.environ if env is None else env), "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C",
            "GIT_TERMINAL_PROMPT": "0"}
    try:
        proc = subprocess.run([exe, *args], cwd=cwd, capture_output=True, env=full, check=False,
                              stdin=subprocess.DEVNULL, timeout=None if timeout is None else max(0.1, timeout))
    except subprocess.TimeoutExpired:
        raise GitTimeout(f"git {args[0]} took too long") from None
    except OSError as exc:
        raise GitError(f"cannot run git: {exc}") from None
    if proc.returncode != 0:
        msg = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(msg[-1] if msg else f"git {args[0]} failed")
    return proc.stdout if binary else proc.stdout.decode("utf-8", "replace")


def toplevel(path: Path | str) -> Path:
    """The top folder of the git work tree holding `path` (a file or folder, which need not
    exist yet), as git says; GitError("not in a git repository: PATH") otherwise."""
    p = Path(path).resolve()
    start = p if p.is_dir() else p.parent
    while not start.exists():
        start = start.parent
    try:
        out = run(start, "rev-parse", "--show-toplevel")
    except GitError:
        raise GitError(f"not in a git repository: {path}") from None
    return Path(out.strip())


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


def renames(cwd: Path | str, pathspec: str = ".", *, relative: bool = True, limit: int = RENAMES_SCANNED,
            timeout: float | None = 20) -> dict[str, str]:
    """Old path → the path it has now, for every file git recorded as renamed or moved under
    `pathspec` (run in `cwd`): paths relative to `cwd` when `relative`, else to the repository
    root. Read once per commit (HEAD is part of the key); {} outside git or on any failure."""
    try:
        head = run(cwd, "rev-parse", "HEAD", timeout=timeout).strip()
    except GitError:
        return {}
    key = (str(cwd), head, pathspec, relative, limit)
    if key not in _RENAMES:
        try:
            out = run(cwd, "log", f"-n{limit}", "-M", "--diff-filter=R", "--name-status", "--format=",
                      *(["--relative"] if relative else []), "--", pathspec, timeout=timeout)
        except GitError:
            return {}
        while len(_RENAMES) >= _RENAMES_KEPT:
            _RENAMES.pop(next(iter(_RENAMES)))
        _RENAMES[key] = latest_names(out.splitlines())
    return _RENAMES[key]

