"""`curator check`: run every check and report findings."""

from __future__ import annotations

NAME = "check"
ORDER = 10
HELP = "check the store: index drift, collisions, budgets, naming, duplicates, ..."


def add_arguments(parser) -> None:
    from ..common import add_agent_arg, add_format_arg, add_store_args

    add_store_args(parser)
    add_agent_arg(parser)
    add_format_arg(parser, ("text", "json", "github", "sarif"))
    parser.add_argument(
        "--fail-on",
        choices=("error", "warning", "info"),
        default="error",
        help="exit 1 when a finding is at or above this severity (default: error)",
    )
    parser.add_argument("--only", nargs="+", metavar="CHECK_ID", help="run only these checks")
    parser.add_argument("--list", action="store_true", help="list the checks (thresholds from the store's config) and exit")
    parser.add_argument("--explain", metavar="CHECK_ID",
                        help="print a check's page: what it finds, why it matters, an example, its fix")
    parser.add_argument("--baseline", metavar="FILE",
                        help="fail only on findings not in this baseline (see `curator baseline`); report those gone")
    parser.add_argument("--changed", action="store_true",
                        help="only the findings the changes since --base introduced (needs git)")
    parser.add_argument("--base", default="HEAD", metavar="REF", help="the revision --changed compares with (default: HEAD)")
    parser.add_argument("--sessions", action="store_true",
                        help="also the findings of the agent's own Claude Code sessions (sessions.*: a session that "
                             "contradicts the model, unused skills and rules, dropped descriptions; reads the "
                             "transcripts, so the run is never replayed)")


def run(args) -> int:
    from ...checks import CHECKS
    from ...model.findings import Severity
    from ...reports import render_github, render_json, render_sarif, render_text
    from ..common import EXIT_FINDINGS, EXIT_OK, UsageError, console, print_json, store_argument

    if args.list or args.explain:
        return _rules(args)
    only = None
    if args.only:
        only = {c for item in args.only for c in item.split(",") if c}
        unknown = sorted(only - set(CHECKS))
        if unknown:
            raise UsageError(f"unknown check id: {', '.join(unknown)} (see `curator check --list`)")
    agents = _agents(args.agent)
    from dataclasses import replace

    from ...live.repository import source_summaries
    from ..common import open_repository, render_sources

    try:
        repo, located = open_repository(args, only=only, quiet_notice=args.format != "text", agents=agents)
    except UsageError:  # no memory store: a repository with only instruction files is checked still
        from ...live.instructions import instructions_only

        got = instructions_only(store_argument(args), only, agents=agents)
        if got is None:
            raise
        repo, located = got
    if repo.single:
        store = repo.loaded()[0].store
    else:  # the repository printed as one store, named as the user named it
        store = repo = replace(repo, given=located.given)
    findings = repo.findings()
    if args.sessions:
        findings = sorted(findings + _session_findings(repo, only), key=lambda f: f.sort_key())
    known, gone = _narrow(args, store, findings, repo)
    findings = [f for f in findings if id(f) not in known]
    from ...base.kept import capture
    from ...checks.replay import keep

    with capture(getattr(args, "kept", None)) as printed:  # what this run prints, when the entry point may replay it
        if args.format == "json":
            from ...live.instructions import agents_model
            from ...reports.tokens_report import agents_json

            data = render_json(store, findings)
            data["sources"] = source_summaries(repo)
            model = agents_model(repo, agents=agents)  # each agent's start-up, as `tokens` and `context` give it
            data["agents"] = agents_json(model) if model is not None else []
            if repo.instructions is None:  # (--only without instruction checks) the output read them still:
                repo = replace(repo, instructions=model)  # a kept run is replayed only while they are unchanged
            if args.baseline:
                data["baseline"] = {"file": args.baseline, "known": len(known), "gone": gone}
            if args.changed:
                data["changed"] = {"base": args.base}
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

                from ...reports.findings_report import plural

                given, n = f"{located.given}:", plural(len(repo.sources), "memory system")
                if len(given) + 1 + len(n) <= out.width:
                    out.print(Text(f"{given} {n}", style="bold"), no_wrap=True)
                else:  # a long path folded on its own line, the count under it (no padded break)
                    out.print(Text(given, style="bold"), overflow="fold")
                    out.print(Text(n, style="bold"))
                render_sources(out, repo)
            formats = {s.store.format for s in repo.loaded()}
            ran = sum(1 for c in CHECKS.values()
                      if (only is None or c.id in only) and any(c.applies_to(f) for f in formats))
            render_text(out, store, findings, ran)
            _print_narrowed(out, args, len(known), gone)
    fail = Severity.parse(args.fail_on)
    code = EXIT_FINDINGS if any(f.severity >= fail for f in findings) else EXIT_OK
    if printed.text is not None and not (args.changed or args.baseline or args.sessions):
        keep(getattr(args, "kept", None), repo, located, store_argument(args), only, printed.text, code)  # replayed while nothing changes
    return code


