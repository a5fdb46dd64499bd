"""The curation flow of the app: every change is a plan previewed as a diff (a dialog), applied in
a worker through the journaled write path only if the user confirms, then shown as the source's
next snapshot; a plan whose files change on disk while it is shown (or that the write path
refuses as changed) is made again from the new snapshot, never applied over the change. The
screens ask for it by posting messages (`Propose`, `FixFindings`, `Promote`, `EditKeywords`).
A mixin of `CuratorApp`: `self` is the app."""

from __future__ import annotations

from textual import work

from . import messages as msg


def planned(widget, fn, *args, **kwargs):
    """`fn(*args, **kwargs)` — a plan, or what a plan is made from — or None after telling the
    user why it could not be made (a CurationError)."""
    from ..curation import CurationError

    try:
        return fn(*args, **kwargs)
    except CurationError as exc:
        widget.notify(str(exc), severity="error", timeout=8, markup=False)
        return None


class CurationFlow:
    _proposal = None  # (plan, dialog, replan, then_open, root) while a plan is previewed
    _open_after_load: str | None = None

    def propose(self, plan, then_open: str | None = None, replan=None, root=None) -> None:
        """Show a plan's diff; apply it (in a worker) only if the user confirms; then show
        `then_open` (e.g. the memory a promote made). `replan(workspace)` makes the plan again
        from a newer snapshot: when a file it changes is modified on disk while the diff is
        shown, the plan is made again (and the user told), never applied over the change.
        `root`: a plan of the repository's instruction files, journaled there (not the store's)."""
        from .dialogs import DiffDialog

        if self.read_only and root is None:
            from ..reports.escape import visible

            spec = self.session.sources[self.session.current].spec
            self.notify(visible(spec.why) if spec.why else "This source is read-only (it lives outside the repository)",
                        severity="warning", markup=False)
            return
        if plan is None:
            return
        if plan.empty:
            self.notify("nothing to change", timeout=3)
            return
        dialog = DiffDialog(plan, prefix=self.store_prefix() if root is None else "",
                            store=None if root is not None else self.store_label())
        self._proposal = (plan, dialog, replan, then_open, root)

        def decided(ok: bool | None) -> None:
            if self._proposal is not None and self._proposal[1] is dialog:
                self._proposal = None
            if ok and root is not None:
                self.apply_in_repository(plan, root, replan)
            elif ok:
                self.apply_plan(plan, then_open, replan)

        self.push_screen(dialog, decided)

    def store_prefix(self) -> str:
        """The current store's folder in its repository (`.serena/memories/`): a diff's paths
        after it are repository-relative."""
        from ..live.scope import prefix_of

        session = self.session
        if session is None or not session.sources:
            return ""
        return prefix_of(session.sources[session.current].spec, bool(getattr(session.layout, "single", False)))

    def store_label(self) -> str | None:
        """The memory system a write lands in, in words (`.serena/memories (Serena, tiered …)`)."""
        session = self.session
        if session is None or not session.sources:
            return None
        src = session.sources[session.current]
        name = src.name if src.name not in (".", "") else (self.given or src.root.name)
        return f"{name} ({src.spec.label})"

    def plan_from(self, make, then_open: str | None = None) -> None:
        """Plan with `make(workspace)` on the current snapshot and propose it (made again by
        the same function if a file it changes is modified outside while it is shown)."""
        if self.workspace is None:
            return
        plan = self.plan_or_notify(make, self.workspace)
        self.propose(plan, then_open, make)

    def _replan_if_touched(self, paths, why: str = "changed on disk", root=None) -> None:
        """`paths`: relative to the current store (`root` None) or to the repository `root`."""
        proposal = self._proposal
        if proposal is None or not paths or proposal[4] != root:
            return
        plan, dialog, replan, then_open, root = proposal
        hit = sorted({e.path for e in plan.edits} & set(paths))
        if not hit:
            return
        self._proposal = None
        if dialog.is_attached and self.screen is dialog:
            dialog.dismiss(None)
        self._replan(hit, replan, then_open, why, root)

    def _replan(self, hit, replan, then_open, why: str, root=None) -> None:
        names = ", ".join(hit[:3]) + (f" and {len(hit) - 3} more" if len(hit) > 3 else "")
        if replan is None or (self.workspace is None and root is None):
            self.notify(f"{names} {why}; nothing was written — make the change again", severity="warning",
                        timeout=10, markup=False)
            return
        self.notify(f"{names} {why}; the plan was made again from what is on disk now", severity="warning",
                    timeout=10, markup=False)
        self.propose(self.plan_or_notify(replan, self.workspace), then_open, replan, root)

    def plan_or_notify(self, fn, *args, **kwargs):
        return planned(self, fn, *args, **kwargs)

    @work(thread=True, exclusive=True, exit_on_error=False, group="write")
    def apply_plan(self, plan, then_open: str | None = None, replan=None) -> None:
        session = self.session
        index = session.current
        done = self.recover_before(session.sources[index].root, plan.kind)
        if done is None:
            return
        try:
            self._apply_replanning(session, index, plan, then_open, replan)
        finally:
            self.tell_recovered(done)  # after the outcome: entries set aside are never silent

    def _apply_replanning(self, session, index, plan, then_open, replan) -> None:
        from ..curation import ChangedOnDisk, CurationError
        from ..curation.replan import PlanChanged, apply_replanning

        def fresh(paths):  # the snapshot as it is now (shown too, as the watcher would)
            swap = session.recheck(index, paths)
            if swap is not None:
                self.tell(msg.Swapped([swap]))
            return session.sources[index].workspace

        try:  # a file changed since the plan: made again; the same changes applied (issue 20)
            (jid, swap), plan = apply_replanning(session.sources[index].root, session.apply, plan, fresh, replan)
        except PlanChanged as exc:  # different changes: the new diff (from the snapshot now shown), for approval
            self.tell(msg.Refused(None, [exc.path], replan, then_open))
            return
        except ChangedOnDisk as exc:  # edited outside since the plan was made: never overwritten
            changed = session.recheck(index, [e.path for e in plan.edits])
            self.tell(msg.Refused(changed, [getattr(exc, "path", str(exc))], replan, then_open))
            return
        except (CurationError, OSError) as exc:
            self.tell(msg.Notice(f"Nothing was written: {exc}", severity="error", timeout=10, markup=False))
            return
        self.tell(msg.Notice(f"{plan.title} — applied as {jid}; ctrl+z undoes it", timeout=6, markup=False))
        self.tell(msg.Applied(swap, then_open))

    def on_applied(self, message: msg.Applied) -> None:
        self._open_after_load = message.then_open
        self._swapped([message.swap] if message.swap is not None else [])
        self._open_pending()

    def on_refused(self, message: msg.Refused) -> None:
        if message.swap is not None:
            self._swapped([message.swap])
        self._replan([str(h) for h in message.hit], message.replan, message.then_open,
                     "changed on disk after the plan was made", message.root)

    def _open_pending(self) -> None:
        path, self._open_after_load = self._open_after_load, None
        if path and self.workspace is not None and path in self.workspace.store.records:
            self.open_path(path)

    @work(thread=True, exclusive=True, exit_on_error=False, group="write")
    def action_undo(self) -> None:
        from ..curation import CurationError
        from ..reports.escape import visible

        try:  # the newest of the store's and the repository's operations
            entry, swap = self.undo_newest()
        except (CurationError, OSError) as exc:
            self.tell(msg.Notice(visible(str(exc)), severity="warning", timeout=6, markup=False))
            for note in getattr(exc, "notes", []):  # entries set aside or left alone: named, never silent
                self.tell(msg.Notice(visible(note), severity="warning", timeout=10, markup=False))
            return
        self.tell_undone(entry, swap)

    def tell_undone(self, entry, swap) -> None:
        """What an undo did, said: the operation, what recovery put back first, entries set aside."""
        from ..reports.escape import visible

        self.tell_recovered(getattr(entry, "recovered", None))
        self.tell(msg.Notice(f"undone: {visible(str(entry.meta.get('title')))}", timeout=5, markup=False))
        self.tell_recovered(None, entry.notes)
        if swap is not None:
            self.tell(msg.Swapped([swap]))

    def tell_recovered(self, recovered, notes=None) -> None:
        """What recovery did before a write, said: each interrupted operation rolled back (and
        the files it put back), each journal entry set aside or left alone — never silent."""
        from ..reports.escape import visible

        if recovered:
            back = ", ".join(map(visible, getattr(recovered, "restored", []))) or "its files"
            self.tell(msg.Notice(f"recovered an interrupted operation ({', '.join(recovered)}): {back} put back",
                                 severity="warning", timeout=10, markup=False))
        for note in getattr(recovered, "notes", []) if notes is None else notes:
            self.tell(msg.Notice(visible(note), severity="warning", timeout=10, markup=False))

    def recover_before(self, root, kind: str):
        """Recover `root`'s journal (of `kind`) before applying, as the CLI's `fix` does (inside
        `apply_plan` it would be silent): what it did, to say after the outcome (one toast at a
        time: the last one stays). None (said) when it cannot."""
        from ..curation import CurationError, recover

        try:
            return recover(root, kind)
        except (CurationError, OSError) as exc:
            self.tell(msg.Notice(f"Nothing was written: {exc}", severity="error", timeout=10, markup=False))
            return None

    def action_history(self) -> None:
        from .dialogs import HistoryDialog

        self.push_screen(HistoryDialog(*self.history_items()), self.review_unverifiable)

    def action_tiers(self) -> None:
        from ..model.tiering import decide
        from ..reports.tiers_report import tiers_json
        from .dialogs import TiersDialog

        if self.workspace is not None:
            store = self.workspace.store
            self.push_screen(TiersDialog(tiers_json(store, decide(store))))

    def action_prune(self) -> None:
        from ..curation import plan_prune_paths
        from .dialogs import PruneDialog

        ws = self.workspace
        if ws is None:
            return

        def chosen(choice) -> None:
            if choice is not None:
                self.plan_from(lambda w: plan_prune_paths(w.store, choice.paths, choice.archive))

        self.push_screen(PruneDialog(ws.store), chosen)

    def action_refresh_counts(self) -> None:
        from ..curation import plan_refresh

        self.plan_from(lambda w: plan_refresh(w.store, w.findings))

    def fix_findings(self, findings, safe_only: bool = False) -> None:
        from ..curation import plan_fixes
        from .repository_flow import is_instruction

        if findings and all(is_instruction(f) for f in findings):  # the repository's files, not the store's
            self.fix_instructions(findings)
            return
        findings = [f for f in findings if not is_instruction(f)]

        checks = None if safe_only else {f.check for f in findings}  # picked findings opt in to their fixes
        picked = {(f.check, f.path, f.target) for f in findings}

        def make(w):
            # made again on a newer snapshot: the same findings as they are there now
            now = [f for f in w.findings if (f.check, f.path, f.target) in picked] if w is not first else findings
            return plan_fixes(w.store, now, checks, counter=w.store.counter)

        first = self.workspace
        self.plan_from(make)

    def action_fix_all(self) -> None:
        """Every finding of the current memory system that has a fix, in one preview — the safe
        fixes and the ones `curator fix` plans only when asked (`--check ID`), the preview
        saying which are which: applying it is the confirmation."""
        from collections import Counter

        from ..curation import plan_fixes
        from ..curation.fix import is_safe
        from .repository_flow import is_instruction

        ws = self.workspace
        if ws is None:
            return
        fixable = [f for f in ws.findings if f.fix is not None and not is_instruction(f)]
        if not fixable:
            self.notify("no finding of this memory system has a fix (Problems lists what to do by hand)", timeout=5)
            return
        picked = {(f.check, f.path, f.target) for f in fixable}

        def make(w):
            now = [f for f in w.findings if (f.check, f.path, f.target) in picked and f.fix is not None]
            plan = plan_fixes(w.store, now, {f.check for f in now}, counter=w.store.counter)
            asked = Counter(f.check for f in now if not is_safe(w.store, f))
            safe = len(now) - sum(asked.values())
            said = [f"{safe} safe fix(es) (`curator fix` applies them unasked)"] if safe else []
            if asked:
                said.append("need your confirmation — they change what the agent retrieves (`curator fix --check "
                            "ID`): " + ", ".join(f"{c} ×{n}" for c, n in sorted(asked.items())))
            plan.notes = said + plan.notes
            return plan

        self.plan_from(make)

    def promote(self, path: str) -> None:
        from ..curation import plan_promote
        from .dialogs import PromoteDialog

        ws = self.workspace
        if ws is None:
            return
        rec = ws.store.records.get(path)
        if rec is None or rec.tier not in ("transient", "reflexion") or rec.level != 2:
            self.notify("Pick a transient or reflexion record to promote", severity="warning")
            return

        def planner(choice):
            return plan_promote(ws.store, path, choice.dest, choice.index, choice.keywords,
                                choice.source_action, counter=ws.store.counter)

        def chosen(choice) -> None:
            if choice is not None and choice.plan is not None:
                made = [e.path for e in choice.plan.edits if e.action == "create" and not e.path.startswith(".curator/")]

                def again(w):
                    return plan_promote(w.store, path, choice.dest, choice.index, choice.keywords,
                                        choice.source_action, counter=w.store.counter)

                self.propose(choice.plan, then_open=made[0] if made else None, replan=again)

        self.push_screen(PromoteDialog(ws.store, path, planner), chosen)

    def edit_keywords(self, index: str, line: int) -> None:
        from ..curation import plan_keywords
        from ..curation.keywords import RowRef, keyword_rows
        from .dialogs import KeywordDialog

        ws = self.workspace
        rows = keyword_rows(ws.store, index) if ws else None
        if rows is None:  # MEMORY.md, a plain index, a README: every line is read, none routes by keywords
            self.notify(f"{index} routes by no keywords (its agent reads every line): Enter opens the row's "
                        "file; edit the line itself in your editor", severity="information", timeout=6)
            return
        row = next((r for r in rows if r.line == line), None)
        if row is None or not row.links:
            self.notify(f"{index}:{line} links no memory: edit it by hand", severity="warning")
            return
        target = row.links[0].target
        chosen_row = RowRef(index, line, row.raw)  # this row, not the first one for its target

        def chosen(keywords) -> None:
            if keywords:
                self.plan_from(lambda w: plan_keywords(w.store, index, target, keywords, row=chosen_row))

        self.push_screen(KeywordDialog(ws.store, index, line, target, row.keywords), chosen)

    # -- what the screens ask for ----------------------------------------------------------

    def on_propose(self, message: msg.Propose) -> None:
        self.propose(message.plan)

    def on_fix_findings(self, message: msg.FixFindings) -> None:
        self.fix_findings(message.findings, message.safe_only)

    def on_promote(self, message: msg.Promote) -> None:
        self.promote(message.path)

    def on_edit_keywords(self, message: msg.EditKeywords) -> None:
        self.edit_keywords(message.index, message.line)
