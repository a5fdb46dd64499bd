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
    parser.add_argument(
        "--source",
        default="fused",
        metavar="NAME",
        help="rank with one method (route, bm25, prior, semantic, fused-lexical; default fused), or search "
        "one memory system of the repository (e.g. .claude/memory, claude, serena, experience)",
    )
    parser.add_argument("--semantic", action="store_true", default=None,
                        help="run the semantic source even where .curator.yaml turns it off")
    parser.add_argument("--no-semantic", dest="semantic", action="store_false",
                        help="lexical sources only (also CURATOR_NO_SEMANTIC=1 or retrieval: {semantic: false})")
    parser.add_argument("--why", action="append", default=[], metavar="PATH",
                        help="explain why this memory did not come back (repeatable)")
    _intermixed(parser)


def _intermixed(parser) -> None:
    """Let options sit between QUERY and STORE (`retrieve QUERY --source bm25 STORE`): plain
    argparse fills both positionals from the first run of words, leaving STORE unrecognised.
    The subcommand's parser is asked through `parse_known_args`, so that call (on this parser
    only) becomes argparse's intermixed parse, which itself calls the plain one. After `--`
    every word is a positional already, and the intermixed parse would drop the `--` before
    its second pass (`retrieve -- -flaky tests` read -flaky as an option): the plain parse."""
    plain = parser.parse_known_args
    busy: list[bool] = []

    def parse_known_args(args=None, namespace=None):
        if busy or (args is not None and "--" in args):
            return plain(args, namespace)
        busy.append(True)
        try:
            return parser.parse_known_intermixed_args(args, namespace)
        finally:
            busy.pop()

    parser.parse_known_args = parse_known_args


def run(args) -> int:
    from ...retrieval.semantic import one_shot

    with one_shot():  # the model, if it must read, reads in a child: this process stays small
        return _run(args)


def _run(args) -> int:
    from ...base.tokens import estimating
    from ...retrieval import RetrievalEngine
    from ..common import EXIT_OK, UsageError, open_store
    from ..progress import progress_line

    if not args.query.strip():
        raise UsageError("the query is empty")
    if args.k is not None and args.k < 1:
        raise UsageError("--k must be at least 1")
    ranker = args.source if args.source in RANKERS else "fused"
    from ..common import locate_and_configure

    try:
        where = locate_and_configure(args)  # once: the repository path and the single-store path share it
    except UsageError:
        done = _instructions_only(args)  # no memory store: the skills and rules an agent would pick
        if done is None:
            raise
        return done
    located = where[0]
    if args.source not in RANKERS or (located.repo is not None and len(located.layout.memory_sources()) > 1):
        return _run_repository(args, ranker, where)
    store, _ = open_store(args, quiet_notice=args.format != "text", where=where)
    reads, evidence = _reads(store)
    line = progress_line(args.format)
    try:
        engine = RetrievalEngine(store, reads=reads, semantic=True if ranker == "semantic" else args.semantic,
                                 persist=not estimating(), progress=line,
                                 indexing=line.indexing if line is not None else None)
        if ranker == "semantic" and engine.semantic is None:
            raise UsageError(f"the semantic source is unavailable: {engine.unavailable['semantic']}")
        result = engine.search(args.query, args.k, ranker)
    finally:
        if line is not None:
            line.close()
    misses = [(_store_path(engine.store, p), "") for p in args.why]
    hops = {p: engine.explain(p, args.query, result) for p, _ in misses}
    misses = [(p, "; ".join(text for _, text in hops[p])) for p, _ in misses]
    show(args.format, args.source, engine, result, misses, hops, store.encoding, evidence)
    from ...retrieval import fast  # the next retrieve of this store, unchanged, needs no load

    fast.keep(getattr(args, "kept", None), store, located, engine, reads, evidence,
              not args.why and args.semantic is None and not getattr(args, "config", None) and ranker == args.source)
    return EXIT_OK


def _store_path(store, path: str) -> str:
    """`--why` takes the path as the app shows it (store-relative) or repository-relative (with
    the store's folder in front, e.g. .serena/memories/x.md) or as typed from the current folder."""
    from pathlib import Path

    p = path.strip().removeprefix("./")
    if p in store.records:
        return p
    root = Path(store.root).resolve()
    try:
        rel = (Path.cwd() / p).resolve().relative_to(root).as_posix()
        if rel in store.records:
            return rel
    except (ValueError, OSError):
        pass
    parts = Path(p).parts  # repository-relative: drop leading folders until it is the store's
    for i in range(1, len(parts)):
        rel = "/".join(parts[i:])
        if rel in store.records and root.as_posix().endswith("/".join(parts[:i])):
            return rel
    return p


