"""Apply a plan atomically, undo the last operation, recover after a crash.

One writer, from load to rename: a writing command takes the store's lock (`writing`) before it
loads the store, recovers any interrupted operation, then loads, plans and applies under it.
apply: every file must still hold the plan's `before` (else ChangedOnDisk) → journal the
before/after bytes (state pending) → for each file `swap`: move it aside (atomic), compare the
bytes moved aside with `before`, put the new file in place without overwriting anything that
appeared meanwhile (a hard link), re-read the moved-aside bytes (a write through a handle opened
earlier lands there) → mark applied. An edit by someone else at any moment is either refused
with "changed on disk" (the operation rolls back whole) or left in place: never overwritten,
never misplaced. A crash leaves a pending entry; `recover` rolls it back from the journal (which
it verifies first: it trusts no path, digest or blob), so the store is all-before or all-after.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path

from . import journal
from .plan import ChangedOnDisk, CurationError, Plan, WriteFailed
from .validate import inside_store


class Recovered(list):
    """Ids of the operations recovery rolled back; `notes` says what it set aside and why."""

    def __init__(self, ids=(), notes=()) -> None:
        super().__init__(ids)
        self.notes = list(notes)


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def _current(root: Path, rel: str) -> bytes | None:
    p = inside_store(root, rel)
    try:
        return _read(p)
    except IsADirectoryError:
        raise CurationError(f"{rel} is a folder, not a file") from None


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


def swap(root: Path, rel: str, expect: bytes | None, new: bytes | None, tag: str) -> None:
    """Turn `rel` from exactly `expect` into `new` (None = absent), or raise ChangedOnDisk and
    leave whatever someone else wrote in place."""
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
        if _read(aside) != expect:
            _put_back(aside, path, tag)
            raise ChangedOnDisk(rel)
        if tmp is not None:
            try:
                journal.link_new(tmp, path)
            except FileExistsError:  # a file appeared under the name meanwhile: it stays
                journal.remove(aside)  # (aside holds `expect`, which the journal keeps too)
                raise ChangedOnDisk(rel) from None
            tmp = None
        if _read(aside) != expect:  # written through a handle opened before the move
            _late_edit(path, aside, new, tag)
            raise ChangedOnDisk(rel)
        journal.remove(aside)
    finally:
        if tmp is not None:
            journal._unlink(tmp)
    journal.fsync_dir(path.parent)


def _late_edit(path: Path, aside: Path, new: bytes | None, tag: str) -> None:
    """Someone wrote into the file after it was moved aside: give their bytes the name back."""
    mine = _aside(path, tag, "mine")
    try:
        journal.replace(path, mine)
    except FileNotFoundError:
        mine = None
    if mine is not None and _read(mine) != new:  # not ours either: theirs stays, the late one is kept beside
        journal.link_new(mine, path)
        os.replace(aside, _aside(path, tag, "conflict"))
        return
    if mine is not None:
        journal.remove(mine)
    _put_back(aside, path, tag)


def _roll_back(root: Path, entry: journal.Entry, tag: str) -> list[str]:
    """Put back every file's `before`. A file that holds neither the entry's before nor its
    after was edited by someone after the crash: it is kept as it is (never overwritten) and
    reported, so recovery loses nothing."""
    kept = []
    for rel, before, after in entry.files():
        path = inside_store(root, rel)
        for old in sorted(path.parent.glob(f".{path.name}.{entry.id}*.aside")) if path.parent.is_dir() else []:
            if not os.path.lexists(path):  # a crash between moving the file aside and replacing it
                _put_back(old, path, entry.id)
        now = _current(root, rel)
        if now == before:
            continue
        if now != after:
            kept.append(rel)
            continue
        try:
            swap(root, rel, after, before, tag)
        except ChangedOnDisk:
            kept.append(rel)
    return kept


def _sweep_temp_files(root: Path, entry: journal.Entry) -> None:
    """Temp and moved-aside files a crash left beside the entry's files (`.name.*.tmp`,
    `.name.<id>.aside`): never the user's. An aside file holding bytes the journal does not
    have is kept as `.conflict`, never deleted."""
    known = {f.get(k) for f in entry.meta["files"] for k in ("before", "after")}
    for f in entry.meta["files"]:
        target = inside_store(root, f["path"])
        if not target.parent.is_dir():
            continue
        for tmp in target.parent.glob(f".{target.name}.*.tmp"):
            journal.remove(tmp)
        for old in target.parent.glob(f".{target.name}.{entry.id}*.aside"):
            data = _read(old)
            if data is not None and journal._digest(data) not in known:
                os.replace(old, _aside(target, entry.id, "conflict"))
            else:
                journal.remove(old)


def recover(root: Path) -> Recovered:
    """Finish interrupted operations: a pending apply or an unfinished undo is rolled back to
    the state before it. Returns the ids it recovered (and, in `.notes`, journal entries it set
    aside because it could not trust them)."""
    root = Path(root)
    if not (root / journal.DIR).is_symlink() and not (root / journal.DIR / "journal").is_dir():
        return Recovered()  # never written to: no lock file to create in a read-only store
    with journal.locked(root):
        return _recover(root)


def pending(root: Path) -> list[str]:
    """Ids of operations a crash interrupted (read only: for a dry run, which writes nothing)."""
    return [e.id for e in journal.entries(Path(root)) if e.state in ("pending", "undoing")]


def _recover(root: Path) -> Recovered:
    good, bad = journal.scan(root)
    notes = [journal.quarantine(root, p, why) for p, why in bad]
    jdir = root / journal.DIR / "journal"
    for tmp in [*jdir.glob("*/.*.tmp"), *jdir.glob("*/blobs/.*.tmp")]:
        journal.remove(tmp)  # a crash while journaling left curator's own temp files
    done = []
    for entry in good:
        if entry.state not in ("pending", "undoing"):
            continue
        try:
            entry.check_blobs()
        except journal.JournalCorrupt as exc:
            notes.append(journal.quarantine(root, entry.path, str(exc)) + "; check its files by hand")
            continue
        kept = _roll_back(root, entry, f"{entry.id}-r")
        _sweep_temp_files(root, entry)
        if kept:
            entry.meta["kept_external_edits"] = kept
        entry.set_state("rolled-back" if entry.state == "pending" else "undone")
        done.append(entry.id)
    return Recovered(done, notes)


@contextmanager
def writing(root: Path, dry_run: bool = False):
    """One writer from load to rename: hold the store's lock, recover, and let the caller load,
    plan and apply under it. A dry run writes nothing at all: it takes a shared lock (only if
    the store has one) and refuses while an interrupted operation waits for recovery."""
    root = Path(root)
    if dry_run:
        with journal.locked(root, shared=True):
            waiting = pending(root)
            if waiting:
                raise CurationError(f"an interrupted operation ({', '.join(waiting)}) is waiting to be rolled back; "
                                    "run the command without --dry-run first (a dry run writes nothing)")
            yield Recovered()
        return
    with journal.locked(root):
        yield _recover(root)


def apply_plan(root: Path, plan: Plan) -> str:
    root = Path(root)
    if plan.empty:
        raise CurationError("nothing to do: the plan changes no file")
    with journal.locked(root):
        _recover(root)
        for e in plan.edits:
            if _current(root, e.path) != e.before:
                raise ChangedOnDisk(e.path)
        try:
            entry = journal.write_entry(root, plan)
        except OSError as exc:
            raise WriteFailed(f"could not write the journal: {exc.strerror or exc}; nothing was changed") from None
        done = []
        try:
            for e in plan.edits:
                if e.before != e.after:
                    swap(root, e.path, e.before, e.after, entry.id)
                    done.append(e)
            entry.set_state("applied")
        except ChangedOnDisk:
            _take_back(root, [(e.path, e.after, e.before) for e in reversed(done)], entry.id)
            entry.set_state("rolled-back")
            raise
        except OSError as exc:
            _give_back(root, exc)
        return entry.id


def _take_back(root: Path, moves, entry_id: str) -> None:
    """Reverse the swaps already made (each only if the file still holds what curator wrote)."""
    for rel, now, back in moves:
        try:
            swap(root, rel, now, back, f"{entry_id}-r")
        except ChangedOnDisk:
            continue


def _give_back(root: Path, exc: OSError):
    """A write failed half-way: roll the operation back now (or, if that fails too, on the next
    start) and say so in one line."""
    reason = exc.strerror or str(exc)
    try:
        _recover(root)
    except OSError:
        raise WriteFailed(f"write failed ({reason}); the store is rolled back on the next start") from None
    raise WriteFailed(f"write failed ({reason}); rolled back, nothing was changed") from None


def undo(root: Path) -> journal.Entry:
    """Restore the state before the last applied operation (call again to go further back)."""
    root = Path(root)
    if not (root / journal.DIR).is_symlink() and not (root / journal.DIR / "journal").is_dir():
        raise CurationError("nothing to undo")
    with journal.locked(root):
        _recover(root)
        applied = [e for e in journal.entries(root) if e.state == "applied"]
        if not applied:
            raise CurationError("nothing to undo")
        entry = applied[-1]
        files = list(entry.files())  # verified: a blob that is not what its digest says is refused
        for rel, _before, after in files:
            if _current(root, rel) != after:
                raise ChangedOnDisk(rel)
        done = []
        try:
            entry.set_state("undoing")
            for rel, before, after in files:
                swap(root, rel, after, before, f"{entry.id}-u")
                done.append((rel, before, after))
            entry.set_state("undone")
        except ChangedOnDisk:
            _take_back(root, reversed(done), entry.id)
            entry.set_state("applied")
            raise
        except OSError as exc:
            _give_back(root, exc)
        return entry


def history(root: Path) -> list[dict]:
    return [
        {"id": e.id, "operation": e.meta.get("operation"), "title": e.meta.get("title"),
         "state": e.state, "created": e.meta.get("created"),
         "files": [f["path"] for f in e.meta.get("files", [])]}
        for e in journal.entries(Path(root))
    ]
