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


def render_diff(out, plan, store=None) -> None:
    """The plan's diff, its paths repository-relative (the store's folder first) and the store
    it writes to named; each line fitted to the terminal (`--format json` has the whole diff)."""
    from rich.text import Text

    from ..demo.sample_copy import in_private_copy
    from ..reports.diff_report import plan_renderable
    from ..reports.findings_report import print_indented

    prefix, name = store_place(store)
    if name:
        demo = " in the demo's private copy (never the sample curator ships)" if in_private_copy(store.root) else ""
        print_indented(out, Text.assemble(("writes to ", "dim"), (name, "bold"), (demo, "dim")), 0)
    out.print(plan_renderable(plan, prefix))


def store_place(store) -> tuple[str, str | None]:
    """(the store's folder in its repository with a slash, e.g. `.serena/memories/`; the store
    in words) — ("", None) for the repository's instruction files (no store)."""
    if store is None:
        return "", None
    import os

    from ..base.paths import store_repository

    repo = store_repository(store.root, store.repo_root, store.format)
    rel = os.path.relpath(os.path.realpath(store.root), os.path.realpath(repo)) if repo is not None else "."
    prefix = "" if rel in (".", "") or rel.startswith("..") else rel.replace(os.sep, "/") + "/"
    return prefix, (prefix.rstrip("/") or str(store.given))


def finish(args, store, plan, replan=None, root=None) -> int:
    """Print the plan, apply it unless --dry-run, report in text or JSON. `replan(store)` makes
    the plan again: when a file changed between plan and write it is planned again (still under
    the lock) from the files as they are now; the same changes are applied, other changes are
    shown and the command exits 2 (nothing written). `root`: a plan of the repository's
    instruction files (no store), applied at the repository root as planned."""
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
        from ..curation.replan import PlanChanged, apply_replanning

        snapshot = [store]

        def fresh(paths):  # the store as it is now, under the same lock
            snapshot[0] = snapshot[0].evolve(paths)
            return snapshot[0]

        try:
            if store is None:  # instruction files: journaled at the repository root
                journal_id = apply_plan(root, plan)
            else:
                journal_id, plan = apply_replanning(store.root, lambda p: apply_plan(store.root, p), plan, fresh,
                                                    replan)
        except PlanChanged as exc:
            if args.format != "json":
                render_diff(console(), exc.plan, store)
            raise UsageError(f"{exc} (the new plan is shown above) — run the command again to apply it") from None
        except CurationError as exc:
            raise UsageError(str(exc)) from None
    if args.format == "json":
        data = plan.to_json()
        data.update({"dry_run": args.dry_run, "applied": journal_id is not None, "journal": journal_id,
                     "store": store_place(store)[0].rstrip("/") or (str(store.root) if store is not None else None)})
        print_json(data)
    else:
        out = console()
        render_diff(out, plan, store)
        if journal_id:
            out.print(Text.assemble(("applied", "success"), f" as {journal_id} · undo with ",
                                    ("curator undo" + (" --repository" if root else ""), "bold")))
        else:
            out.print(Text.assemble(("dry run", "warning"), ": nothing was written"))
    return EXIT_OK


def planning(fn, *a, **kw):
    """Run a planner, turning refusals into one-line usage errors (and "nothing to do" into an
    empty plan, which `finish` reports with exit 0)."""
    from ..curation import ChangedOnDisk, CurationError, NothingToDo, Plan
    from ..curation.replan import ATTEMPTS

    for attempt in range(ATTEMPTS):
        try:
            return fn(*a, **kw)
        except NothingToDo as exc:
            return Plan(exc.operation, str(exc))
        except ChangedOnDisk as exc:  # edited since the load: nothing shown yet, so read it again
            if attempt == ATTEMPTS - 1 or not a or not hasattr(a[0], "evolve"):
                raise UsageError(str(exc)) from None
            a = (a[0].evolve([exc.path]), *a[1:])
        except CurationError as exc:
            raise UsageError(str(exc)) from None


def recover_first(root) -> None:
    """Recover interrupted operations (kept for callers that hold no session)."""
    from ..curation import CurationError, recover

    try:
        report_recovery(recover(root))
    except CurationError as exc:
        raise UsageError(str(exc)) from None


def report_recovery(done, notes=None) -> None:
    """Say what recovery did: each interrupted operation rolled back and the files it put back,
    each journal entry set aside or left alone (never silent)."""
    from rich.text import Text

    from ..reports.escape import visible
    from .common import err_console

    if done:
        back = getattr(done, "restored", [])
        files = f"; put back as they were: {', '.join(map(visible, back))}" if back else ""
        err_console().print(Text.assemble(("recovered", "warning"),
                                          f" an interrupted operation ({', '.join(done)}): rolled back{files}"))
    for note in getattr(done, "notes", []) if notes is None else notes:
        err_console().print(Text.assemble(("journal", "warning"), f": {visible(note)}"))


def report_special_files(store) -> None:
    """Name the FIFOs, sockets and devices the walk found (never opened, never copied)."""
    from rich.text import Text

    from .common import err_console

    special = [f for f in store.load_findings if f.check == "parse.error" and "never opened" in f.message]
    for f in special[:5]:
        err_console().print(Text.assemble(("skipped", "warning"), f" {f.path}: {f.message.split(',')[0]}"))
    if len(special) > 5:
        err_console().print(Text.assemble(("skipped", "warning"), f" {len(special) - 5} more special files"))


@contextmanager
def writing_session(args):
    """One writer from load to rename: take the store's lock, recover, then load the store the
    caller plans and applies from, all under the lock (a --dry-run takes a shared lock and
    writes nothing)."""
    from ..curation import CurationError, writing
    from .common import locate_and_configure, open_store, refuse_read_only

    located, _ = locate_and_configure(args)
    refuse_read_only(located)
    try:
        with writing(located.root, dry_run=getattr(args, "dry_run", False)) as done:
            report_recovery(done)
            store, _ = open_store(args, quiet_notice=True)
            report_special_files(store)
            yield store
    except CurationError as exc:
        raise UsageError(str(exc)) from None
