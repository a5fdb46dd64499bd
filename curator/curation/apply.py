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
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

from . import journal
from .merge import NO_MERGE, rebase  # the three-way merge (re-exported for callers)
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
        if _read(aside) != expect:
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


def _roll_back(root: Path, entry: journal.Entry, tag: str) -> list[str]:
    """Put back every file's `before`, keeping any edit someone made to it after the crash
    (merged when it touches other lines than the operation's). A file whose edit cannot be
    merged is kept as it is (never overwritten) and reported, so recovery loses nothing."""
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
        try:
            _transplant(root, rel, after, before, tag)
        except Conflict:
            pass
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
    for tmp in [*jdir.glob("*/.*.tmp"), *jdir.glob("*/blobs/.*.tmp"), *(root / journal.DIR).glob("..gitignore.*.tmp")]:
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
    with journal.locked(root):
        _recover(root)
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


class NothingToUndo(CurationError):
    """No applied operation to undo; `notes` names journal entries set aside as untrusted."""

    def __init__(self, notes=()) -> None:
        self.notes = list(notes)
        more = f" ({len(self.notes)} journal entr{'y' if len(self.notes) == 1 else 'ies'} set aside as untrusted: " \
               f"see curator history)" if self.notes else ""
        super().__init__("nothing to undo" + more)


def undo(root: Path) -> journal.Entry:
    """Restore the state before the last applied operation (call again to go further back)."""
    root = Path(root)
    if not (root / journal.DIR).is_symlink() and not (root / journal.DIR / "journal").is_dir():
        raise NothingToUndo()
    with journal.locked(root):
        notes = _recover(root).notes  # an untrusted entry is set aside before any byte is read
        applied = [e for e in journal.entries(root) if e.state == "applied"]
        if not applied:
            raise NothingToUndo([f"journal entry {name} is in {journal.DIR}/quarantine ({why})"
                                 for name, why in journal.quarantined(root)])
        entry = applied[-1]
        entry.notes = notes
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
        except ChangedOnDisk as exc:
            _roll_back_refused(root, entry, reversed(done), exc, "applied")
        except OSError as exc:
            _give_back(root, exc, [rel for rel, _b, _a in done])
        return entry
