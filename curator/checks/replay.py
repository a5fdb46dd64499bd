"""A check's output replayed when nothing it read has changed — git's untracked cache, for a command.

`curator check [PATH]` on unchanged memory prints what the previous run printed, after a stat of
every file and folder that run read or listed: no file is read, no record built, no check run;
for a store given by path nothing heavier than `os`, `marshal` and `hashlib` is imported (a
repository, or a store found from the current folder, also runs discovery again).

What a run depends on (kept with its output, in `<cache>/replay/`):
- the command: its arguments, the current folder, curator's environment variables
  (`CURATOR_*`, `CLAUDE_*`, `HOME`, `TZ`), the terminal (is it one, its size, the variables that
  decide colours and width), the interpreter, curator's code and the day;
- what discovery found (the memory sources of the repository), unless a store was given;
- every memory file and every folder the loader listed (a folder's mtime changes when an entry
  is added, removed or renamed), by stat key (mode, size, mtime_ns, inode, ctime_ns);
- the places the config lookup and a given store's discovery asked about (`.curator.yaml` up to
  the repository root, `.git`, `docs/*-experience`, the `include` folders), present or absent;
- the verdicts of links that leave a store (asked again through `checks.cached.still_true`).
Git's racy rule: a run is kept only when everything it read is older than the run's start minus
`RACY_SLACK_NS` — an edit during the run (or in the same timestamp tick) never hides behind it.
Anything unusual (a symbolic link in a store, a source that could not load, the demo store,
estimated token counts, `--changed`, `--baseline`) is simply not kept: the full run happens.
`CURATOR_NO_REPLAY=1` always runs the checks (the store's cache still serves the loader).
"""

from __future__ import annotations

import marshal
import os
import sys
import time
import zlib

from ..base.cache import RACY_SLACK_NS, code_signature
from ..base.paths import is_within

FORMAT = 3
KEEP = 64  # replay files kept (the newest); each names one command in one folder
ENV_PREFIXES = ("CURATOR_", "CLAUDE_")
# and what decides how text is laid out and coloured (with the terminal's size, see `_terminal`)
ENV_NAMES = ("HOME", "TZ", "CI", "CODEX_HOME", "TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "COLUMNS", "LINES",
             "TTY_COMPATIBLE", "TTY_INTERACTIVE", "JUPYTER_COLUMNS", "JUPYTER_LINES")
EXPERIENCE = ("docs/error-experience", "docs/good-experience")

# the command being run, set by the entry point (`begin`); a run started any other way is not kept
_pending: tuple | None = None


def _folder() -> str | None:
    if os.environ.get("CURATOR_NO_CACHE"):
        return None
    base = os.environ.get("CURATOR_CACHE_DIR")
    if not base:
        from ..base.locations import cache_dir

        base = str(cache_dir())
    return os.path.join(base, "replay")


def command_key(argv: list[str]) -> tuple:
    env = tuple(sorted((k, v) for k, v in os.environ.items() if k.startswith(ENV_PREFIXES) or k in ENV_NAMES))
    try:
        cwd = os.getcwd()
    except OSError:
        cwd = ""
    return (FORMAT, tuple(argv), cwd, env, _terminal(), sys.executable, code_signature(), time.strftime("%Y-%m-%d"))


def _terminal() -> tuple:
    """Is the output a terminal, of what size, in what encoding (text is laid out for them)."""
    out = sys.stdout
    encoding = (getattr(out, "encoding", None), getattr(out, "errors", None))
    try:
        if not out.isatty():
            return (False, None, encoding)
        return (True, tuple(os.get_terminal_size(out.fileno())), encoding)
    except (AttributeError, OSError, ValueError):
        return (False, None, encoding)


def _file(folder: str, key: tuple) -> str:
    return os.path.join(folder, f"{zlib.crc32(marshal.dumps(key)):08x}.marshal")


def _stat_key(st: os.stat_result) -> tuple[int, int, int, int, int]:
    return (st.st_mode, st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)


