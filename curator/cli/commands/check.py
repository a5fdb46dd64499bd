"""`curator check`: run every check and report findings."""

from __future__ import annotations

NAME = "check"
ORDER = 10
HELP = "check the store: index drift, collisions, budgets, naming, duplicates, ..."


def add_arguments(parser) -> None:
    from ..common import add_format_arg, add_store_args

    add_store_args(parser)
    add_format_arg(parser, ("text", "json", "github", "sarif"))
    parser.add_argument(
        "--fail-on",
        choices=("error", "warning", "info"),
        default="error",
        help="exit 1 when a finding is at or above this severity (default: error)",
    )
    parser.add_argument("--only", nargs="+", metavar="CHECK_ID", help="run only these checks")
    parser.add_argument("--list", action="store_true", help="list the check ids and exit")


def run(args) -> int:
    from ...checks import CHECKS, run_checks
    from ...model.findings import Severity
    from ...reports import render_github, render_json, render_sarif, render_text
    from ..common import EXIT_FINDINGS, EXIT_OK, UsageError, console, print_json

    if args.list:
        out = console()
        for c in CHECKS.values():
            out.print(f"{c.id:<24} {c.severity.label:<8} {c.summary}")
        return EXIT_OK
    only = None
    if args.only:
        only = {c for item in args.only for c in item.split(",") if c}
        unknown = sorted(only - set(CHECKS))
        if unknown:
            raise UsageError(f"unknown check id: {', '.join(unknown)} (see `curator check --list`)")
    from ..common import open_store

    store, _ = open_store(args, quiet_notice=args.format != "text")
    findings = run_checks(store, only)
    if args.format == "json":
        print_json(render_json(store, findings))
    elif args.format == "sarif":
        print_json(render_sarif(store, findings))
    elif args.format == "github":
        import sys

        sys.stdout.write(render_github(store, findings))
    else:
        render_text(console(), store, findings)
    fail = Severity.parse(args.fail_on)
    return EXIT_FINDINGS if any(f.severity >= fail for f in findings) else EXIT_OK
