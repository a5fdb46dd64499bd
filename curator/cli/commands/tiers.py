"""`curator tiers`: each folder's tier, what loads at start-up, and why (rule or evidence)."""

from __future__ import annotations

NAME = "tiers"
ORDER = 31
HELP = "each folder's tier and what the agent loads at start-up, with the rule or evidence behind each"


def add_arguments(parser) -> None:
    from ..common import add_format_arg, add_store_args

    add_store_args(parser)
    add_format_arg(parser, ("text", "json"))


def run(args) -> int:
    from ...model.tiering import decide
    from ...reports.tiers_report import startup_words, tiers_json
    from ..common import EXIT_OK, console, open_store, print_json

    store, _ = open_store(args, quiet_notice=args.format != "text")
    data = tiers_json(store, decide(store))
    if args.format == "json":
        print_json(data)
        return EXIT_OK
    from rich import box
    from rich.table import Table

    out = console()
    # light rules and one space between columns: the reason keeps the room (no phrase broken in two)
    t = Table(title="Tiers", title_justify="left", title_style="bold", show_edge=False, box=box.SIMPLE_HEAD,
              padding=(0, 1), collapse_padding=True, pad_edge=False, header_style="bold")
    for col in ("folder", "tier", "records", "tokens", "why"):
        t.add_column(col, justify="right" if col in ("records", "tokens") else "left",
                     no_wrap=col != "why", overflow="fold")
    for f in data["folders"]:
        t.add_row(f["folder"], f["tier"], str(f["records"]), f"{f['tokens']:,}", f["why"])
    out.print(t)
    st = data["startup"]
    approx = " (estimated)" if store.encoding == "estimate" else ""
    from rich.text import Text

    out.print(Text.assemble("\n", ("Start-up load", "bold"),
                            ": " + startup_words(st).replace(" tokens", f" tokens{approx}", 1)))
    from ...reports.findings_report import print_indented

    print_indented(out, Text(f"why: {st['why']}"), 2)
    return EXIT_OK