def answer_fast(argv: list[str]):
    """At the entry point: (the exit code after answering from the saved index without loading
    the store — `retrieval.fast`: the store is unchanged since —, None), or (None, the kept run
    the command may keep a state through, or None)."""
    import sys

    from ...retrieval import fast
    from ..common import EXIT_OK

    found, run = fast.begin(argv)
    if found is None:
        return None, run
    opts, engine, result, state = found
    try:
        show(opts["format"], opts["source"], engine, result, [], {}, state["encoding"], state["evidence"])
        sys.stdout.flush()
    except BrokenPipeError:
        pass
    return EXIT_OK, None


def show(fmt: str, source: str, engine, result, misses, hops, encoding: str, evidence: dict) -> None:
    """Print a search's result (the full path and the fast path, `retrieval.fast`, share this)."""
    from ...reports.retrieval_report import (
        readable,
        render_also,
        render_retrieve,
        retrieve_json,
        surface_forms,
    )
    from ..common import console, print_json

    picks = engine.also_load(result.query)
    if fmt == "json":
        data = retrieve_json(result, misses, engine.unavailable)
        data["would_also_load"] = [p.to_json() for p in picks]
        forms = surface_forms(result.query)
        for miss in data["misses"]:  # each hop walked, in order, with its evidence (the words as typed)
            miss["hops"] = [{"hop": hop, "evidence": readable(text, forms)} for hop, text in hops[miss["path"]]]
        data["prior_frequency"] = {"source": engine.frequency_source, "evidence": evidence}
        print_json(data)
    else:
        from rich.text import Text

        render_retrieve(console(), result, misses, encoding, engine.unavailable)
        if source in ("prior", "fused"):
            console().print(Text(f"prior frequency: {_said(engine.frequency_source, evidence)}", style="dim"))
        render_also(console(), picks)


RANKERS = ("route", "bm25", "prior", "semantic", "fused", "fused-lexical")


def _run_repository(args, ranker: str, where) -> int:
    """Every memory system of the repository ranked on its own, fused, de-duplicated."""
    from rich.text import Text

    from ...base.tokens import estimating
    from ...model.sources import repository_settings
    from ...reports.retrieval_report import (
        readable,
        render_also,
        render_retrieve,
        retrieve_json,
        surface_forms,
    )
    from ...retrieval import RetrievalEngine
    from ...retrieval.multi import Engine, explain, locate, search_sources, source_of
    from ...retrieval.requested import would_also_load
    from ..common import EXIT_OK, UsageError, console, open_repository, print_json
    from ..progress import progress_line

    repo, located = open_repository(args, check=False, quiet_notice=args.format != "text", where=where)
    sources = repo.loaded()
    if args.source not in RANKERS:
        wanted = args.source.strip().rstrip("/")
        sources = [s for s in sources if wanted in (s.name, s.spec.kind, s.spec.fmt)]
        if not sources:
            names = ", ".join(s.name for s in repo.loaded())
            raise UsageError(f"no memory system {args.source!r} here (there are: {names})")
    sessions = _sessions(repo.root)
    engines, evidence, used = [], {"sessions": 0, "reads": 0}, set()
    line = progress_line(args.format)
    try:
        for s in sources:
            reads, seen = _reads(s.store, sessions)
            engine = RetrievalEngine(s.store, reads=reads, semantic=args.semantic, persist=not estimating(),
                                     progress=line, indexing=line.indexing if line is not None else None)
            engines.append(Engine(s.name, s.spec.kind, s.prefix, engine))
            evidence = {"sessions": seen["sessions"], "reads": evidence["reads"] + seen["reads"]}
            used.add(engine.frequency_source)
        frequency = "reads" if "reads" in used else "cluster"
        settings = repository_settings(repo.root)
        result = search_sources(engines, args.query, args.k or 5, ranker, settings.precedence)
    finally:
        if line is not None:
            line.close()
    encoder = next((e.engine.semantic.encoder for e in engines if e.engine.semantic is not None), None)
    picks = would_also_load(repo.root, args.query, encoder=encoder)
    misses, hops = [], {}
    for p in args.why:  # repository-relative, or as the app completes it (relative to one memory system)
        e, rel = locate(engines, p)
        shown = e.prefix + rel if e is not None else p.strip().removeprefix("./")
        hops[shown] = explain(engines, shown, result)  # the fused list first: the rank the lab says
        misses.append((shown, _joined([text for _, text in hops[shown]])))
    if args.format == "json":
        data = retrieve_json(result, misses)
        forms = surface_forms(result.query)
        for miss in data["misses"]:  # each hop walked, in order, with its evidence (as for one store)
            miss["hops"] = [{"hop": hop, "evidence": readable(text, forms)} for hop, text in hops[miss["path"]]]
        for row in data["results"]:
            e = source_of(engines, row["path"])
            row["source"] = e.name if e else None
        data["sources"] = [e.name for e in engines]
        data["prior_frequency"] = {"source": frequency, "evidence": evidence}
        data["would_also_load"] = [p.to_json() for p in picks]
        print_json(data)
    else:
        render_retrieve(console(), result, misses, repo.loaded()[0].store.encoding, systems=len(engines))
        if ranker in ("prior", "fused"):
            console().print(Text(f"prior frequency: {_said(frequency, evidence)}", style="dim"))
        render_also(console(), picks)
    return EXIT_OK


