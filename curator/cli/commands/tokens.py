"""`curator tokens`: tokens per tier, domain and file; start-up load; ADR-017 cost model."""

from __future__ import annotations

NAME = "tokens"
ORDER = 30
HELP = "token counts per tier, domain and file; start-up load against its budget; cost model"


def add_arguments(parser) -> None:
    from ..common import add_agent_arg, add_format_arg, add_store_args

    add_store_args(parser)
    add_agent_arg(parser)
    add_format_arg(parser, ("text", "json"))
    parser.add_argument("--top", type=int, default=15, metavar="N", help="largest files to list (text; default 15)")
    parser.add_argument("--all", action="store_true", help="list every file (json lists every file always)")


def run(args) -> int:
    from ...budgets import build_report
    from ...budgets.growth import store_growth
    from ...live.repository import source_summaries
    from ...reports.tokens_report import render_tokens, tokens_json
    from ..common import EXIT_OK, UsageError, console, open_repository, print_json, render_sources

    try:
        repo, located = open_repository(args, check=False, quiet_notice=args.format != "text",
                                        agents=getattr(args, "agent", None))
    except UsageError:  # no memory store: each agent's start-up from the instruction files still
        done = _instructions_only(args)
        if done is None:
            raise
        return done
    top = None
    if repo.single:
        store = repo.loaded()[0].store
        report = build_report(store)
        growth = store_growth(store.root, today=store.today)
        if args.format == "json":
            print_json(tokens_json(store, report, growth=growth))
        else:
            render_tokens(console(), store, report, top=len(report.files) if args.all else max(args.top, 0),
                          growth=growth)
        return EXIT_OK
    # not checked here: `check --format json` gives each source's findings
    summaries = {row["name"]: row for row in source_summaries(repo, findings=False)}
    from ...reports.tokens_report import agents_json, render_agents
    from ..common import agent_context

    model = agent_context(repo.root, args)  # each agent's start-up from the instruction files, as `context` counts it
    if args.format == "json":
        out = []
        for s in repo.loaded():
            row = dict(summaries[s.name])
            row["tokens_report"] = tokens_json(s.store, build_report(s.store),
                                               growth=store_growth(s.store.root, today=s.store.today))
            out.append(row)
        print_json({"version": 1, "repository": located.given, "sources": out, "agents": agents_json(model)})
        return EXIT_OK
    from rich.rule import Rule
    from rich.text import Text

    out = console()
    from ...reports.findings_report import plural

    out.print(Text(f"{located.given}: {plural(len(repo.sources), 'memory system')}", style="bold"))
    render_sources(out, repo)
    render_agents(out, model)
    for s in repo.loaded():
        out.print(Rule(Text(f"{s.name} · {s.spec.label}", style="bold"), align="left"))
        report = build_report(s.store)
        render_tokens(out, s.store, report, top=len(report.files) if args.all else max(args.top, 0),
                      growth=store_growth(s.store.root, today=s.store.today), name=s.name)
    del top
    return EXIT_OK


def _instructions_only(args) -> int | None:
    """A repository with instruction files and no memory (as `check` and `context` take it):
    each agent's start-up load, the number `context` shows; None when it has none either."""
    from ...live.instructions import instruction_repository
    from ...reports.findings_report import plural
    from ...reports.tokens_report import agents_json, render_agents
    from ..common import EXIT_OK, agent_context, console, print_json, store_argument

    given = store_argument(args)
    root = instruction_repository(given, startup_only=given is None)  # no path: the app's rule
    if root is None:
        return None
    model = agent_context(root, args)
    shown = given or str(root)
    if args.format == "json":
        print_json({"version": 1, "repository": shown, "sources": [], "agents": agents_json(model)})
        return EXIT_OK
    from rich.text import Text

    out = console()
    out.print(Text(f"{shown}: {plural(0, 'memory system')}", style="bold"))
    render_agents(out, model)
    return EXIT_OK
