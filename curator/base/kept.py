"""Kept runs: a command's result kept with the stat of everything it read, answered again while
nothing changed — git's untracked cache, for a command (`checks/replay.py` keeps `check` and
`context` output, `retrieval/fast.py` what `retrieve` needs).

The entry point opens a `Run` for a command it may keep (its key, the folder its kept files live
in, when it started) and hands it to the command, which keeps its result through it — a run
started any other way keeps nothing. Everything a kept result depends on is stated, not read:
`unchanged` compares stat keys (mode, size, mtime_ns, inode, ctime_ns) and which paths exist.
Git's racy rule: a result is kept only when everything it read is older than the run's start
minus `RACY_SLACK_NS` (`Run.settled`) — an edit during the run, or in the same timestamp tick,
never hides behind it. Only `os`, `marshal` and `hashlib` are needed on the way to an answer.
"""

from __future__ import annotations

import marshal
import os
import sys
import time
import zlib

from .cache import RACY_SLACK_NS, code_signature
from .safeio import with_checksum

KEEP = 64  # kept files per folder (the newest); each names one command in one folder
ENV_PREFIXES = ("CURATOR_", "CLAUDE_", "GEMINI_CLI_")  # GEMINI_CLI_TRUST_WORKSPACE trusts every folder
# and what decides how text is laid out and coloured (with the terminal's size, see `terminal`)
ENV_NAMES = ("HOME", "TZ", "CI", "CODEX_HOME", "COPILOT_HOME", "GEMINI_SYSTEM_MD", "GEMINI_RESTRICTED_MODE", "TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "COLUMNS", "LINES",
             "TTY_COMPATIBLE", "TTY_INTERACTIVE", "JUPYTER_COLUMNS", "JUPYTER_LINES")


class Run:
    """One command run whose result may be kept: what it is valid for (`key`), where kept
    files of its kind live (`folder`), and when it started. (A plain class: `dataclasses` would
    import `inspect` and `pathlib` on the way to an answer.)"""

    __slots__ = ("folder", "key", "start_ns")

    def __init__(self, key: tuple, folder: str, start_ns: int) -> None:
        self.key, self.folder, self.start_ns = key, folder, start_ns

    @property
    def settled(self) -> int:
        """Everything a kept result depends on must be older than this (git's racy rule)."""
        return self.start_ns - RACY_SLACK_NS

    @property
    def path(self) -> str:
        return os.path.join(self.folder, f"{zlib.crc32(marshal.dumps(self.key)):08x}.marshal")


def folder(*parts: str) -> str | None:
    """`<cache>/<parts>`, where kept files of one kind live; None when caching is off."""
    if os.environ.get("CURATOR_NO_CACHE"):
        return None
    base = os.environ.get("CURATOR_CACHE_DIR")
    if not base:
        from .locations import cache_dir

        base = str(cache_dir())
    return os.path.join(base, *parts)


def environment() -> tuple:
    """curator's environment variables and those that decide layout and colour."""
    return tuple(sorted((k, v) for k, v in os.environ.items() if k.startswith(ENV_PREFIXES) or k in ENV_NAMES))


def terminal() -> tuple:
    """Is the output a terminal, of what size, in what encoding (text is laid out for them)."""
    out = sys.stdout
    encoding = (getattr(out, "encoding", None), getattr(out, "errors", None))
    try:
        if not out.isatty():
            return (False, None, encoding)
        return (True, tuple(os.get_terminal_size(out.fileno())), encoding)
    except (AttributeError, OSError, ValueError):
        return (False, None, encoding)


def command_key(fmt: int, argv: list[str]) -> tuple:
    """A command's key: its arguments, the current folder, the environment, the terminal, the
    interpreter, curator's code and the day."""
    try:
        cwd = os.getcwd()
    except OSError:
        cwd = ""
    return (fmt, tuple(argv), cwd, environment(), terminal(), sys.executable, code_signature(), time.strftime("%Y-%m-%d"))


def stat_key(st: os.stat_result) -> tuple[int, int, int, int, int]:
    return (st.st_mode, st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)


def unchanged(stats, presence) -> bool:
    """Does every kept stat key still match, and every asked-about path still (not) exist?"""
    lstat = os.lstat
    try:
        for path, key in stats:
            st = lstat(path)
            if (st.st_mode, st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns) != key:
                return False
    except (OSError, ValueError, TypeError):
        return False
    lexists = os.path.lexists
    return all(lexists(path) == there for path, there in presence)


def load(run: Run):
    """The kept entry of this run's command; raises (OSError, EOFError, ValueError, …) when none
    is kept or it is damaged (its checksum: one damaged byte is enough) — the caller runs the
    command instead."""
    from .safeio import without_checksum

    with open(run.path, "rb") as fh:
        payload = without_checksum(fh.read())
    if payload is None:
        raise ValueError("a damaged kept file")
    return marshal.loads(payload)


def write(run: Run, entry) -> bool:
    """Keep `entry` for this run's command atomically (temp file + rename), then prune the
    oldest. True when kept."""
    try:
        os.makedirs(run.folder, exist_ok=True)
        path = run.path
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "wb") as fh:
            fh.write(with_checksum(marshal.dumps(entry)))
        os.replace(tmp, path)
        prune(run.folder)
    except (OSError, ValueError):
        return False
    return True


def prune(where: str) -> None:
    """Keep the newest KEEP kept files of a folder."""
    with os.scandir(where) as it:
        files = [(e.stat().st_mtime_ns, e.path) for e in it if e.name.endswith(".marshal")]
    files.sort(reverse=True)
    for _, path in files[KEEP:]:
        try:
            os.unlink(path)
        except OSError:
            pass


class _Tee:
    """sys.stdout as it was (a terminal stays one), keeping a copy of what is written."""

    def __init__(self, out) -> None:
        self._out = out
        self.parts: list[str] = []

    def write(self, text: str) -> int:
        self.parts.append(text)
        return self._out.write(text)

    def __getattr__(self, name: str):
        return getattr(self._out, name)


class capture:  # noqa: N801 - used as `with capture(run) as printed:`
    """Keep what the command prints (`.text`: None unless a run was opened for it and the block
    ends normally)."""

    text: str | None = None

    def __init__(self, run: Run | None) -> None:
        self._run = run

    def __enter__(self) -> capture:
        self._tee = _Tee(sys.stdout) if self._run is not None else None
        if self._tee is not None:
            sys.stdout = self._tee
        return self

    def __exit__(self, kind, exc, tb) -> None:
        if self._tee is not None:
            sys.stdout = self._tee._out
            if kind is None:
                self.text = "".join(self._tee.parts)
