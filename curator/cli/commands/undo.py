"""`curator undo`: restore the store to before the last curator operation (repeatable)."""

from __future__ import annotations

NAME = "undo"
ORDER = 45
HELP = "undo the last curator operation (run again to go further back)"


def add_arguments(parser) -> None:
    from ..common import add_format_arg, add_store_args

    add_store_args(parser)
    parser.add_argument("--repository", action="store_true",
                        help="undo the last fix of the repository's instruction files (CLAUDE.md, rules) instead")
    parser.add_argument("--entry", metavar="ID",
                        help="undo this journal entry: one written before entries were sealed (curator history "
                             "says unverifiable) is shown as a diff first and undone only with --yes")
    parser.add_argument("--yes", action="store_true", help="with --entry: undo it after you have seen its diff")
    add_format_arg(parser, ("text", "json"))


def run(args) -> int:
    from rich.text import Text

    from ...base.trust import REPOSITORY, STORE
    from ...curation import CurationError, NothingToUndo, undo
    from ..common import EXIT_OK, UsageError, console, print_json, store_argument, writable_root
    from ..curate import report_recovery

    if args.repository:  # instruction-file fixes journal at the repository root (`curator fix --check instructions.*`)
        from .context import repository_root

        root, kind = repository_root(store_argument(args)), REPOSITORY
    else:
        root, kind = writable_root(args), STORE
    if args.yes and not args.entry:
        raise UsageError("--yes goes with --entry ID (the entry whose diff you have seen)")
    if args.entry and not args.yes:
        return _show_entry(args, root, kind)
    try:
        entry = undo(root, kind, args.entry)  # checks the journal is trusted before anything else
    except NothingToUndo as exc:  # a clean answer, not a usage error; untrusted entries named
        report_recovery(exc.recovered, exc.notes)
        if args.format == "json":
            print_json({"undone": None, "title": None, "files": [], "quarantined": exc.notes,
                        "recovered": list(exc.recovered), "restored": exc.recovered.restored})
        elif exc.recovered:
            console().print("nothing else to undo: the interrupted operation was the last one")
        else:
            console().print(f"nothing to undo: no curator operation is applied on this "
                            f"{'repository' if args.repository else 'store'}")
        return EXIT_OK
    except CurationError as exc:
        raise UsageError(str(exc)) from None
    from ...reports.escape import visible

    report_recovery(entry.recovered, entry.notes)
    files = [f["path"] for f in entry.meta["files"]]
    if args.format == "json":
        print_json({"undone": entry.id, "title": entry.meta.get("title"), "files": files, "quarantined": entry.notes,
                    "recovered": list(entry.recovered), "restored": entry.recovered.restored})
    else:
        console().print(Text.assemble(("undone", "success"), f" {entry.id}: {visible(str(entry.meta.get('title')))} "
                                                             f"({len(files)} file(s) restored)"))
    return EXIT_OK


def _show_entry(args, root, kind) -> int:
    """`--entry ID` without `--yes`: the diff undoing it would make, nothing written."""
    from rich.text import Text

    from ...curation import CurationError
    from ...curation.undo import preview_entry
    from ..common import EXIT_OK, UsageError, console, print_json
    from ..curate import render_diff

    try:
        entry, plan = preview_entry(root, kind, args.entry)
    except CurationError as exc:
        raise UsageError(str(exc)) from None
    again = f"curator undo{' --repository' if args.repository else ''} --entry {entry.id} --yes"
    if args.format == "json":
        print_json({**plan.to_json(), "entry": entry.id, "sealed": entry.trust == "sealed", "undone": None,
                    "confirm": again})
        return EXIT_OK
    out = console()
    render_diff(out, plan)
    who = "written by your curator" if entry.trust == "sealed" else \
        "written before journal entries were sealed: curator cannot tell who wrote it"
    out.print(Text.assemble(("not undone", "warning"), f": {entry.id} ({entry.meta.get('state')}) was {who}. "
                            "Read the diff above; to restore these files run ", (again, "bold")))
    return EXIT_OK
