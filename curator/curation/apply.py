"""Apply a plan atomically, undo the last operation, recover after a crash.

apply: recover → check every file still holds the plan's `before` (else ChangedOnDisk) →
journal the before/after bytes (state pending) → write each file (temp + fsync + rename) →
mark applied. A crash at any point leaves a pending entry; `recover` rolls it back from the
journal, so the store is always all-before or all-after, never half of an operation. A write
that fails with an OS error (disk full, permission) is rolled back at once and reported as
WriteFailed. Every writer holds the store's lock, so the app and the CLI never interleave.
"""

from __future__ import annotations

from pathlib import Path

from . import journal
from .plan import ChangedOnDisk, CurationError, Plan, WriteFailed
from .validate import inside_store


def _current(root: Path, rel: str) -> bytes | None:
    p = root / rel
    try:
        return p.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise CurationError(f"{rel} is a folder, not a file") from None


def _restore(root: Path, rel: str, data: bytes | None) -> None:
    target = inside_store(root, rel)
    if data is None:
        journal.remove(target)
    else:
        journal.atomic_write(target, data)


def _roll_back(root: Path, entry: journal.Entry) -> list[str]:
    """Put back every file's `before`. A file that holds neither the entry's before nor its
    after was edited by someone after the crash: it is kept as it is (never overwritten) and
    reported, so recovery loses nothing."""
    kept = []
    for rel, before, after in entry.files():
        now = _current(root, rel)
        if now == before:
            continue
        if now != after:
            kept.append(rel)
            continue
        _restore(root, rel, before)
    return kept


def _sweep_temp_files(root: Path, entry: journal.Entry) -> None:
    """Temp files a crash left beside the entry's files (`.name.*.tmp`): never the user's."""
    for f in entry.meta.get("files", []):
        target = root / f["path"]
        if target.parent.is_dir():
            for tmp in target.parent.glob(f".{target.name}.*.tmp"):
                journal.remove(tmp)


def recover(root: Path) -> list[str]:
    """Finish interrupted operations: a pending apply or an unfinished undo is rolled back to
    the state before it. Returns the ids it recovered."""
    root = Path(root)
    if not (root / journal.DIR / "journal").is_dir():
        return []  # never written to: no lock file to create in a read-only store
    with journal.locked(root):
        return _recover(root)


def _recover(root: Path) -> list[str]:
    done = []
    for entry in journal.entries(root):
        if entry.state not in ("pending", "undoing"):
            continue
        _sweep_temp_files(root, entry)
        kept = _roll_back(root, entry)
        if kept:
            entry.meta["kept_external_edits"] = kept
        entry.set_state("rolled-back" if entry.state == "pending" else "undone")
        done.append(entry.id)
    return done


def apply_plan(root: Path, plan: Plan) -> str:
    root = Path(root)
    if plan.empty:
        raise CurationError("nothing to do: the plan changes no file")
    with journal.locked(root):
        _recover(root)
        for e in plan.edits:
            inside_store(root, e.path)
            if _current(root, e.path) != e.before:
                raise ChangedOnDisk(e.path)
        try:
            entry = journal.write_entry(root, plan)
        except OSError as exc:
            raise WriteFailed(f"could not write the journal: {exc.strerror or exc}; nothing was changed") from None
        try:
            for e in plan.edits:
                if e.before != e.after:
                    _restore(root, e.path, e.after)
            entry.set_state("applied")
        except OSError as exc:
            _give_back(root, exc)
        return entry.id


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
    if not (root / journal.DIR / "journal").is_dir():
        raise CurationError("nothing to undo")
    with journal.locked(root):
        _recover(root)
        applied = [e for e in journal.entries(root) if e.state == "applied"]
        if not applied:
            raise CurationError("nothing to undo")
        entry = applied[-1]
        for rel, _before, after in entry.files():
            if _current(root, rel) != after:
                raise ChangedOnDisk(rel)
        try:
            entry.set_state("undoing")
            for rel, before, _after in entry.files():
                _restore(root, rel, before)
            entry.set_state("undone")
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
