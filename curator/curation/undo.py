"""Undo: take back the newest operation this user's curator applied (call again to go further
back) — or, when the person names one, an entry written before journal entries were sealed,
after seeing what it would restore (`preview_entry`, then `undo(..., entry_id=ID)`).

Recovery runs first, under the same lock: an untrusted entry is set aside before any byte is
read, and what recovery put back is said (`Entry.recovered`, `NothingToUndo.recovered`).
"""

from __future__ import annotations

from pathlib import Path

from ..base.trust import STORE
from . import journal
from .journal import Recovered
from .lock import locked
from .plan import ChangedOnDisk, CurationError, FileEdit, Plan
from .quarantine import entries, quarantined, scan
from .recovery import give_back, recover_locked
from .swap import current_bytes, roll_back_refused, swap


class NothingToUndo(CurationError):
    """No applied operation to undo; `notes` names journal entries set aside or left alone,
    `recovered` what recovery rolled back on the way."""

    def __init__(self, notes=(), recovered: Recovered | None = None) -> None:
        self.notes = list(notes)
        self.recovered = recovered if recovered is not None else Recovered()
        more = f" ({len(self.notes)} journal entr{'y' if len(self.notes) == 1 else 'ies'} set aside as untrusted or left unverifiable: " \
               f"see curator history)" if self.notes else ""
        super().__init__("nothing to undo" + more)


def _no_journal(root: Path) -> bool:
    return not (root / journal.DIR).is_symlink() and not (root / journal.DIR / "journal").is_dir()


def undo(root: Path, kind: str = STORE, entry_id: str | None = None) -> journal.Entry:
    """Restore the state before the newest applied operation of the journal at `root`; with
    `entry_id`, before that entry (an unverifiable one becomes the person's own: `preview_entry`
    shows its diff first)."""
    root = Path(root)
    if _no_journal(root):
        raise NothingToUndo()
    with locked(root):
        done = recover_locked(root, kind)  # an untrusted entry is set aside before any byte is read
        if entry_id is not None:
            entry = _named(root, kind, entry_id)
            if entry.state in ("pending", "undoing"):  # interrupted: rolled back as recovery does
                entry.adopt(kind)
                again = recover_locked(root, kind)
                entry.recovered = again
                entry.notes = done.notes
                return entry
            entry.adopt(kind)
        else:
            applied = [e for e in entries(root, kind) if e.state == "applied"]
            if not applied:
                raise NothingToUndo([*done.notes, *_left_alone(root, kind)], done)
            entry = applied[-1]
        entry.notes, entry.recovered = done.notes, done
        _take_back(root, entry)
        return entry


def _left_alone(root: Path, kind: str) -> list[str]:
    flag = " --repository" if kind != STORE else ""
    set_aside = [f"journal entry {name} is in {journal.DIR}/quarantine ({why})" for name, why in quarantined(root)]
    unsealed = [f"journal entry {e.id} ({e.meta.get('title')}) was written before entries were sealed: "
                f"`curator undo{flag} --entry {e.id}` shows what it would restore"
                for e in scan(root, kind).unsealed if e.state == "applied"]
    return set_aside + unsealed


def _take_back(root: Path, entry: journal.Entry) -> None:
    files = list(entry.files())  # verified: a blob that is not what its digest says is refused
    for rel, _before, after in files:
        if current_bytes(root, rel) != after:
            raise ChangedOnDisk(rel)
    done = []
    try:
        entry.set_state("undoing")
        for rel, before, after in files:
            swap(root, rel, after, before, f"{entry.id}-u")
            done.append((rel, before, after))
        entry.set_state("undone")
    except ChangedOnDisk as exc:
        roll_back_refused(root, entry, reversed(done), exc, "applied")
    except OSError as exc:
        give_back(root, exc, [rel for rel, _b, _a in done])


def _named(root: Path, kind: str, entry_id: str) -> journal.Entry:
    """The entry the person named: this user's or an unverifiable one, never one set aside."""
    found = scan(root, kind)
    for entry in [*found.good, *found.unsealed]:
        if entry.id == entry_id:
            if entry.state not in ("applied", "pending", "undoing"):
                raise CurationError(f"journal entry {entry_id} is {entry.state}: there is nothing to undo")
            return entry
    bad = {p.name: why for p, why in found.bad} | dict(quarantined(root))
    why = next((w for name, w in bad.items() if name.startswith(entry_id)), None)
    if why is not None:
        raise CurationError(f"journal entry {entry_id} is not trusted ({why}); curator never acts on it")
    raise CurationError(f"no journal entry {entry_id} (curator history lists them)")


def preview_entry(root: Path, kind: str, entry_id: str) -> tuple[journal.Entry, Plan]:
    """(the named entry, what undoing it would write: each file from what it holds now back to
    the entry's `before`) — read only; its blobs are verified by their hash first."""
    root = Path(root)
    if _no_journal(root):
        raise CurationError(f"no journal entry {entry_id} (curator history lists them)")
    entry = _named(root, kind, entry_id)
    edits = [FileEdit(rel, current_bytes(root, rel), before) for rel, before, _after in entry.files()]
    title = f"undo {entry.id}: {entry.meta.get('title') or entry.meta.get('operation')}"
    return entry, Plan("undo", title, edits, kind=kind)