def begin(argv: list[str]) -> int | None:
    """At the entry point: the exit code after replaying a kept output of this command, or None
    (then the command runs, and `keep` may record its output)."""
    global _pending
    if not argv or argv[0] not in ("check", "context") or os.environ.get("CURATOR_NO_REPLAY"):
        return None
    folder = _folder()
    if folder is None:
        return None
    key = command_key(argv)
    _pending = (key, folder, time.time_ns())
    try:
        with open(_file(folder, key), "rb") as fh:
            data = marshal.loads(fh.read())
        kept_key, found, stats, presence, outside, out, code = data
    except Exception:  # noqa: BLE001 - none kept, damaged, or of another layout
        return None
    try:
        if kept_key != key or not unchanged(stats, presence):
            return None
        if not _found_unchanged(found) or not _outside_unchanged(outside):
            return None
    except Exception:  # noqa: BLE001 - anything odd while asking: the command runs as usual
        return None
    try:
        sys.stdout.write(out)
        sys.stdout.flush()
    except BrokenPipeError:
        return 0
    return code


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


def _outside_unchanged(outside) -> bool:
    """Does each store's link that leaves it still reach (or miss) what it did?"""
    if not outside:
        return True
    from pathlib import Path
    from types import SimpleNamespace

    from .cached import still_true

    for root, repo_root, fmt, probed in outside:
        store = SimpleNamespace(root=Path(root), repo_root=Path(repo_root) if repo_root else None, format=fmt)
        if not still_true(store, probed):
            return False
    return True


def _found_unchanged(found) -> bool:
    """A repository (or a store found from the current folder): does discovery still find the
    same memory sources? (A store given by path needs no discovery: its folder's stat tells.)"""
    if found is None:
        return True
    arg, layout = found
    from ..model.discovery import StoreError, locate_store

    try:
        return describe(locate_store(arg, demo=False)) == layout
    except (StoreError, OSError, ValueError):
        return False


def describe(located) -> tuple:
    """What discovery found, as plain data."""
    lay = located.layout
    sources = tuple((s.kind, str(s.root), s.rel, s.origin, s.read_only, s.fmt) for s in lay.sources) if lay else ()
    return (str(located.root), located.given, str(located.repo), located.is_sample,
            str(lay.root) if lay else None, lay.single if lay else None, tuple(lay.notes) if lay else (), sources)


# ------------------------------------------------------------------ recording a run


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


class capture:  # noqa: N801 - used as `with capture() as printed:`
    """Keep what the command prints (`.text`, None unless the entry point may replay it and the
    block ends normally)."""

    text: str | None = None

    def __enter__(self) -> capture:
        self._tee = _Tee(sys.stdout) if _pending is not None else None
        if self._tee is not None:
            sys.stdout = self._tee
        return self

    def __exit__(self, kind, exc, tb) -> None:
        if self._tee is not None:
            sys.stdout = self._tee._out
            if kind is None:
                self.text = "".join(self._tee.parts)


def keep(repo, located, arg: str | None, only, out: str, code: int) -> bool:
    """After a full `check`: keep its output with what it depended on — every memory source of
    the repository (`repo`, as `located` from the store argument `arg`) — unless the run is not
    one that can be replayed. True when kept."""
    if (pending := take_pending()) is None:
        return False
    key, folder, start_ns = pending  # one run, one record
    memory = [s for s in repo.sources if s.spec.kind != "sessions"]
    if located.is_sample or not memory or any(s.store is None for s in memory):
        return False  # the demo, or a source that could not load: run again next time
    given_store = arg is not None and repo.single
    found = None if given_store else (arg, describe(located))
    stats: list = []
    presence: list = []
    outside: list = []
    for src in memory:
        deps = dependencies(src.store, only, start_ns)
        if deps is None:
            return False
        stats += deps[0]
        presence += deps[1]
        if deps[2] is not None:
            outside.append(deps[2])
    from ..context.for_check import replay_stats

    extra = replay_stats(getattr(repo, "instructions", None), start_ns, RACY_SLACK_NS)  # CLAUDE.md, rules, ...
    if extra is None:
        return False
    stats += extra
    return write_kept(folder, key, (key, found, tuple(stats), tuple(presence), tuple(outside), out, code))


def take_pending():
    """The pending run's (key, folder, start), once."""
    global _pending
    pending, _pending = _pending, None
    return pending


def write_kept(folder: str, key, entry: tuple) -> bool:
    """Write one kept output atomically (temp file + rename), then prune the oldest."""
    try:
        os.makedirs(folder, exist_ok=True)
        path = _file(folder, key)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "wb") as fh:
            fh.write(marshal.dumps(entry))
        os.replace(tmp, path)
        _prune(folder)
    except (OSError, ValueError):
        return False
    return True


