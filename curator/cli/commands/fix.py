"""`curator fix [--check ID ...]`: apply the fixes the checks suggest, as one undoable plan."""

from __future__ import annotations

NAME = "fix"
ORDER = 41
HELP = ("fix drift; unasked only the safe fixes (re-point a renamed row or link, refresh a count, merge a duplicate "
        "row, list a Claude Code topic file, quote frontmatter); name a check to opt in to others (orphans: one index "
        "at a time; drafted frontmatter; MEMORY.md sections past the cap into topic files); instruction files with --check instructions.import-broken, "
        "instructions.string-bool or instructions.foreign-keys (journaled at the repository root: "
        "`curator undo --repository`)")


def add_arguments(parser) -> None:
    from ..curate import add_write_args

    parser.add_argument("--check", nargs="+", metavar="ID",
                        help="fixes of these check ids (default: only the safe fixes of any check)")
    parser.add_argument("--index", metavar="INDEX", help="with --check orphan.unindexed: the domain index to add rows to")
    parser.add_argument("--insist", action="store_true",
                        help="keep fixes that would add a finding, each shown as a trade-off (default: drop them)")
    add_write_args(parser)


def _fix_instructions(args, checks: set[str]) -> int:
    """Instruction files are the repository's, not a store's: the plan's root (and its journal,
    `<repo>/.curator/`) is the repository (`curator undo --repository` takes it back)."""
    from ...checks.registry import INSTRUCTION_IDS
    from ...curation import CurationError, writing
    from ...curation.instruction_fixes import FIXABLE, plan_instruction_fixes
    from ..common import UsageError, store_argument
    from ..curate import finish, planning, report_recovery
    from .context import repository_root

    if checks - INSTRUCTION_IDS:
        raise UsageError("fix instruction-file checks and memory-store checks in separate runs "
                         f"({', '.join(sorted(checks - INSTRUCTION_IDS))} is a store's)")
    if not checks & FIXABLE:
        raise UsageError(f"no automatic fix for {', '.join(sorted(checks))} (fixable: {', '.join(sorted(FIXABLE))})")
    from ...base.trust import REPOSITORY

    root = repository_root(store_argument(args))
    try:
        with writing(root, dry_run=args.dry_run, kind=REPOSITORY) as done:
            report_recovery(done)
            plan = planning(plan_instruction_fixes, root, checks)
            return finish(args, None, plan, root=root)
    except CurationError as exc:
        raise UsageError(str(exc)) from None


def run(args) -> int:
    from ...checks import CHECKS, run_checks
    from ...curation import plan_fixes
    from ..common import UsageError
    from ..curate import finish, planning, writing_session

    checks = {c for item in (args.check or []) for c in item.split(",") if c} or None
    unknown = sorted((checks or set()) - set(CHECKS))
    if unknown:
        raise UsageError(f"unknown check id: {', '.join(unknown)}")
    from ...checks.registry import INSTRUCTION_IDS

    if checks and checks & INSTRUCTION_IDS:  # the repository's instruction files, not a store
        return _fix_instructions(args, checks)
    with writing_session(args) as store:  # locked from before the load to after the write
        if args.index and args.index not in store.domain_indexes:
            raise UsageError(f"{args.index} is not a domain index of this store")
        def make(s):  # planned again from the files as they are if one changes before the write
            return plan_fixes(s, run_checks(s), checks, counter=s.counter, index=args.index, insist=args.insist)

        return finish(args, store, planning(make, store), make)
