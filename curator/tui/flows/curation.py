"""The curation flow: every change is a plan previewed as a diff, applied off the UI thread
through the journaled write path only if the person confirms, then shown as the source's next
snapshot; a plan whose files change on disk while it is shown (or that the write path refuses as
changed) is made again from the new snapshot, never applied over the change. The app owns one
`Curation` and talks to it through `flows.port.Port`; no Textual here."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from ...curation.plan import Plan


def planned(widget, fn, *args, **kwargs):
    """`fn(*args, **kwargs)` — a plan, or what a plan is made from — or None after telling the
    user why it could not be made (a CurationError)."""
    from ...curation import CurationError

    try:
        return fn(*args, **kwargs)
    except CurationError as exc:
        widget.notify(str(exc), severity="error", timeout=8, markup=False)
        return None


def tell_recovered(port, recovered, notes=None) -> None:
    """What recovery did before a write (from a worker's thread), said: each interrupted operation
    rolled back (and the files it put back), each journal entry set aside or left alone — never silent."""
    from ...reports.escape import visible

    if recovered:
        back = ", ".join(map(visible, getattr(recovered, "restored", []))) or "its files"
        port.later(port.notify, f"recovered an interrupted operation ({', '.join(recovered)}): {back} put back",
                   severity="warning", timeout=10, markup=False)
    for note in getattr(recovered, "notes", []) if notes is None else notes:
        port.later(port.notify, visible(note), severity="warning", timeout=10, markup=False)


class Proposal(NamedTuple):
    """A plan whose diff is shown: what shows it, how to make it again from a newer snapshot,
    the file to open once applied, and the repository it is of (None: the current store)."""

    plan: Plan
    shown: object
    replan: Callable | None
    then_open: str | None
    root: Path | None


class Curation:
    """plan → diff → apply → re-plan, for the current store and the repository's instruction files."""

    def __init__(self, port) -> None:
        self.port = port
        self.proposal: Proposal | None = None  # while a plan is previewed
        self.open_after_load: str | None = None  # the file to show once the written snapshot is

    def propose(self, plan, then_open: str | None = None, replan=None, root=None) -> None:
        """Show a plan's diff; apply it (in a worker) only if the user confirms; then show
        `then_open` (e.g. the memory a promote made). `replan(workspace)` makes the plan again
        from a newer snapshot: when a file it changes is modified on disk while the diff is
        shown, the plan is made again (and the user told), never applied over the change.
        `root`: a plan of the repository's instruction files, journaled there (not the store's)."""
        port = self.port
        if port.read_only and root is None:
            from ...reports.escape import visible

            spec = port.workbench.sources[port.workbench.current].spec
            port.notify(visible(spec.why) if spec.why else "This source is read-only (it lives outside the repository)",
                        severity="warning", markup=False)
            return
        if plan is None:
            return
        if plan.empty:
            port.notify("nothing to change", timeout=3)
            return
        box: list = []  # what is shown; `answered` once decided (a port may answer at once)
        answered: list = []

        def decided(ok: bool | None) -> None:
            answered.append(ok)
            if box and self.proposal is not None and self.proposal.shown is box[0]:
                self.proposal = None
            if ok and root is not None:
                port.in_background(self.apply_in_repository, plan, root, replan)
            elif ok:
                port.in_background(self.apply_plan, plan, then_open, replan)

        shown = port.show_diff(plan, decided, prefix=self.store_prefix() if root is None else "",
                               store=None if root is not None else self.store_label())
        box.append(shown)
        if not answered:
            self.proposal = Proposal(plan, shown, replan, then_open, root)

    def store_prefix(self) -> str:
        """The current store's folder in its repository (`.serena/memories/`): a diff's paths
        after it are repository-relative."""
        from ...live.scope import prefix_of

        bench = self.port.workbench
        if bench is None or not bench.sources:
            return ""
        return prefix_of(bench.sources[bench.current].spec, bool(getattr(bench.layout, "single", False)))

    def store_label(self) -> str | None:
        """The memory system a write lands in, in words (`.serena/memories (Serena, tiered …)`)."""
        bench = self.port.workbench
        if bench is None or not bench.sources:
            return None
        src = bench.sources[bench.current]
        name = src.name if src.name not in (".", "") else (self.port.given or src.root.name)
        return f"{name} ({src.spec.label})"

    def plan_from(self, make, then_open: str | None = None) -> None:
        """Plan with `make(workspace)` on the current snapshot and propose it (made again by
        the same function if a file it changes is modified outside while it is shown)."""
        if self.port.workspace is None:
            return
        plan = self.planned(make, self.port.workspace)
        self.propose(plan, then_open, make)

    def planned(self, fn, *args, **kwargs):
        return planned(self.port, fn, *args, **kwargs)

    def replan_if_touched(self, paths, why: str = "changed on disk", root=None) -> None:
        """`paths`: relative to the current store (`root` None) or to the repository `root`."""
        proposal = self.proposal
        if proposal is None or not paths or proposal.root != root:
            return
        plan, shown, replan, then_open, root = proposal
        hit = sorted({e.path for e in plan.edits} & set(paths))
        if not hit:
            return
        self.proposal = None
        self.port.withdraw(shown)
        self.replan(hit, replan, then_open, why, root)

    def replan(self, hit, replan, then_open, why: str, root=None) -> None:
        port = self.port
        names = ", ".join(hit[:3]) + (f" and {len(hit) - 3} more" if len(hit) > 3 else "")
        if replan is None or (port.workspace is None and root is None):
            port.notify(f"{names} {why}; nothing was written — make the change again", severity="warning",
                        timeout=10, markup=False)
            return
        port.notify(f"{names} {why}; the plan was made again from what is on disk now", severity="warning",
                    timeout=10, markup=False)
        self.propose(self.planned(replan, port.workspace), then_open, replan, root)

    # -- the writes: on a worker's thread, their results back on the UI thread (port.later) ----

    def apply_plan(self, plan, then_open: str | None = None, replan=None) -> None:
        bench = self.port.workbench
        index = bench.current
        done = self.recover_before(bench.sources[index].root, plan.kind)
        if done is None:
            return
        try:
            self._apply_replanning(bench, index, plan, then_open, replan)
        finally:
            tell_recovered(self.port, done)  # after the outcome: entries set aside are never silent

    def _apply_replanning(self, bench, index, plan, then_open, replan) -> None:
        from ...curation import ChangedOnDisk, CurationError
        from ...curation.replan import PlanChanged, apply_replanning

        port = self.port

        def fresh(paths):  # the snapshot as it is now (shown too, as the watcher would)
            swap = bench.recheck(index, paths)
            if swap is not None:
                port.later(port.refresh_views, [swap])
            return bench.sources[index].workspace

        try:  # a file changed since the plan: made again; the same changes applied (issue 20)
            (jid, swap), plan = apply_replanning(bench.sources[index].root, bench.apply, plan, fresh, replan)
        except PlanChanged as exc:  # different changes: the new diff (from the snapshot now shown), for approval
            port.later(self.refused, None, [exc.path], replan, then_open)
            return
        except ChangedOnDisk as exc:  # edited outside since the plan was made: never overwritten
            changed = bench.recheck(index, [e.path for e in plan.edits])
            port.later(self.refused, changed, [getattr(exc, "path", str(exc))], replan, then_open)
            return
        except (CurationError, OSError) as exc:
            port.later(port.notify, f"Nothing was written: {exc}", severity="error", timeout=10, markup=False)
            return
        port.later(port.notify, f"{plan.title} — applied as {jid}; ctrl+z undoes it", timeout=6, markup=False)
        port.later(self.applied, swap, then_open)

    def apply_in_repository(self, plan, root: Path, replan) -> None:
        """A plan of the instruction files, journaled at the repository root (`curator fix
        --check instructions.*` writes the same)."""
        done = self.recover_before(root, plan.kind)  # entries set aside first are named, as `fix` names them
        if done is None:
            return
        try:
            self._apply_in_repository(plan, root, replan)
        finally:
            tell_recovered(self.port, done)

    def recover_before(self, root, kind: str):
        """Recover `root`'s journal (of `kind`) before applying, as the CLI's `fix` does (inside
        `apply_plan` it would be silent): what it did, to say after the outcome (one toast at a
        time: the last one stays). None (said) when it cannot."""
        from ...curation import CurationError, recover

        try:
            return recover(root, kind)
        except (CurationError, OSError) as exc:
            self.port.later(self.port.notify, f"Nothing was written: {exc}", severity="error", timeout=10,
                            markup=False)
            return None

    def _apply_in_repository(self, plan, root: Path, replan) -> None:
        from ...curation import ChangedOnDisk, CurationError, apply_plan

        port = self.port
        try:
            jid = apply_plan(root, plan)
        except ChangedOnDisk as exc:  # edited outside since the plan was made: never overwritten
            port.later(self.refused, None, [getattr(exc, "path", str(exc))], replan, None, root)
            return
        except (CurationError, OSError) as exc:
            port.later(port.notify, f"Nothing was written: {exc}", severity="error", timeout=10, markup=False)
            return
        port.later(port.notify, f"{plan.title} — applied as {jid}; ctrl+z undoes it", timeout=6, markup=False)
        port.later(port.instructions_changed, [root / e.path for e in plan.edits])  # the model, built again

    def applied(self, swap, then_open: str | None) -> None:
        """A plan was written: show the new snapshot, then `then_open` if it names a file."""
        self.open_after_load = then_open
        self.port.refresh_views([swap] if swap is not None else [])
        self.open_pending()

    def refused(self, swap, hit: list, replan, then_open: str | None, root=None) -> None:
        """A plan was refused because a file it changes was edited outside: made again."""
        if swap is not None:
            self.port.refresh_views([swap])
        self.replan([str(h) for h in hit], replan, then_open, "changed on disk after the plan was made", root)

    def open_pending(self) -> None:
        path, self.open_after_load = self.open_after_load, None
        workspace = self.port.workspace
        if path and workspace is not None and path in workspace.store.records:
            self.port.open_path(path)
