"""`curator history`: the journal of curator operations on this store."""

from __future__ import annotations

NAME = "history"
ORDER = 46
HELP = "list curator operations on this store (applied, undone, rolled back)"


def add_arguments(parser) -> None:
    from ..common import add_format_arg, add_store_args

    add_store_args(parser)
    parser.add_argument("--repository", action="store_true",
                        help="the fixes of the repository's instruction files (CLAUDE.md, rules) instead")
    add_format_arg(parser, ("text", "json"))


def run(args) -> int:
    from rich.text import Text

    from ...base.trust import REPOSITORY, STORE
    from ...curation import history
    from ...reports.escape import visible
    from ..common import EXIT_OK, console, locate_and_configure, print_json, store_argument

    if args.repository:  # instruction-file fixes journal at the repository root (as `curator undo --repository`)
        from .context import repository_root

        root, kind = repository_root(store_argument(args)), REPOSITORY
        given = str(root)
    else:
        located, _ = locate_and_configure(args)
        root, given, kind = located.root, located.given, STORE
    items = history(root, kind)
    if args.format == "json":
        print_json({"store": given, "operations": items})
        return EXIT_OK
    out = console()
    if not items:
        out.print("no curator operations yet")
    for it in items:
        style = {"applied": "success", "undone": "dim", "rolled-back": "warning", "untrusted": "error",
                 "quarantined": "error", "unverifiable": "warning"}.get(it["state"], "")
        out.print(Text.assemble((f"{visible(it['id']):<18} {it['state']:<12}", style),
                                f" {visible(it['created'] or '')}  {visible(it['title'] or '')}"))
    unverifiable = [it["id"] for it in items if it["state"] == "unverifiable"]
    if unverifiable:
        flag = " --repository" if args.repository else ""
        out.print(Text(f"unverifiable: written before journal entries were sealed, never acted on unasked; "
                       f"`curator undo{flag} --entry ID` shows what undoing one would restore", style="dim"))
    return EXIT_OK
