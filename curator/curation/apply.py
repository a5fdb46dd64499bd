"""Apply a plan atomically, undo the last operation, recover after a crash.

apply: recover → check every file still holds the plan's `before` (else ChangedOnDisk) →
journal the before/after bytes (state pending) → write each file (temp + fsync + rename) →
mark applied. A crash at any point leaves a pending entry; `recover` rolls it back from the
journal, so the store is always all-before or all-after, never half of an operation.
"""

from __future__ import annotations

from pathlib import Path

from . import journal
from .plan import ChangedOnDisk, CurationError, Plan
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


def recover(root: Path) -> list[str]:
    """Finish interrupted operations: a pending apply or an unfinished undo is rolled back to
    the state before it. Returns the ids it recovered."""
    done = []
    for entry in journal.entries(root):
        if entry.state not in ("pending", "undoing"):
            continue
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
    recover(root)
    for e in plan.edits:
        inside_store(root, e.path)
        if _current(root, e.path) != e.before:
            raise ChangedOnDisk(e.path)
    entry = journal.write_entry(root, plan)
    for e in plan.edits:
        if e.before != e.after:
            _restore(root, e.path, e.after)
    entry.set_state("applied")
    return entry.id


def undo(root: Path) -> journal.Entry:
    """Restore the state before the last applied operation (call again to go further back)."""
    root = Path(root)
    recover(root)
    applied = [e for e in journal.entries(root) if e.state == "applied"]
    if not applied:
        raise CurationError("nothing to undo")
    entry = applied[-1]
    for rel, _before, after in entry.files():
        if _current(root, rel) != after:
            raise ChangedOnDisk(rel)
    entry.set_state("undoing")
    for rel, before, _after in entry.files():
        _restore(root, rel, before)
    entry.set_state("undone")
    return entry


def history(root: Path) -> list[dict]:
    return [
        {"id": e.id, "operation": e.meta.get("operation"), "title": e.meta.get("title"),
         "state": e.state, "created": e.meta.get("created"),
         "files": [f["path"] for f in e.meta.get("files", [])]}
        for e in journal.entries(Path(root))
    ]
