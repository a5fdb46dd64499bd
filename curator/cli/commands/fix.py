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
    from ..common import UsageError, open_store
    from ..curate import finish, planning, recover_first

    checks = {c for item in (args.check or []) for c in item.split(",") if c} or None
    unknown = sorted((checks or set()) - set(CHECKS))
    if unknown:
        raise UsageError(f"unknown check id: {', '.join(unknown)}")
    store, _ = open_store(args, quiet_notice=True)
    recover_first(store.root)
    plan = planning(plan_fixes, store, run_checks(store), checks, counter=store.counter)
    return finish(args, store, plan)
