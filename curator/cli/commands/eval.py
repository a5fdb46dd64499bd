"""`curator eval`: score retrieval on golden queries; fail below the threshold."""

from __future__ import annotations

NAME = "eval"
ORDER = 25
HELP = "score retrieval on golden queries (hit@1, hit@5, MRR@10 per source); exit 1 below threshold"


def add_arguments(parser) -> None:
    from ..common import add_format_arg, add_store_args

    add_store_args(parser)
    add_format_arg(parser, ("text", "json"))
    parser.add_argument("--queries", "--golden", dest="queries", metavar="FILE",
                        help="golden query YAML (default: the store's golden-queries.yaml)")
    parser.add_argument("--threshold", type=float, default=None, help="minimum fused hit@5 (default 0.8)")
    parser.add_argument("--semantic", action="store_true", default=None,
                        help="run the semantic source even where .curator.yaml turns it off")
    parser.add_argument("--no-semantic", dest="semantic", action="store_false",
                        help="lexical sources only (also CURATOR_NO_SEMANTIC=1)")


def run(args) -> int:
    from pathlib import Path

    from ...base.tokens import estimating
    from ...reports.retrieval_report import render_eval
    from ...retrieval import GoldenError, RetrievalEngine, load_golden, run_eval
    from ..common import EXIT_FINDINGS, EXIT_OK, UsageError, console, open_store, print_json

    store, _ = open_store(args, quiet_notice=args.format != "text")
    inside: tuple = ()
    if args.queries:
        path = Path(args.queries)
    else:  # the configured file: only inside the store or the repository holding its config
        path = store.root / (store.config.golden or "golden-queries.yaml")
        source = getattr(store.config, "source", None)
        inside = (store.root, *((Path(source).parent,) if source else ()))
    try:
        golden = load_golden(path, inside)
    except GoldenError as exc:
        raise UsageError(str(exc)) from None
    if args.threshold is not None and not 0 <= args.threshold <= 1:
        raise UsageError("--threshold must be between 0 and 1")
    from ..progress import progress_line

    line = progress_line(args.format)
    try:
        engine = RetrievalEngine(store, semantic=args.semantic, persist=not estimating(), progress=line,
                                 indexing=line.indexing if line is not None else None)
        report = run_eval(engine, golden, args.threshold)
    finally:
        if line is not None:
            line.close()
    if args.format == "json":
        print_json(report.to_json())
    else:
        render_eval(console(), report, store.given)
    return EXIT_OK if report.passed else EXIT_FINDINGS
