"""Apply a plan atomically, undo the last operation, recover after a crash.

One writer, from load to rename: a writing command takes the store's lock (`writing`) before it
loads the store, recovers any interrupted operation, then loads, plans and applies under it.
apply: every file must still hold the plan's `before` (else ChangedOnDisk) → journal the
before/after bytes (state pending) → for each file `swap`: move it aside (atomic), compare the
bytes moved aside with `before`, put the new file in place without overwriting anything that
appeared meanwhile (a hard link), then drain the moved-aside file (`journal.drain`: wait, with a
read lease where the system has them, until no handle opened earlier is open for writing, unlink
it, read it through our own descriptor) → mark applied. An edit by someone else at any moment is
refused with "changed on disk" and the operation rolls back whole, keeping their edit: a file
curator already wrote is put back with `_transplant` (their changes since, three-way merged onto
`before` by `rebase`; appends always merge). Only edits to the very lines curator changed cannot
merge: the file is then kept as it is, any bytes that would be lost go to a `.conflict` file,
and the refusal is a `Conflict` naming them. A crash leaves a pending entry; `recover` rolls it
back the same way from the journal (which it verifies first: it trusts no path, digest or blob),
so the store is all-before or all-after, plus whatever others wrote.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NoReturn

from . import journal
from .merge import NO_MERGE, rebase  # the three-way merge (re-exported for callers)
from .plan import ChangedOnDisk, CurationError, Plan, WriteFailed
from .validate import inside_store


def _read(path: Path) -> bytes | None:
    """A regular file's bytes (None: absent). Never through a link, never a FIFO or a device
    (opened without blocking, refused before a byte is read)."""
    from ..base.safeio import UnsafeFile, read_small_file

    try:
        return read_small_file(path, cap=1 << 40)
    except FileNotFoundError:
        return None
    except UnsafeFile as exc:
        raise CurationError(str(exc)) from None


def _current(root: Path, rel: str) -> bytes | None:
    return _read(inside_store(root, rel))


def _aside(path: Path, tag: str, kind: str = "aside") -> Path:
    return path.with_name(f".{path.name}.{tag}.{kind}")


def _put_back(src: Path, path: Path, tag: str) -> bool:
    """Give `src` back the name `path` unless someone's file holds it now; then keep `src`
    beside it as `.name.<tag>.conflict` (never deleted) and say False."""
    try:
        journal.link_new(src, path)
        return True
    except FileExistsError:
        os.replace(src, _aside(path, tag, "conflict"))
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
        if os.path.lexists(path):
            raise ChangedOnDisk(rel)
        tmp = journal.write_temp(path, new)
        try:
            journal.link_new(tmp, path)
        except FileExistsError:
            raise ChangedOnDisk(rel) from None
        finally:
            journal._unlink(tmp)
        journal.fsync_dir(path.parent)
        return
    tmp = journal.write_temp(path, new) if new is not None else None
    aside = _aside(path, tag)
    try:
        try:
            journal.replace(path, aside)
        except FileNotFoundError:
            raise ChangedOnDisk(rel) from None
        try:
            held = _read(aside)
        except CurationError:  # swapped for a FIFO or a device since it was checked: never read
            _put_back(aside, path, tag)
            raise
        if held != expect:
            _put_back(aside, path, tag)  # the same file: a write through an old handle still lands in it
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
            _transplant(root, rel, mine, late, f"{tag}-l", keep=True)  # what else they wrote since
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
    theirs = _read(path)
    if theirs is not None and theirs.startswith(held):
        raise ChangedOnDisk(rel)
    conflict = _aside(path, tag, "conflict")
    journal.atomic_write(conflict, held)
    raise Conflict(rel, f"{rel} was written by someone else while curator replaced it: their bytes are in the file, "
                        f"what it held before is kept beside it in {conflict.name}")


def _transplant(root: Path, rel: str, base: bytes | None, target: bytes | None, tag: str,
                keep: bool = False) -> None:
    """Make `rel`, which curator last left holding `base`, hold `target` plus every change
    someone made to it since. If their change and ours touch the same lines the file keeps what
    it holds and Conflict says so; with `keep` (`target` holds someone's bytes, in no journal)
    `target` is kept in a conflict file beside it."""
    path = inside_store(root, rel)
    for attempt in range(20):
        now = _current(root, rel)
        want = rebase(base, now, target)
        if want is NO_MERGE or attempt == 19:
            if not keep or target is None:
                raise Conflict(rel, f"{rel} was edited by someone else where curator changed it: kept as it is")
            conflict = _aside(path, tag, "conflict")
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


def _refuse_read_only(root: Path, plan: Plan) -> None:
    """A memory Serena's read_only_memory_patterns protect is never written, whoever planned it."""
    from ..model.serena_patterns import read_patterns

    patterns = read_patterns(root)
    if patterns is None:
        return
    hit = next((e.path for e in plan.edits if e.before != e.after and patterns.is_read_only(e.path)), None)
    if hit is not None:
        raise CurationError(f"{hit} is read-only for Serena (read_only_memory_patterns): curator does not write it; "
                            "no file was changed")


def apply_plan(root: Path, plan: Plan) -> str:
    root = Path(root)
    if plan.empty:
        raise CurationError("nothing to do: the plan changes no file")
    _refuse_read_only(root, plan)
    from ..base.trust import Untrusted
    from .quarantine import Gate
    from .recovery import _recover

    gate = Gate(root, plan.kind)
    for e in plan.edits:  # what its journal may name, and only that (instruction files at a repository's root)
        try:
            gate.path(e.path)
        except Untrusted as exc:
            raise CurationError(str(exc)) from None
    with journal.locked(root):
        _recover(root, plan.kind)
        for e in plan.edits:
            if _current(root, e.path) != e.before:
                raise ChangedOnDisk(e.path)
        try:
            entry = journal.write_entry(root, plan)
        except OSError as exc:
            raise WriteFailed(f"could not write the journal: {exc.strerror or exc}; no file was changed") from None
        stale = next((e.path for e in plan.edits if _current(root, e.path) != e.before), None)
        if stale is not None:  # edited while the journal was written: nothing swapped, the entry goes
            journal.discard(entry)
            raise ChangedOnDisk(stale)
        done = []
        try:
            for e in plan.edits:
                if e.before != e.after:
                    swap(root, e.path, e.before, e.after, entry.id)
                    done.append(e)
            entry.set_state("applied")
        except ChangedOnDisk as exc:
            _roll_back_refused(root, entry, [(e.path, e.after, e.before) for e in reversed(done)], exc, "rolled-back")
        except OSError as exc:
            _give_back(root, exc, [e.path for e in done])
        return entry.id


def _take_back(root: Path, moves, entry_id: str) -> list:
    """Reverse the swaps already made, keeping any edit someone made to those files since
    (a Conflict, when their edit and ours touch the same lines, is reported, never overwritten)."""
    conflicts = []
    for rel, now, back in moves:
        try:
            _transplant(root, rel, now, back, f"{entry_id}-r")
        except Conflict as exc:
            conflicts.append(exc)
    return conflicts


def _roll_back_refused(root: Path, entry: journal.Entry, moves, exc: ChangedOnDisk, state: str) -> NoReturn:
    """A file changed under an apply or an undo: reverse the swaps already made (`moves`), mark
    the entry `state` again and raise the refusal — a Conflict if a file could not be put back
    whole (the operation is then not whole: say which file, never hide it)."""
    conflicts = _take_back(root, moves, entry.id)
    entry.set_state(state)
    if not conflicts:
        raise exc
    first = conflicts[0]
    raise Conflict(first.path, f"{exc}; could not roll back cleanly: " + "; ".join(map(str, conflicts))) from exc


def _give_back(root: Path, exc: OSError, done=()):
    """A write failed half-way: roll the operation back now (or, if that fails too, on the next
    start) and say in one line what was and was not changed."""
    from .recovery import _recover

    reason = exc.strerror or str(exc)
    where = f" on {Path(exc.filename).name}" if getattr(exc, "filename", None) else ""
    try:
        _recover(root)
    except OSError:
        written = ", ".join(done[:3]) + (f" and {len(done) - 3} more" if len(done) > 3 else "")
        now = f"{written} hold{'s' if len(done) == 1 else ''} the new text" if done else "no file was changed"
        raise WriteFailed(f"write failed{where} ({reason}); {now} until the next curator command rolls the "
                          "operation back from its journal; nothing else was changed") from None
    raise WriteFailed(f"write failed{where} ({reason}); rolled back: no file was changed") from None


# recovery (recovery.py) and undo (undo.py), re-exported: callers import them from here
from .recovery import Recovered, pending, recover, writing  # noqa: E402
from .undo import NothingToUndo, undo  # noqa: E402

__all__ = ["NO_MERGE", "Conflict", "NothingToUndo", "Recovered", "apply_plan", "pending", "rebase", "recover", "swap",
           "undo", "writing"]
