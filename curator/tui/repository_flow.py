"""Fixes of the repository's instruction files (CLAUDE.md imports, rule frontmatter) from the
app, as `curator fix --check instructions.*` makes them: planned from the files on disk, shown
as a diff, applied through the journal at the repository root; ctrl+z and the history cover
that journal beside the store's (`curator undo --repository`). A mixin of `CuratorApp`."""

from __future__ import annotations

from pathlib import Path

from textual import work

from . import messages as msg


def is_instruction(finding) -> bool:
    from ..checks.registry import INSTRUCTION_IDS

    return finding.check in INSTRUCTION_IDS


class RepositoryFixes:
    def repository_root(self) -> Path | None:
        """The repository the instruction files were read from (None before they were)."""
        model = self.context_model
        return Path(model.root) if model is not None else None

    def journals(self) -> list[tuple[str, Path]]:
        """(name, root) of every journal the app writes: the current store's, the repository's."""
        from ..curation.journals import distinct

        session = self.session
        store = Path(session.sources[session.current].root) if session is not None and session.workspace else None
        return distinct([("store", store), ("repository", self.repository_root())])

    def fix_instructions(self, findings) -> None:
        """Plan the fixes of these instruction findings (all of a check's, or the one picked)."""
        from ..curation.instruction_fixes import picked, plan_instruction_fixes

        root, model = self.repository_root(), self.context_model
        if root is None:
            return
        checks = {f.check for f in findings}
        only = {picked(f) for f in findings}

        def make(_workspace=None):  # from the files as they are now, each time
            return plan_instruction_fixes(root, checks, only=only, env=model.env or None, home=model.home or None)

        self.propose(self.plan_or_notify(make), replan=make, root=root)

    @work(thread=True, exclusive=True, exit_on_error=False, group="write")
    def apply_in_repository(self, plan, root: Path, replan) -> None:
        done = self.recover_before(root, plan.kind)  # entries set aside first are named, as `fix` names them
        if done is None:
            return
        try:
            self._apply_in_repository(plan, root, replan)
        finally:
            self.tell_recovered(done)

    def _apply_in_repository(self, plan, root: Path, replan) -> None:
        from ..curation import ChangedOnDisk, CurationError, apply_plan

        try:
            jid = apply_plan(root, plan)
        except ChangedOnDisk as exc:  # edited outside since the plan was made: never overwritten
            self.tell(msg.Refused(None, [getattr(exc, "path", str(exc))], replan, None, root))
            return
        except (CurationError, OSError) as exc:
            self.tell(msg.Notice(f"Nothing was written: {exc}", severity="error", timeout=10, markup=False))
            return
        self.tell(msg.Notice(f"{plan.title} — applied as {jid}; ctrl+z undoes it", timeout=6, markup=False))
        self.tell(msg.InstructionsChanged([root / e.path for e in plan.edits]))  # the model, built again

    def undo_newest(self):
        """Undo the newest applied operation of any journal (on a worker's thread): (entry,
        store swap or None); the repository's journal rebuilds the instruction files' model."""
        from ..base.trust import REPOSITORY
        from ..curation import NothingToUndo, undo
        from ..curation.journals import newest_applied

        journals = self.journals()
        hit = newest_applied(journals)
        session = self.session
        if hit is None:  # nothing of this user's applied: set aside what is not theirs, and say so
            from ..curation.journals import kind_of

            notes = []
            for name, root in journals:
                try:
                    undo(root, kind_of(name))
                except NothingToUndo as exc:
                    notes += exc.notes
            raise NothingToUndo(notes)
        if hit[0] == "store" and session is not None:
            entry, swap = session.undo()
            repo = self.repository_root()
            if repo is not None and hit is not None and hit[1].resolve() == repo.resolve():
                self.tell(msg.InstructionsChanged([]))  # the store's journal is the repository's
            return entry, swap
        entry = undo(hit[1], REPOSITORY)
        self.tell(msg.InstructionsChanged([hit[1] / f["path"] for f in entry.meta.get("files", [])]))
        return entry, None

    def history_items(self) -> tuple[list[dict], str]:
        """Every journal's operations, and what they were made on (the history dialog's words)."""
        from ..curation import history
        from ..curation.journals import kind_of, merged_history

        journals = self.journals()
        if len(journals) > 1:
            return merged_history(journals), "this store and the repository's instruction files"
        name, root = journals[0] if journals else ("store", self.store_root)
        items = [dict(it, where=name) for it in history(root, kind_of(name))]
        return items, "this store" if name == "store" else "the repository's instruction files"

    def review_unverifiable(self, item: dict | None) -> None:
        """The history dialog's choice: an entry written before journal entries were sealed. Show
        what undoing it would restore; only if the person applies that diff is it undone (and
        from then on theirs)."""
        from ..curation import CurationError
        from ..curation.journals import kind_of
        from ..curation.undo import preview_entry
        from .dialogs import DiffDialog

        if not item:
            return
        root = dict(self.journals()).get(item.get("where", "store"))
        kind = kind_of(item.get("where", "store"))
        if root is None:
            return
        try:
            _entry, plan = preview_entry(root, kind, item["id"])
        except (CurationError, OSError) as exc:
            self.notify(f"Not undone: {exc}", severity="warning", timeout=8, markup=False)
            return

        def decided(ok: bool | None) -> None:
            if ok:
                self.undo_named(item["id"], item.get("where", "store"), root)

        self.push_screen(DiffDialog(plan), decided)

    @work(thread=True, exclusive=True, exit_on_error=False, group="write")
    def undo_named(self, entry_id: str, where: str, root: Path) -> None:
        from ..curation import CurationError, undo
        from ..curation.journals import kind_of

        try:
            if where == "store" and self.session is not None:
                entry, swap = self.session.undo(entry_id=entry_id)
            else:
                entry, swap = undo(root, kind_of(where), entry_id), None
                self.tell(msg.InstructionsChanged([root / f["path"] for f in entry.meta.get("files", [])]))
        except (CurationError, OSError) as exc:
            self.tell(msg.Notice(f"Not undone: {exc}", severity="warning", timeout=8, markup=False))
            return
        self.tell_undone(entry, swap)
