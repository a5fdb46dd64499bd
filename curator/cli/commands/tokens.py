"""`curator tokens`: tokens per tier, domain and file; start-up load; ADR-017 cost model."""

from __future__ import annotations

NAME = "tokens"
ORDER = 30
HELP = "token counts per tier, domain and file; start-up load against its budget; cost model"


def add_arguments(parser) -> None:
    from ..common import add_format_arg, add_store_args

    add_store_args(parser)
    add_format_arg(parser, ("text", "json"))
    parser.add_argument("--top", type=int, default=15, metavar="N", help="largest files to list (text; default 15)")
    parser.add_argument("--all", action="store_true", help="list every file (json lists every file always)")


def run(args) -> int:
    from ...budgets import build_report
    from ...reports.tokens_report import render_tokens, tokens_json
    from ..common import EXIT_OK, console, open_store, print_json

    store, _ = open_store(args, quiet_notice=args.format != "text")
    report = build_report(store)
    if args.format == "json":
        print_json(tokens_json(store, report))
    else:
        render_tokens(console(), store, report, top=len(report.files) if args.all else max(args.top, 0))
    return EXIT_OK
