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
curator already wrote is put back with `transplant` (their changes since, three-way merged onto
`before` by `rebase`; appends always merge). Only edits to the very lines curator changed cannot
merge: the file is then kept as it is, any bytes that would be lost go to a `.conflict` file,
and the refusal is a `Conflict` naming them. A crash leaves a pending entry; `recover` rolls it
back the same way from the journal (which it verifies first: it trusts no path, digest or blob),
so the store is all-before or all-after, plus whatever others wrote.
"""

from __future__ import annotations

from pathlib import Path

from ..base.trust import Untrusted
from . import journal

# recovery (recovery.py) and undo (undo.py), re-exported: callers import them from here
from .journal import Recovered
from .lock import locked
from .merge import NO_MERGE, rebase  # the three-way merge (re-exported for callers)
from .plan import ChangedOnDisk, CurationError, Plan, WriteFailed
from .quarantine import Gate
from .recovery import give_back, pending, recover, recover_locked, writing
from .swap import Conflict, current_bytes, roll_back_refused, swap
from .undo import NothingToUndo, undo


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

    gate = Gate(root, plan.kind)
    for e in plan.edits:  # what its journal may name, and only that (instruction files at a repository's root)
        try:
            gate.path(e.path)
        except Untrusted as exc:
            raise CurationError(str(exc)) from None
    with locked(root):
        recover_locked(root, plan.kind)
        for e in plan.edits:
            if current_bytes(root, e.path) != e.before:
                raise ChangedOnDisk(e.path)
        try:
            entry = journal.write_entry(root, plan)
        except OSError as exc:
            raise WriteFailed(f"could not write the journal: {exc.strerror or exc}; no file was changed") from None
        stale = next((e.path for e in plan.edits if current_bytes(root, e.path) != e.before), None)
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
            roll_back_refused(root, entry, [(e.path, e.after, e.before) for e in reversed(done)], exc, "rolled-back")
        except OSError as exc:
            give_back(root, exc, [e.path for e in done])
        return entry.id


__all__ = ["NO_MERGE", "Conflict", "NothingToUndo", "Recovered", "apply_plan", "pending", "rebase", "recover", "swap",
           "undo", "writing"]
