"""Undo from the app: ctrl+z undoes the newest applied operation of either journal (the current
store's, the repository's instruction files'); the history lists both, and an entry written
before entries were sealed is undone only after its diff is shown and applied. Each undo runs
off the UI thread; what it did is said (recovered first, entries set aside), never silently."""

from __future__ import annotations

from pathlib import Path


class Undo:
    def __init__(self, port, repository) -> None:
        self.port = port
        self.repository = repository  # flows.repository.RepositoryFixes: the journals and their roots

    def undo(self) -> None:
        """ctrl+z: the newest of the store's and the repository's operations."""
        self.port.in_background(self.undo_newest)

    def undo_newest(self) -> None:
        from ...curation import CurationError
        from ...reports.escape import visible

        port = self.port
        try:
            entry, swap = self.newest()
        except (CurationError, OSError) as exc:
            port.later(port.notify, visible(str(exc)), severity="warning", timeout=6, markup=False)
            for note in getattr(exc, "notes", []):  # entries set aside or left alone: named, never silent
                port.later(port.notify, visible(note), severity="warning", timeout=10, markup=False)
            return
        self.said(entry, swap)

    def newest(self):
        """Undo the newest applied operation of any journal (on a worker's thread): (entry,
        store swap or None); the repository's journal rebuilds the instruction files' model."""
        from ...base.trust import REPOSITORY
        from ...curation import NothingToUndo, undo
        from ...curation.journals import newest_applied

        port = self.port
        journals = self.repository.journals()
        hit = newest_applied(journals)
        bench = port.workbench
        if hit is None:  # nothing of this user's applied: set aside what is not theirs, and say so
            from ...curation.journals import kind_of

            notes = []
            for name, root in journals:
                try:
                    undo(root, kind_of(name))
                except NothingToUndo as exc:
                    notes += exc.notes
            raise NothingToUndo(notes)
        if hit[0] == "store" and bench is not None:
            entry, swap = bench.undo()
            repo = self.repository.root()
            if repo is not None and hit is not None and hit[1].resolve() == repo.resolve():
                port.later(port.instructions_changed, [])  # the store's journal is the repository's
            return entry, swap
        entry = undo(hit[1], REPOSITORY)
        port.later(port.instructions_changed, [hit[1] / f["path"] for f in entry.meta.get("files", [])])
        return entry, None

    def said(self, entry, swap) -> None:
        """What an undo did, said: the operation, what recovery put back first, entries set aside."""
        from ...reports.escape import visible
        from .curation import tell_recovered

        port = self.port
        tell_recovered(port, getattr(entry, "recovered", None))
        port.later(port.notify, f"undone: {visible(str(entry.meta.get('title')))}", timeout=5, markup=False)
        tell_recovered(port, None, entry.notes)  # untrusted journal entries set aside first: never silent
        if swap is not None:
            port.later(port.refresh_views, [swap])

    def history_items(self) -> tuple[list[dict], str]:
        """Every journal's operations, and what they were made on (the history dialog's words)."""
        from ...curation import history
        from ...curation.journals import kind_of, merged_history

        journals = self.repository.journals()
        if len(journals) > 1:
            return merged_history(journals), "this store and the repository's instruction files"
        name, root = journals[0] if journals else ("store", self.port.store_root)
        items = [dict(it, where=name) for it in history(root, kind_of(name))]
        return items, "this store" if name == "store" else "the repository's instruction files"

    def review_unverifiable(self, item: dict | None) -> None:
        """The history dialog's choice: an entry written before journal entries were sealed. Show
        what undoing it would restore; only if the person applies that diff is it undone (and
        from then on theirs)."""
        from ...curation import CurationError
        from ...curation.journals import kind_of
        from ...curation.undo import preview_entry

        if not item:
            return
        root = dict(self.repository.journals()).get(item.get("where", "store"))
        kind = kind_of(item.get("where", "store"))
        if root is None:
            return
        try:
            _entry, plan = preview_entry(root, kind, item["id"])
        except (CurationError, OSError) as exc:
            self.port.notify(f"Not undone: {exc}", severity="warning", timeout=8, markup=False)
            return

        def decided(ok: bool | None) -> None:
            if ok:
                self.port.in_background(self.undo_named, item["id"], item.get("where", "store"), root)

        self.port.show_diff(plan, decided)

    def undo_named(self, entry_id: str, where: str, root: Path) -> None:
        from ...curation import CurationError, undo
        from ...curation.journals import kind_of

        port = self.port
        try:
            if where == "store" and port.workbench is not None:
                entry, swap = port.workbench.undo(entry_id=entry_id)
            else:
                entry, swap = undo(root, kind_of(where), entry_id), None
                port.later(port.instructions_changed, [root / f["path"] for f in entry.meta.get("files", [])])
        except (CurationError, OSError) as exc:
            port.later(port.notify, f"Not undone: {exc}", severity="warning", timeout=8, markup=False)
            return
        self.said(entry, swap)
