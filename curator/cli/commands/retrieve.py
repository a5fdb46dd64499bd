"""`curator retrieve QUERY`: what would the agent load for this query, and why."""

from __future__ import annotations

NAME = "retrieve"
ORDER = 20
HELP = "preview what the agent would retrieve for a query (route, bm25, prior, fused)"


def add_arguments(parser) -> None:
    from ..common import add_format_arg, add_store_args

    parser.add_argument("query", help="the query, quoted")
    add_store_args(parser)
    add_format_arg(parser, ("text", "json"))
    parser.add_argument("--k", type=int, default=None, metavar="N", help="results to return (default: config, 5)")
    parser.add_argument("--source", choices=("route", "bm25", "prior", "fused"), default="fused")
    parser.add_argument("--why", action="append", default=[], metavar="PATH",
                        help="explain why this memory did not come back (repeatable)")


def run(args) -> int:
    from ...reports.retrieval_report import render_retrieve, retrieve_json
    from ...retrieval import RetrievalEngine
    from ..common import EXIT_OK, UsageError, console, open_store, print_json

    if not args.query.strip():
        raise UsageError("the query is empty")
    if args.k is not None and args.k < 1:
        raise UsageError("--k must be at least 1")
    store, _ = open_store(args, quiet_notice=args.format != "text")
    reads, evidence = _reads(store)
    engine = RetrievalEngine(store, reads=reads)
    result = engine.search(args.query, args.k, args.source)
    misses = [(p.strip().lstrip("./") if p.startswith("./") else p.strip(), "") for p in args.why]
    misses = [(p, engine.why(p, args.query, result)) for p, _ in misses]
    if args.format == "json":
        data = retrieve_json(result, misses)
        data["prior_frequency"] = {"source": engine.frequency_source, "evidence": evidence}
        print_json(data)
    else:
        render_retrieve(console(), result, misses, store.encoding)
        if args.source in ("prior", "fused"):
            console().print(f"[dim]prior frequency: {_said(engine.frequency_source, evidence)}[/]")
    return EXIT_OK


def _reads(store):
    """Reads per memory from the agent's transcripts (None when there are none), and what was found."""
    from ...sessions import repo_for, usage_for_store

    try:
        usage, _ = usage_for_store(store.root, list(store.records), store.today, repo_for(store.root))
    except OSError:
        return None, {"sessions": 0, "reads": 0}
    return (usage.read_counts() or None), {"sessions": usage.session_count, "reads": len(usage.reads)}


def _said(source: str, evidence: dict) -> str:
    if source == "reads":
        return f"real reads ({evidence['reads']} in {evidence['sessions']} session(s) of this repository)"
    if evidence["sessions"]:
        return f"cluster size (the {evidence['sessions']} session(s) found read no memory)"
    return "cluster size (no agent transcripts found for this repository)"