def _joined(texts: list[str]) -> str:
    """Hops in one line, their memory system named once ("claude: a; b", not "claude: a; claude: b")."""
    head = texts[0].split(": ", 1)[0] + ": " if texts and ": " in texts[0] else ""
    if head and len(texts) > 1 and all(t.startswith(head) for t in texts):
        return head + "; ".join(t[len(head):] for t in texts)
    return "; ".join(texts)


def _sessions(path):
    """The agent's sessions run in the repository of `path` (every transcript streamed, cached)."""
    from ...base.paths import transcript_repository
    from ...transcripts import SessionIndex

    try:
        return SessionIndex.for_repo(transcript_repository(path)).build()
    except OSError:
        return []


def _reads(store, sessions=None):
    """Reads per memory of `store` from the agent's transcripts (None when there are none), and
    what was found."""
    from ...base.paths import transcript_repository
    from ...transcripts import PathMapper, build_usage

    sessions = _sessions(store.root) if sessions is None else sessions
    scans = [sc for s in sessions for sc in s.scans]
    if not scans:  # no transcripts: nothing to map (mapping every memory's path costs 0.1 s at 10k)
        return None, {"sessions": 0, "reads": 0}
    usage = build_usage(scans, PathMapper(store.root, list(store.records), transcript_repository(store.root)), store.today)
    return (usage.read_counts() or None), {"sessions": usage.session_count, "reads": len(usage.reads)}


def _said(source: str, evidence: dict) -> str:
    if source == "reads":
        return f"real reads ({evidence['reads']} in {evidence['sessions']} session(s) of this repository)"
    if evidence["sessions"]:
        return f"cluster size (the {evidence['sessions']} session(s) found read no memory)"
    return "cluster size (no agent transcripts found for this repository)"


def _instructions_only(args) -> int | None:
    """A repository with instruction files but no memory store: what the agents would pick by
    description for the query (skills, subagents, agent-requested rules); None when it holds none."""
    from pathlib import Path

    from ...live.instructions import repository_here
    from ...reports.retrieval_report import render_also
    from ...retrieval.requested import requested_items, would_also_load
    from ..common import EXIT_OK, console, print_json, store_argument

    given = store_argument(args)
    root = Path(given).expanduser() if given else repository_here(Path.cwd())
    if root is None or not root.is_dir():
        return None
    items = requested_items(root)[0]
    if not items:
        return None
    encoder = None
    if args.semantic is not False:
        from ...base.config import meaning_off
        from ...retrieval.semantic import load_encoder

        if not meaning_off() or args.semantic:
            encoder = load_encoder()[0]
    picks = would_also_load(root, args.query, items, encoder)
    from ...retrieval.requested import KIND

    kinds: dict[str, int] = {}
    for _, path, _, _ in items:
        kind = next((k for prefix, k in KIND.items() if path.startswith(prefix)), "rule")
        kinds[kind] = kinds.get(kind, 0) + 1
    counted = ", ".join(f"{n} {k}{'s' if n != 1 else ''}" for k, n in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0].lower())))
    if args.format == "json":
        print_json({"query": args.query, "memory": None, "considered": len(items),
                    "would_also_load": [p.to_json() for p in picks]})
        return EXIT_OK
    from rich.text import Text

    out = console()
    out.print(Text.assemble(("curator retrieve ", "bold"), (repr(args.query), "bold info")))
    out.print(Text(f"no memory store here: what the agents would pick by description among {counted}",
                   style="dim"))
    if picks:
        render_also(out, picks)
    else:
        out.print(Text("nothing matches the query's words" + (" or meaning" if encoder else ""), style="dim"))
    return EXIT_OK
