"""What every writing command shares: --dry-run, showing the plan's diff, applying, JSON."""

from __future__ import annotations

from contextlib import contextmanager

from .common import EXIT_OK, UsageError, console, print_json


def add_write_args(parser, *, positional_store: bool = True) -> None:
    """What every writing command takes: the store, --format text|json and --dry-run."""
    from .common import add_format_arg, add_store_args

    add_store_args(parser, positional=positional_store)
    add_format_arg(parser, ("text", "json"))
    parser.add_argument("--dry-run", action="store_true", help="show the plan's diff and write nothing")


def render_diff(out, plan) -> None:
    from ..reports.diff_report import plan_renderable

    out.print(plan_renderable(plan), soft_wrap=True)  # like git diff: long lines are not re-flowed


def finish(args, store, plan, root=None) -> int:
    """Print the plan, apply it unless --dry-run, report in text or JSON (at `root`, else the store's)."""
    from rich.text import Text

    from ..curation import CurationError, apply_plan

    journal_id = None
    if plan.empty:  # nothing to do is a clean result, not a usage error
        if args.format == "json":
            data = plan.to_json()
            data.update({"dry_run": args.dry_run, "applied": False, "journal": None})
            print_json(data)
        else:
            console().print(f"nothing to do: {plan.title}", markup=False)
        return EXIT_OK
    if not args.dry_run:
        try:
            journal_id = apply_plan(root or store.root, plan)
        except CurationError as exc:
            raise UsageError(str(exc)) from None
    if args.format == "json":
        data = plan.to_json()
        data.update({"dry_run": args.dry_run, "applied": journal_id is not None, "journal": journal_id})
        print_json(data)
    else:
        out = console()
        render_diff(out, plan)
        if journal_id:
            out.print(Text.assemble(("applied", "success"), f" as {journal_id} · undo with ",
                                    ("curator undo" + (" --repository" if root else ""), "bold")))
        else:
            out.print(Text.assemble(("dry run", "warning"), ": nothing was written"))
    return EXIT_OK


def planning(fn, *a, **kw):
    """Run a planner, turning refusals into one-line usage errors (and "nothing to do" into an
    empty plan, which `finish` reports with exit 0)."""
    from ..curation import CurationError, NothingToDo, Plan

    try:
        return fn(*a, **kw)
    except NothingToDo as exc:
        return Plan(exc.operation, str(exc))
    except CurationError as exc:
        raise UsageError(str(exc)) from None


def recover_first(root) -> None:
    """Recover interrupted operations (kept for callers that hold no session)."""
    from ..curation import CurationError, recover

    try:
        report_recovery(recover(root))
    except CurationError as exc:
        raise UsageError(str(exc)) from None


def report_recovery(done) -> None:
    from rich.text import Text

    from .common import err_console

    if done:
        err_console().print(Text.assemble(("recovered", "warning"),
                                          f" an interrupted operation ({', '.join(done)}): rolled back"))
    for note in getattr(done, "notes", []):
        err_console().print(Text.assemble(("journal", "warning"), f": {note}"))


@contextmanager
def writing_session(args):
    """One writer from load to rename: take the store's lock, recover, then load the store the
    caller plans and applies from, all under the lock (a --dry-run takes a shared lock and
    writes nothing)."""
    from ..curation import CurationError, writing
    from .common import locate_and_configure, open_store

    located, _ = locate_and_configure(args)
    try:
        with writing(located.root, dry_run=getattr(args, "dry_run", False)) as done:
            report_recovery(done)
            store, _ = open_store(args, quiet_notice=True)
            yield store
    except CurationError as exc:
        raise UsageError(str(exc)) from None
