"""One file's atomic swap and its roll-back, shared by apply, recovery and undo: `swap` turns a
file from exactly `before` into `after` or refuses with ChangedOnDisk (someone's edit kept);
`transplant` puts a file back keeping what others wrote since (a three-way merge, else a
`Conflict` that keeps their bytes beside it); `roll_back_refused` reverses an operation's swaps."""

from __future__ import annotations

import os
from pathlib import Path
from typing import NoReturn

from ..base.safeio import UnsafeFile, read_small_file
from . import journal
from .merge import NO_MERGE, rebase
from .plan import ChangedOnDisk, CurationError
from .validate import inside_store


def read_file(path: Path) -> bytes | None:
    """A regular file's bytes (None: absent). Never through a link, never a FIFO or a device
    (opened without blocking, refused before a byte is read)."""
    try:
        return read_small_file(path, cap=1 << 40)
    except FileNotFoundError:
        return None
    except UnsafeFile as exc:
        raise CurationError(str(exc)) from None


def current_bytes(root: Path, rel: str) -> bytes | None:
    return read_file(inside_store(root, rel))


def aside_path(path: Path, tag: str, kind: str = "aside") -> Path:
    return path.with_name(f".{path.name}.{tag}.{kind}")


def put_back(src: Path, path: Path, tag: str) -> bool:
    """Give `src` back the name `path` unless someone's file holds it now; then keep `src`
    beside it as `.name.<tag>.conflict` (never deleted) and say False."""
    try:
        journal.link_new(src, path)
        return True
    except FileExistsError:
        os.replace(src, aside_path(path, tag, "conflict"))
        return False


class Conflict(ChangedOnDisk):
    """Someone's edit and curator's own change touch the same lines: the file keeps what it
    holds, never overwritten (bytes that would be lost go to `.name.<tag>.conflict` beside it)."""

    def __init__(self, path: str, message: str) -> None:
        CurationError.__init__(self, message)
        self.path = path


def swap(root: Path, rel: str, expect: bytes | None, new: bytes | None, tag: str) -> None:
    """Turn `rel` from exactly `expect` into `new` (None = absent), or raise ChangedOnDisk with
    the file back at `expect` plus every edit someone else made meanwhile (or, if their edits
    cannot be put together, raise Conflict with theirs kept in a conflict file)."""
    path = inside_store(root, rel)
    if expect == new:
        return
    if expect is None:
        assert new is not None  # (expect == new returned above)
        if os.path.lexists(path):
            raise ChangedOnDisk(rel)
        fresh = journal.write_temp(path, new)
        try:
            journal.link_new(fresh, path)
        except FileExistsError:
            raise ChangedOnDisk(rel) from None
        finally:
            journal._unlink(fresh)
        journal.fsync_dir(path.parent)
        return
    tmp = journal.write_temp(path, new) if new is not None else None
    aside = aside_path(path, tag)
    try:
        try:
            journal.replace(path, aside)
        except FileNotFoundError:
            raise ChangedOnDisk(rel) from None
        try:
            held = read_file(aside)
        except CurationError:  # swapped for a FIFO or a device since it was checked: never read
            put_back(aside, path, tag)
            raise
        if held != expect:
            put_back(aside, path, tag)  # the same file: a write through an old handle still lands in it
            raise ChangedOnDisk(rel)
        mine, clash = new, False
        if tmp is not None:
            try:
                journal.link_new(tmp, path)
                tmp = None
            except FileExistsError:  # a file appeared under the name meanwhile: it stays
                mine, clash = expect, True
        late = journal.drain(aside)  # every byte written into it, even through a handle opened earlier
        if clash:  # the name was made again while ours was aside (an append to the absent name)
            _keep_beside(root, rel, late if late is not None else expect, tag)
        if late is not None and late != expect:  # (None: someone took curator's moved-aside file away)  # written through a handle opened before the move: their bytes, with
            transplant(root, rel, mine, late, f"{tag}-l", keep=True)  # what else they wrote since
            raise ChangedOnDisk(rel)
        if clash:
            raise ChangedOnDisk(rel)
    finally:
        if tmp is not None:
            journal._unlink(tmp)
    journal.fsync_dir(path.parent)


def _keep_beside(root: Path, rel: str, held: bytes, tag: str) -> None:
    """A file appeared under `rel` while the bytes it `held` were moved aside: when the new file
    does not carry them (someone appended to the absent name), they are kept beside it in a
    conflict file and Conflict says so — never dropped; else it is a plain change on disk."""
    path = inside_store(root, rel)
    theirs = read_file(path)
    if theirs is not None and theirs.startswith(held):
        raise ChangedOnDisk(rel)
    conflict = aside_path(path, tag, "conflict")
    journal.atomic_write(conflict, held)
    raise Conflict(rel, f"{rel} was written by someone else while curator replaced it: their bytes are in the file, "
                        f"what it held before is kept beside it in {conflict.name}")


def transplant(root: Path, rel: str, base: bytes | None, target: bytes | None, tag: str,
                keep: bool = False) -> None:
    """Make `rel`, which curator last left holding `base`, hold `target` plus every change
    someone made to it since. If their change and ours touch the same lines the file keeps what
    it holds and Conflict says so; with `keep` (`target` holds someone's bytes, in no journal)
    `target` is kept in a conflict file beside it."""
    path = inside_store(root, rel)
    for attempt in range(20):
        now = current_bytes(root, rel)
        want = rebase(base, now, target)
        if want is NO_MERGE or attempt == 19:
            if not keep or target is None:
                raise Conflict(rel, f"{rel} was edited by someone else where curator changed it: kept as it is")
            conflict = aside_path(path, tag, "conflict")
            journal.atomic_write(conflict, target)
            raise Conflict(rel, f"{rel} was edited by someone else twice at once: one version is in the file, "
                                f"the other kept beside it in {conflict.name}")
        try:
            swap(root, rel, now, want, f"{tag}{attempt}")
            return
        except Conflict:
            raise
        except ChangedOnDisk:  # edited again meanwhile: it holds `now` plus that edit
            base, target = now, want


def _take_back(root: Path, moves, entry_id: str) -> list:
    """Reverse the swaps already made, keeping any edit someone made to those files since
    (a Conflict, when their edit and ours touch the same lines, is reported, never overwritten)."""
    conflicts = []
    for rel, now, back in moves:
        try:
            transplant(root, rel, now, back, f"{entry_id}-r")
        except Conflict as exc:
            conflicts.append(exc)
    return conflicts


def roll_back_refused(root: Path, entry: journal.Entry, moves, exc: ChangedOnDisk, state: str) -> NoReturn:
    """A file changed under an apply or an undo: reverse the swaps already made (`moves`), mark
    the entry `state` again and raise the refusal — a Conflict if a file could not be put back
    whole (the operation is then not whole: say which file, never hide it)."""
    conflicts = _take_back(root, moves, entry.id)
    entry.set_state(state)
    if not conflicts:
        raise exc
    first = conflicts[0]
    raise Conflict(first.path, f"{exc}; could not roll back cleanly: " + "; ".join(map(str, conflicts))) from exc
