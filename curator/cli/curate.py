"""What every writing command shares: --dry-run, showing the plan's diff, applying, JSON."""

from __future__ import annotations

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


def finish(args, store, plan) -> int:
    """Print the plan, apply it unless --dry-run, report in text or JSON."""
    from ..curation import CurationError, apply_plan

    journal_id = None
    if plan.empty:  # nothing to do is a clean result, not a usage error
        if args.format == "json":
            data = plan.to_json()
            data.update({"dry_run": args.dry_run, "applied": False, "journal": None})
            print_json(data)
        else:
            console().print(f"nothing to do: {plan.title}")
        return EXIT_OK
    if not args.dry_run:
        try:
            journal_id = apply_plan(store.root, plan)
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
            out.print(f"[green]applied[/] as {journal_id} · undo with [bold]curator undo[/]")
        else:
            out.print("[yellow]dry run[/]: nothing was written")
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
    from ..curation import recover

    done = recover(root)
    if done:
        from .common import err_console

        err_console().print(f"[yellow]recovered[/] an interrupted operation ({', '.join(done)}): rolled back")
