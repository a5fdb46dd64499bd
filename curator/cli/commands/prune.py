"""`curator prune`: archive (or delete) transient records past their TTL or beyond a count."""

from __future__ import annotations

NAME = "prune"
ORDER = 42
HELP = "prune or archive records past their tier's TTL (--older-than 14d), beyond a count (--keep N) or unread (--unused-for 90d)"


def _days(text: str) -> int:
    import argparse

    t = text.strip().lower()
    units = {"d": 1, "w": 7, "m": 30, "y": 365}
    try:
        days = int(t[:-1]) * units[t[-1]] if t[-1] in units else int(t)
    except (ValueError, IndexError):
        raise argparse.ArgumentTypeError(f"{text!r} is not an age like 14d, 3w or 30") from None
    if not 0 <= days <= MAX_DAYS:
        raise argparse.ArgumentTypeError(f"{text!r}: an age is 0 to {MAX_DAYS:,} days")
    return days


MAX_DAYS = 36_500  # a century: older dates cannot be told apart from "no date" anyway


def _count(text: str) -> int:
    import argparse

    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= n <= 10_000_000:
        raise argparse.ArgumentTypeError(f"{text!r}: keep 0 or more records")
    return n


def add_arguments(parser) -> None:
    from ..curate import add_write_args
    from ..sessions_support import add_projects_arg

    parser.add_argument("--tier", default="transient", choices=("transient", "reflexion", "semantic"),
                        help="tier to prune (default: transient)")
    parser.add_argument("--older-than", type=_days, metavar="AGE", help="older than this (14d, 3w, 2m); default: the tier's TTL")
    parser.add_argument("--keep", type=_count, metavar="N", help="keep only the newest N records")
    parser.add_argument("--unused-for", type=_days, metavar="AGE",
                        help="records the agent's sessions have not read in this long (90d), by its transcripts")
    parser.add_argument("--include-semantic", action="store_true",
                        help="with --unused-for --tier semantic: allow pruning unread semantic memories")
    add_projects_arg(parser)
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--archive", action="store_true", help="archive into .curator/archive (the default)")
    how.add_argument("--delete", action="store_true", help="delete instead of archiving (undo still restores them)")
    add_write_args(parser)


def run(args) -> int:
    from ...curation import plan_prune
    from ..curate import finish, planning, writing_session

    with writing_session(args) as store:  # locked from before the load to after the write
        if args.unused_for is not None:
            return finish(args, store, _unused_plan(args, store))

        def make(s):  # planned again from the files as they are if one changes before the write
            return plan_prune(s, args.tier, args.older_than, args.keep, not args.delete)

        return finish(args, store, planning(make, store), make)


def _unused_plan(args, store):
    from ...curation import plan_prune_paths
    from ...curation.prune import unused_candidates
    from ..common import UsageError
    from ..curate import planning
    from ..sessions_support import store_usage

    if args.older_than is not None or args.keep is not None:
        raise UsageError("--unused-for is not combined with --older-than or --keep")
    usage, index = store_usage(store, args)
    if not usage.has_evidence:
        raise UsageError(f"no Claude Code sessions found for {index.discovery.repo}: "
                         "without transcripts nothing can be called unused")
    last = {p: u.last for p, u in usage.by_path.items()}
    paths = planning(unused_candidates, store, last, args.unused_for, args.tier, args.include_semantic)
    return planning(plan_prune_paths, store, paths, not args.delete)
