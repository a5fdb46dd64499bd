"""Plan again instead of refusing: when a file changed between the plan and the write, make the
plan again from the files as they are now; the same changes (an edit elsewhere in the file) are
applied, different ones are handed back to be shown (`PlanChanged`). The CLI and the app both
write through `apply_replanning`."""

from __future__ import annotations

import time
from collections.abc import Callable

from .merge import NO_MERGE, rebase
from .plan import ChangedOnDisk, CurationError, FileEdit, Plan, same_changes
from .swap import Conflict, current_bytes

ATTEMPTS = 30  # a file edited faster than curator can write it is refused after this many tries ...
PATIENCE = 10.0  # ... or this many seconds


class PlanChanged(CurationError):
    """Planned again after a change on disk, the plan is no longer the one shown: `plan` is."""

    def __init__(self, path: str, plan: Plan) -> None:
        super().__init__(f"{path} changed on disk since the plan was made; planned again, the changes differ: "
                         "nothing was written")
        self.path, self.plan = path, plan


def rebased(root, plan: Plan) -> Plan | None:
    """`plan`'s own changes put onto each file as it is now (a clean line-based three-way merge
    with what someone else wrote meanwhile), or None when an edit touches the lines the plan
    changes, or creates or deletes one of its files."""
    edits = []
    for e in plan.edits:
        now = current_bytes(root, e.path)
        if now == e.before:
            edits.append(e)
            continue
        merged = rebase(e.before, now, e.after) if None not in (e.before, now, e.after) else NO_MERGE
        if merged is NO_MERGE:
            return None
        edits.append(FileEdit(e.path, now, merged))
    return Plan(plan.operation, plan.title, edits, list(plan.notes), plan.kind)


def apply_replanning(root, apply: Callable[[Plan], object], plan: Plan, fresh: Callable[[list[str]], object] | None,
                     replan: Callable[[object], Plan] | None, attempts: int = ATTEMPTS):
    """(what `apply` returned, the plan applied). When a file changed since `plan` was made:
    plan again (`fresh(paths)` is the snapshot after those store-relative paths changed on disk,
    `replan(snapshot)` the plan made from it) and apply that if it makes the same changes; when
    the files change faster than planning, put the plan's own changes onto them (`rebased`).
    Raises PlanChanged when the changes differ, ChangedOnDisk when nothing keeps up, Conflict as
    `apply` does."""
    shown, paths = plan, {e.path for e in plan.edits}
    give_up = time.monotonic() + PATIENCE
    for tries in range(1, attempts + 1):
        try:
            return apply(plan), plan
        except Conflict:
            raise
        except ChangedOnDisk as exc:
            if tries == attempts or time.monotonic() > give_up:
                raise
            paths.add(exc.path)
            again = None
            if replan is not None and fresh is not None and tries <= 2:
                try:
                    again = replan(fresh(sorted(paths)))
                except ChangedOnDisk as busy:  # edited again while planning
                    paths.add(busy.path)
                except CurationError as why:  # e.g. someone else made the change already
                    raise CurationError(f"{exc.path} changed on disk since the plan was made; planned again: {why}; "
                                        "nothing was written") from None
                if again is not None and not same_changes(again, shown):
                    raise PlanChanged(exc.path, again) from None
            if again is None:
                again = rebased(root, plan)
            if again is None:
                raise
            plan = again
    raise AssertionError("unreachable")
