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
The generic half (the `Run` the entry point opens, stat keys, capture, atomic keeping) is
`base/kept.py`; what a store's load read is `model/load_signature.py`.
Anything unusual (a symbolic link in a store, a source that could not load, the demo store,
estimated token counts, `--changed`, `--baseline`) is simply not kept: the full run happens.
`CURATOR_NO_REPLAY=1` always runs the checks (the store's cache still serves the loader).
"""

from __future__ import annotations

import os
import time

from ..base import kept
from ..base.kept import Run, unchanged
from ..base.tokens import estimating

FORMAT = 4  # 4: checksummed (base.kept); the repository journal's stat


def command_key(argv: list[str]) -> tuple:
    return kept.command_key(FORMAT, argv)


def begin(argv: list[str]) -> tuple[int | None, Run | None]:
    """At the entry point: (the exit code after replaying a kept output of this command, None)
    — or (None, the `Run` to hand the command, which may keep its output; None when this
    command is never kept)."""
    if not argv or argv[0] not in ("check", "context") or os.environ.get("CURATOR_NO_REPLAY"):
        return None, None
    where = kept.folder("replay")
    if where is None:
        return None, None
    run = Run(command_key(argv), where, time.time_ns())
    try:
        kept_key, found, stats, presence, outside, out, code = kept.load(run)
    except Exception:  # noqa: BLE001 - none kept, damaged, or of another layout
        return None, run
    try:
        if kept_key != run.key or not unchanged(stats, presence):
            return None, run
        if not _found_unchanged(found) or not _outside_unchanged(outside):
            return None, run
    except Exception:  # noqa: BLE001 - anything odd while asking: the command runs as usual
        return None, run
    import sys

    try:
        sys.stdout.write(out)
        sys.stdout.flush()
    except BrokenPipeError:
        return 0, None
    return code, None


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
    from ..demo import sample_copy
    from ..model.discovery import StoreError, locate_store

    try:
        return describe(locate_store(arg, demo=sample_copy, fall_back=False)) == layout
    except (StoreError, OSError, ValueError):
        return False


def describe(located) -> tuple:
    """What discovery found, as plain data."""
    lay = located.layout
    sources = tuple((s.kind, str(s.root), s.rel, s.origin, s.read_only, s.fmt) for s in lay.sources) if lay else ()
    return (str(located.root), located.given, str(located.repo), located.is_sample,
            str(lay.root) if lay else None, lay.single if lay else None, tuple(lay.notes) if lay else (), sources)


def keep(run: Run | None, repo, located, arg: str | None, only, out: str, code: int) -> bool:
    """After a full `check`: keep its output with what it depended on — every memory source of
    the repository (`repo`, as `located` from the store argument `arg`) — unless the run is not
    one that can be replayed (or no `run` was opened for it). True when kept."""
    if run is None:
        return False
    memory = [s for s in repo.sources if s.spec.kind != "sessions"]
    if located.is_sample or not memory or any(s.store is None for s in memory):
        return False  # the demo, or a source that could not load: run again next time
    given_store = arg is not None and repo.single
    found = None if given_store else (arg, describe(located))
    stats: list = []
    presence: list = []
    outside: list = []
    for src in memory:
        deps = dependencies(src.store, only, run.settled)
        if deps is None:
            return False
        stats += deps[0]
        presence += deps[1]
        if deps[2] is not None:
            outside.append(deps[2])
    from ..context.for_check import replay_stats

    extra = replay_stats(getattr(repo, "instructions", None), run.settled)  # CLAUDE.md, rules, ...
    if extra is None:
        return False
    stats += extra
    from ..base.locations import repository_journal

    journal = repository_journal(located.repo or located.root)  # an operation begun there is run, never
    try:  # replayed: the run recovers what a kill interrupted, and says so
        stats.append((journal, kept.stat_key(os.lstat(journal))))
    except FileNotFoundError:
        presence.append((journal, False))
    except OSError:
        return False
    return kept.write(run, (run.key, found, tuple(stats), tuple(presence), tuple(outside), out, code))


def dependencies(store, only, settled_ns: int):
    """(stat keys, presence, outside-link probes) of a loaded and checked store, or None when
    the run cannot be replayed (racy, a symbolic link, estimated tokens, no cached probes)."""
    if store.encoding != "cl100k_base" and not estimating():
        return None  # the tokenizer could not load: the next run should try again
    probed = _probes(store, only)
    if probed is None:
        return None
    from ..model.load_signature import store_signature

    found = store_signature(store, settled_ns)
    if found is None:
        return None
    root = os.path.abspath(store.root)
    repo_root = getattr(store, "repo_root", None)
    outside = (root, str(repo_root) if repo_root else None, store.format, probed) if probed else None
    return found[0], found[1], outside


def _probes(store, only):
    """The outside-link verdicts the cached check run stored (None: none stored)."""
    from ..base.cache import store_cache
    from .cached import RESULT, signature

    hit = store_cache(store.root).result(RESULT, signature(store, only))
    return None if hit is None else hit[0]
