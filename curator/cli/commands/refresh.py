"""`curator refresh`: rewrite only the stale L0 `(N)` token counts."""

from __future__ import annotations

NAME = "refresh"
ORDER = 44
HELP = "refresh stale L0 token counts (only the stale rows change)"


def add_arguments(parser) -> None:
    from ..curate import add_write_args

    add_write_args(parser)


def run(args) -> int:
    from ...checks import run_checks
    from ...curation import plan_refresh
    from ..curate import finish, planning, writing_session

    with writing_session(args) as store:  # locked from before the load to after the write
        def make(s):  # planned again from the files as they are if one changes before the write
            return plan_refresh(s, run_checks(s, {"tokens.stale-count"}))

        return finish(args, store, planning(make, store), make)