def _prune(folder: str) -> None:
    """Keep the newest KEEP replay files."""
    with os.scandir(folder) as it:
        files = [(e.stat().st_mtime_ns, e.path) for e in it if e.name.endswith(".marshal")]
    files.sort(reverse=True)
    for _, path in files[KEEP:]:
        try:
            os.unlink(path)
        except OSError:
            pass


def dependencies(store, only, start_ns: int):
    """(stat keys, presence, outside-link probes) of a loaded and checked store, or None when
    the run cannot be replayed (racy, a symbolic link, estimated tokens, no cached probes)."""
    if store.encoding != "cl100k_base" and os.environ.get("CURATOR_TOKENS") != "estimate":
        return None  # the tokenizer could not load: the next run should try again
    probed = _probes(store, only)
    if probed is None:
        return None
    found = store_signature(store, start_ns)
    if found is None:
        return None
    root = os.path.abspath(store.root)
    repo_root = getattr(store, "repo_root", None)
    outside = (root, str(repo_root) if repo_root else None, store.format, probed) if probed else None
    return found[0], found[1], outside


def store_signature(store, start_ns: int, extra: tuple[str, ...] = ()):
    """(stat keys, presence) of every memory file and folder a load of `store` read or listed,
    and of what the config lookup and discovery asked about (plus the paths `extra`, stated too);
    None when racy (anything changed after `start_ns` minus the slack) or a symbolic link."""
    limit = start_ns - RACY_SLACK_NS
    stats: dict[str, tuple] = {}
    presence: dict[str, bool] = {}

    def note(path: str) -> bool:
        try:
            st = os.lstat(path)
        except OSError:
            return False
        if st.st_mtime_ns >= limit or st.st_ctime_ns >= limit or (st.st_mode & 0o170000) == 0o120000:
            return False  # changed during the run (or too recently to tell), or a symbolic link
        stats[path] = _stat_key(st)
        return True

    root = os.path.abspath(store.root)
    cfg = store.config
    if not _walk(root, "", cfg, note):
        return None
    real_root = os.path.realpath(root)
    for inc in cfg.include:
        path = os.path.normpath(os.path.join(root, inc))
        if not os.path.lexists(path):
            presence[path] = False
            continue
        real = os.path.realpath(path)
        if os.path.isdir(real) and not is_within(real, real_root) and not is_within(real_root, real):
            if not _walk(path, inc.rstrip("/"), cfg, note):  # the loader walks it too
                return None
        elif not note(path):  # overlapping the store, or not a folder: the loader skips it
            return None
    for rec in store.records.values():
        if not note(os.path.abspath(rec.abspath)):
            return None
    source = getattr(cfg, "source", None)
    if source is not None and not note(os.path.abspath(source)):
        return None
    # what discovery and the config lookup asked about
    for name in (".serena", ".claude", ".curator.yaml", *EXPERIENCE):
        presence.setdefault(os.path.join(root, name), os.path.lexists(os.path.join(root, name)))
    parent = os.path.realpath(root)
    while True:
        up = os.path.dirname(parent)
        if up == parent:
            break
        parent = up
        for name in (".curator.yaml", ".git"):
            path = os.path.join(parent, name)
            presence[path] = os.path.lexists(path)
        if presence[os.path.join(parent, ".git")]:
            break
    for path in extra:
        if not note(os.path.abspath(path)):
            return None
    return tuple(stats.items()), tuple(presence.items())


def _walk(base: str, prefix: str, cfg, note) -> bool:
    """Note every folder the loader lists below `base` (its rules: hidden names but `.serena`
    skipped, `exclude` honoured). False on a symbolic link or a folder that changed."""
    stack = [(base, prefix)]
    while stack:
        folder, rel_folder = stack.pop()
        if not note(folder):
            return False
        try:
            entries = list(os.scandir(folder))
        except OSError:
            return False
        for entry in entries:
            if entry.name.startswith(".") and entry.name != ".serena":
                continue
            rel = f"{rel_folder}/{entry.name}" if rel_folder else entry.name
            if cfg.is_excluded(rel):
                continue
            if entry.is_symlink():
                return False
            if entry.is_dir(follow_symlinks=False):
                stack.append((entry.path, rel))
    return True


def _probes(store, only):
    """The outside-link verdicts the cached check run stored (None: none stored)."""
    from ..base.cache import store_cache
    from .cached import RESULT, signature

    hit = store_cache(store.root).result(RESULT, signature(store, only))
    return None if hit is None else hit[0]
