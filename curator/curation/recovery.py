"""Crash recovery: an operation interrupted (a pending apply, an unfinished undo) is rolled back
from its journal — which is verified first: only entries this user's curator sealed are acted
on, every path through `trust.journal_path`, every blob by its hash.

Writing commands recover under their lock before they load (`writing`). Every other command —
read-only ones too — calls `recover_now` on the repository first: an instruction file a kill left
moved aside is put back at once (never waiting for a lock another curator holds), or the command
says exactly which file is missing and how to restore it (`stranded`).
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path

from ..base.trust import REPOSITORY, STORE
from . import journal
from .journal import Recovered
from .lock import locked
from .plan import Busy, CurationError, WriteFailed
from .quarantine import entries, quarantine, scan
from .swap import Conflict, aside_path, current_bytes, put_back, read_file, transplant
from .validate import inside_store


def _roll_back(root: Path, entry: journal.Entry, tag: str) -> tuple[list[str], list[str]]:
    """Put back every file's `before`, keeping any edit someone made to it after the crash
    (merged when it touches other lines than the operation's). A file whose edit cannot be
    merged is kept as it is (never overwritten) and reported, so recovery loses nothing; returns
    (the files kept, the files put back)."""
    kept: list[str] = []
    restored: list[str] = []
    for rel, before, after in entry.files():
        path = inside_store(root, rel)
        for old in sorted(path.parent.glob(f".{path.name}.{entry.id}*.aside")) if path.parent.is_dir() else []:
            if not os.path.lexists(path):  # a crash between moving the file aside and replacing it
                put_back(old, path, entry.id)
                restored.append(rel)
        now = current_bytes(root, rel)
        if now == before:
            continue
        if now != after:
            kept.append(rel)
        try:
            transplant(root, rel, after, before, tag)
            restored.append(rel)
        except Conflict:
            pass
    return kept, sorted(set(restored))


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
            data = read_file(old)
            if data is not None and journal._digest(data) not in known:
                os.replace(old, aside_path(target, entry.id, "conflict"))
            else:
                journal.remove(old)


def recover(root: Path, kind: str = STORE) -> Recovered:
    """Finish interrupted operations: a pending apply or an unfinished undo is rolled back to
    the state before it. Returns the ids it recovered (and, in `.notes`, journal entries it set
    aside because it could not trust them, or left alone because they are unverifiable)."""
    root = Path(root)
    if not (root / journal.DIR).is_symlink() and not (root / journal.DIR / "journal").is_dir():
        return Recovered()  # never written to: no lock file to create in a read-only store
    with locked(root):
        return recover_locked(root, kind)


def pending(root: Path, kind: str = STORE) -> list[str]:
    """Ids of operations a crash interrupted (read only: for a dry run, which writes nothing)."""
    return [e.id for e in entries(Path(root), kind) if e.state in ("pending", "undoing")]


def recover_locked(root: Path, kind: str = STORE, set_aside: bool = True) -> Recovered:
    good, bad, unsealed = scan(root, kind)
    notes = [quarantine(root, p, why) for p, why in bad] if set_aside else []
    flag = " --repository" if kind == REPOSITORY else ""
    notes += [f"journal entry {e.id} was interrupted but written before entries were sealed: not rolled back; "
              f"`curator undo{flag} --entry {e.id}` shows what it would restore"
              for e in unsealed if e.state in ("pending", "undoing")]
    jdir = root / journal.DIR / "journal"
    for tmp in [*jdir.glob("*/.*.tmp"), *jdir.glob("*/blobs/.*.tmp"), *(root / journal.DIR).glob("..gitignore.*.tmp")]:
        journal.remove(tmp)  # a crash while journaling left curator's own temp files
    done: list[str] = []
    restored: list[str] = []
    for entry in good:
        if entry.state not in ("pending", "undoing"):
            continue
        try:
            entry.check_blobs()
        except journal.JournalCorrupt as exc:
            notes.append(quarantine(root, entry.path, str(exc)) + "; check its files by hand")
            continue
        kept, back = _roll_back(root, entry, f"{entry.id}-r")
        _sweep_temp_files(root, entry)
        if kept:
            entry.meta["kept_external_edits"] = kept
        entry.set_state("rolled-back" if entry.state == "pending" else "undone")
        done.append(entry.id)
        restored += back
    return Recovered(done, notes, restored)


@contextmanager
def writing(root: Path, dry_run: bool = False, kind: str = STORE):
    """One writer from load to rename: hold the store's lock, recover, and let the caller load,
    plan and apply under it. A dry run writes nothing at all: it takes a shared lock (only if
    the store has one) and refuses while an interrupted operation waits for recovery."""
    root = Path(root)
    if dry_run:
        with locked(root, shared=True):
            waiting = pending(root, kind)
            if waiting:
                raise CurationError(f"an interrupted operation ({', '.join(waiting)}) is waiting to be rolled back; "
                                    "run the command without --dry-run first (a dry run writes nothing)")
            yield Recovered()
        return
    with locked(root):
        yield recover_locked(root, kind)


def recover_now(root: Path, kind: str = REPOSITORY, dry_run: bool = False) -> Recovered:
    """For any command (read-only ones too): roll back this user's interrupted operations on the
    repository's instruction files (journal entries of `kind`) at `root` now, never waiting (a
    lock another curator holds means its operation is not interrupted). Sets nothing aside. When
    it cannot write (or must not: `dry_run`), `.notes` names each file left missing or
    half-written and how to put it back."""
    root = Path(root)
    jdir = root / journal.DIR / "journal"
    if jdir.is_symlink() or not jdir.is_dir():
        return Recovered()
    waiting = [e for e in entries(root, kind) if e.state in ("pending", "undoing") and e.kind == kind]
    if not waiting:
        return Recovered()
    if dry_run:
        return Recovered(notes=[stranded(root, e, kind, "waits for recovery (a dry run writes nothing)")
                                for e in waiting])
    try:
        with locked(root, wait=0):
            return recover_locked(root, kind, set_aside=False)
    except Busy:
        return Recovered()
    except (CurationError, OSError):
        return Recovered(notes=[stranded(root, e, kind) for e in waiting])


def stranded(root: Path, entry: journal.Entry, kind: str, what: str = "could not be rolled back here") -> str:
    """What an interrupted operation left that recovery could not put back, file by file."""
    flag = " --repository" if kind == REPOSITORY else ""
    told = []
    for f in entry.meta["files"]:
        path = Path(root) / f["path"]
        asides = sorted(path.parent.glob(f".{path.name}.{entry.id}*.aside")) if path.parent.is_dir() else []
        if not os.path.lexists(path) and asides:
            told.append(f"{f['path']} is missing (moved aside as {asides[0].name}: `mv {asides[0]} {path}` puts it back)")
        else:
            told.append(f"{f['path']} may hold half of it")
    return (f"an interrupted operation ({entry.id}) {what}: " + "; ".join(told)
            + f"; `curator undo{flag}` where you can write rolls it back")


def give_back(root: Path, exc: OSError, done=()):
    """A write failed half-way: roll the operation back now (or, if that fails too, on the next
    start) and say in one line what was and was not changed."""
    reason = exc.strerror or str(exc)
    where = f" on {Path(exc.filename).name}" if getattr(exc, "filename", None) else ""
    try:
        recover_locked(root)
    except OSError:
        written = ", ".join(done[:3]) + (f" and {len(done) - 3} more" if len(done) > 3 else "")
        now = f"{written} hold{'s' if len(done) == 1 else ''} the new text" if done else "no file was changed"
        raise WriteFailed(f"write failed{where} ({reason}); {now} until the next curator command rolls the "
                          "operation back from its journal; nothing else was changed") from None
    raise WriteFailed(f"write failed{where} ({reason}); rolled back: no file was changed") from None
