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
    parser.add_argument("--source", choices=("route", "bm25", "prior", "semantic", "fused", "fused-lexical"),
                        default="fused")
    parser.add_argument("--semantic", action="store_true",
                        help='add the semantic source (needs the extra: pip install "curator[semantic]")')
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
    engine = RetrievalEngine(store, semantic=args.semantic or args.source == "semantic")
    if args.source == "semantic" and engine.semantic is None:
        raise UsageError(f"the semantic source is unavailable: {engine.unavailable['semantic']}")
    result = engine.search(args.query, args.k, args.source)
    misses = [(p.strip().lstrip("./") if p.startswith("./") else p.strip(), "") for p in args.why]
    hops = {p: engine.explain(p, args.query, result) for p, _ in misses}
    misses = [(p, "; ".join(text for _, text in hops[p])) for p, _ in misses]
    if args.format == "json":
        data = retrieve_json(result, misses, engine.unavailable)
        for miss in data["misses"]:  # each hop walked, in order, with its evidence
            miss["hops"] = [{"hop": hop, "evidence": text} for hop, text in hops[miss["path"]]]
        print_json(data)
    else:
        render_retrieve(console(), result, misses, store.encoding, engine.unavailable)
    return EXIT_OK
