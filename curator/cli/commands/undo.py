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
    add_format_arg(parser, ("text", "json"))


def run(args) -> int:
    from rich.text import Text

    from ...curation import CurationError, NothingToUndo, undo
    from ..common import (
        EXIT_OK,
        UsageError,
        console,
        locate_and_configure,
        print_json,
        store_argument,
    )
    from ..curate import report_recovery

    if args.repository:  # instruction-file fixes journal at the repository root (`curator fix --check instructions.*`)
        from .context import repository_root

        root = repository_root(store_argument(args))
    else:
        root = locate_and_configure(args)[0].root
    try:
        entry = undo(root)  # checks the journal is trusted before anything else
    except NothingToUndo as exc:  # a clean answer, not a usage error; untrusted entries named
        report_recovery([], exc.notes)
        if args.format == "json":
            print_json({"undone": None, "title": None, "files": [], "quarantined": exc.notes})
        else:
            console().print("nothing to undo: no curator operation is applied on this store")
        return EXIT_OK
    except CurationError as exc:
        raise UsageError(str(exc)) from None
    report_recovery([], entry.notes)
    files = [f["path"] for f in entry.meta["files"]]
    if args.format == "json":
        print_json({"undone": entry.id, "title": entry.meta.get("title"), "files": files, "quarantined": entry.notes})
    else:
        console().print(Text.assemble(("undone", "success"), f" {entry.id}: {entry.meta.get('title')} ({len(files)} file(s) restored)"))
    return EXIT_OK
