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
    from ...checks import CHECKS
    from ...model.findings import Severity
    from ...reports import render_github, render_json, render_sarif, render_text
    from ..common import EXIT_FINDINGS, EXIT_OK, UsageError, console, print_json

    if args.list:
        out = console()
        from ...model.formats import FORMATS

        for c in CHECKS.values():
            fmts = "all formats" if set(c.formats) == set(FORMATS) else ", ".join(f for f in FORMATS if f in c.formats)
            out.print(f"{c.id:<24} {c.severity.label:<8} {c.summary} [{fmts}]")
        return EXIT_OK
    only = None
    if args.only:
        only = {c for item in args.only for c in item.split(",") if c}
        unknown = sorted(only - set(CHECKS))
        if unknown:
            raise UsageError(f"unknown check id: {', '.join(unknown)} (see `curator check --list`)")
    from ...repository import RepoView, source_summaries
    from ..common import open_repository, render_sources

    repo, located = open_repository(args, only=only, quiet_notice=args.format != "text")
    if repo.single:
        store = repo.loaded()[0].store
    else:
        store = RepoView(repo, located.given)
    findings = repo.findings()
    if args.format == "json":
        data = render_json(store, findings)
        data["sources"] = source_summaries(repo)
        print_json(data)
    elif args.format == "sarif":
        print_json(render_sarif(store, findings))
    elif args.format == "github":
        import sys

        sys.stdout.write(render_github(store, findings))
    else:
        out = console()
        if not repo.single:
            from rich.text import Text

            n = len(repo.sources)
            out.print(Text(f"{located.given}: {n} memory system{'s' if n != 1 else ''}", style="bold"))
            render_sources(out, repo)
        render_text(out, store, findings)
    fail = Severity.parse(args.fail_on)
    return EXIT_FINDINGS if any(f.severity >= fail for f in findings) else EXIT_OK
