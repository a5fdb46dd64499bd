"""`curator fix [--check ID ...]`: apply the fixes the checks suggest, as one undoable plan."""

from __future__ import annotations

NAME = "fix"
ORDER = 41
HELP = "fix drift: re-point renamed rows, drop dead rows, index orphans, route indexes, refresh counts"


def add_arguments(parser) -> None:
    from ..curate import add_write_args

    parser.add_argument("--check", nargs="+", metavar="ID", help="only fixes of these check ids")
    add_write_args(parser)


def run(args) -> int:
    from ...checks import CHECKS, run_checks
    from ...curation import plan_fixes
    from ..common import UsageError
    from ..curate import finish, planning, writing_session

    checks = {c for item in (args.check or []) for c in item.split(",") if c} or None
    unknown = sorted((checks or set()) - set(CHECKS))
    if unknown:
        raise UsageError(f"unknown check id: {', '.join(unknown)}")
    with writing_session(args) as store:  # locked from before the load to after the write
        plan = planning(plan_fixes, store, run_checks(store), checks, counter=store.counter)
        return finish(args, store, plan)
