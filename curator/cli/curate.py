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
    from rich.text import Text

    out.print(Text(plan.title, style="bold"))
    for line in plan.diff().splitlines():
        if line.startswith(("+++", "---")):
            style = "bold"
        elif line.startswith("+"):
            style = "green"
        elif line.startswith("-"):
            style = "red"
        elif line.startswith("@@"):
            style = "cyan"
        elif line.startswith("rename "):
            style = "yellow"
        else:
            style = "dim"
        out.print(Text(line, style=style), soft_wrap=True)  # like git diff: long lines are not re-flowed
    for note in plan.notes:
        out.print(Text(f"note: {note}", style="dim"))


def finish(args, store, plan) -> int:
    """Print the plan, apply it unless --dry-run, report in text or JSON."""
    from ..curation import CurationError, apply_plan

    journal_id = None
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
    """Run a planner, turning refusals into one-line usage errors."""
    from ..curation import CurationError

    try:
        return fn(*a, **kw)
    except CurationError as exc:
        raise UsageError(str(exc)) from None


def recover_first(root) -> None:
    from ..curation import recover

    done = recover(root)
    if done:
        from .common import err_console

        err_console().print(f"[yellow]recovered[/] an interrupted operation ({', '.join(done)}): rolled back")
