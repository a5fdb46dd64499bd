"""The store's write lock: an flock on `.curator/lock`, re-entrant within a thread (a writing
command holds it from before the load to after the last rename)."""

from __future__ import annotations

import os
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from .journal import DIR, _refuse_link, curator_dir
from .plan import Busy, WriteFailed

_held: dict[tuple, list] = {}  # (store, thread) -> [fd, depth]: the lock is re-entrant per thread
_held_guard = threading.Lock()


def _lock_key(root: Path) -> tuple:
    return (str(Path(root).resolve()), threading.get_ident())


def _lock_file(root: Path) -> Path:
    d = curator_dir(root)
    _refuse_link(d / "journal", f"{DIR}/journal")
    lock = d / "lock"
    if lock.is_symlink() or (lock.exists() and not lock.is_file()):
        from .quarantine import quarantine

        quarantine(root, lock, "lock is not a regular file")
    return lock


@contextmanager
def locked(root: Path, wait: float = 5.0, shared: bool = False):
    """Hold the store's write lock (an flock on `.curator/lock`), re-entrant within a thread.
    `shared` (a dry run) writes nothing: it takes a shared lock only if the lock file exists,
    so it never reads a store half way through another curator's write. Where flock does not
    exist (Windows) the journal alone has to do."""
    try:
        import fcntl  # noqa: F401 - only where flock exists
    except ImportError:
        yield
        return
    key = _lock_key(root)
    if _reenter(key):
        try:
            yield
        finally:
            with _held_guard:
                _held[key][1] -= 1
        return
    fd = _open_lock(Path(root), shared)
    if fd is None:  # a dry run with no lock file: no write has ever begun here
        yield
        return
    try:
        _acquire(fd, shared, wait)
        with _held_guard:
            _held[key] = [fd, 1]
        try:
            yield
        finally:
            with _held_guard:
                _held.pop(key, None)
    finally:
        os.close(fd)  # closing releases the lock


def _reenter(key: tuple) -> bool:
    """True (one level deeper) when this thread holds the store's lock already."""
    with _held_guard:
        if key in _held:
            _held[key][1] += 1
            return True
    return False


def _open_lock(root: Path, shared: bool) -> int | None:
    """The lock file, opened never through a link: created for a write; for a dry run only if
    it exists (None: it does not, or cannot be opened)."""
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    if not shared:
        try:
            return os.open(_lock_file(root), os.O_RDWR | os.O_CREAT | nofollow, 0o644)
        except OSError as exc:
            raise WriteFailed(f"cannot write to {root}: {exc.strerror or exc}; nothing was changed") from None
    _refuse_link(root / DIR, DIR)  # never open anything through a linked .curator
    _refuse_link(root / DIR / "journal", f"{DIR}/journal")
    lock = root / DIR / "lock"
    if lock.is_symlink() or not lock.is_file():
        return None
    try:
        return os.open(lock, os.O_RDONLY | nofollow)
    except OSError:
        return None


def _acquire(fd: int, shared: bool, wait: float) -> None:
    """flock, retried until `wait` seconds have passed (then Busy)."""
    import fcntl

    deadline = time.monotonic() + wait
    mode = fcntl.LOCK_SH if shared else fcntl.LOCK_EX
    while True:
        try:
            fcntl.flock(fd, mode | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() > deadline:
                raise Busy("another curator is writing to this store; try again in a moment") from None
            time.sleep(0.05)