def _session_findings(repo, only) -> list:
    """The sessions' findings on the repository (paths relative to it; one store given alone: its
    repository's, when the store is inside one)."""
    from ...base.paths import transcript_repository
    from ...proof import prove
    from ...transcripts import SessionIndex

    root = repo.root if not repo.single else transcript_repository(repo.root)
    if repo.single and root == repo.root:
        return []
    sessions = SessionIndex.for_repo(root).build()
    found = prove(root, sessions).findings if sessions else []
    return [f for f in found if only is None or f.check in only]


def _agents(given):
    """`--agent NAME[@VERSION] …` checked before anything loads (an unknown one: exit 2)."""
    if not given:
        return None
    from ...agents import UnknownAgent, VersionError, parse_choice
    from ..common import UsageError

    try:
        for item in given:
            parse_choice(item)
    except (UnknownAgent, VersionError) as exc:
        raise UsageError(f"--agent: {exc}") from None
    return tuple(given)


def _narrow(args, store, findings, repo=None):
    """(ids of findings to leave out, baseline entries gone) for --changed and --baseline."""
    from ..common import UsageError

    known: set[int] = set()
    gone: list[dict] = []
    if args.changed:
        from ...review import GitError
        from ...review.baseline import introduced_since

        try:
            if repo is None or repo.single:
                new = {id(f) for f in introduced_since(store, findings, args.base)}
            else:  # each source against its own state at the revision; paths as the report shows them
                keys = set()
                for src in repo.loaded():
                    for f in introduced_since(src.store, src.findings, args.base):
                        keys.add((src.shown(f.path), f.line, f.check, f.message))
                cross = {id(f) for f in repo.across()}
                new = {id(f) for f in findings if (f.path, f.line, f.check, f.message) in keys or id(f) in cross}
        except GitError as exc:
            raise UsageError(f"--changed: {exc}") from None
        known |= {id(f) for f in findings if id(f) not in new}
    if args.baseline:
        from pathlib import Path

        from ...review.baseline import BaselineError, compare, load_baseline

        try:
            result = compare(store, findings, load_baseline(Path(args.baseline)))
        except BaselineError as exc:
            raise UsageError(str(exc)) from None
        known |= {id(f) for f in result.known}
        gone = result.gone
    return known, gone


def _print_narrowed(out, args, known: int, gone: list[dict]) -> None:
    from rich.text import Text

    if args.changed:
        out.print(Text(f"--changed: only findings new since {args.base}; {known if not args.baseline else 'others'} "
                       "left out", style="dim"))
    if args.baseline:
        out.print(Text(f"baseline {args.baseline}: {known} known finding{'s' if known != 1 else ''} left out", style="dim"))
        if gone:
            out.print(Text(f"✔ {len(gone)} baseline finding{'s are' if len(gone) != 1 else ' is'} gone "
                           "(fixed; run `curator baseline` to drop them):", style="success"))
            for e in gone:
                where = f"{e.get('path')}:{e['line']}" if e.get("line") else e.get("path")
                out.print(f"  {e.get('check')}  {where}  {e.get('message', '')}")


def _rules(args) -> int:
    """`--list` and `--explain ID`: the registry's pages, thresholds from the store's config when
    a store is named or found (else the defaults)."""
    from rich.text import Text

    from ...checks import CHECKS
    from ...reports.rules_report import explain, list_lines
    from ..common import EXIT_OK, UsageError, console, locate_and_configure, store_argument

    if args.explain and args.explain not in CHECKS:
        raise UsageError(f"unknown check id: {args.explain} (see `curator check --list`)")
    config = None
    if store_argument(args) is not None or args.config:
        config = locate_and_configure(args)[1]
    out = console()
    from ...reports.findings_report import print_indented

    if args.explain:  # each line whole, wrapped between words under its own indent
        for line in explain(CHECKS[args.explain], config).splitlines():
            body = line.lstrip(" ")
            print_indented(out, Text(body), len(line) - len(body))
        return EXIT_OK
    for line in list_lines(config):
        if len(line) <= out.width:
            out.print(Text(line), no_wrap=True)
        else:  # the summary whole, wrapped under its id (never a phrase cut at the edge)
            out.print(Text(line[:33].rstrip()), no_wrap=True)
            print_indented(out, Text(line[33:]), 4)
    return EXIT_OK
