"""`curator drift`: what is out of step, and each memory system's start-up load over git history
(the app's drift screen, 6)."""

from __future__ import annotations

NAME = "drift"
ORDER = 32
HELP = "what is out of step (index rows and files, stale counts, MEMORY.md and topic files); start-up load over git history"


def add_arguments(parser) -> None:
    from ..common import add_format_arg, add_store_args

    add_store_args(parser)
    add_format_arg(parser, ("text", "json"))
    parser.add_argument("--source", metavar="NAME", help="one memory system (e.g. .claude/memory); default: all")
    parser.add_argument("--kind", action="append", default=[], metavar="KIND",
                        help="only this kind of drift: its id or part of it (stale-token-count, memory.md, "
                             "copies); repeat or comma-separate for several (the app's t)")
    parser.add_argument("--text", default="", metavar="WORDS",
                        help="only drift whose kind, check, place or message holds every word (the app's /)")


def run(args) -> int:
    from rich.text import Text

    from ...base.tokens import default_counter
    from ...live.drift import drift_findings, filter_drift, kind_id, match_kinds, startup_history
    from ...live.workbench import Workbench
    from ..common import (
        EXIT_OK,
        UsageError,
        console,
        load_options,
        locate_and_configure,
        print_json,
    )

    located, config = locate_and_configure(args)
    target = located.repo if located.repo is not None else located.root
    options = load_options(given=str(target), config=config, token_counter=default_counter(), budgets=False)
    bench = Workbench(located.layout, options).load(name_by_root=True)
    scope = None
    if args.source:
        scope = next((i for i, s in bench.loaded() if s.name.strip("/") == args.source.strip("/")), None)
        if scope is None:
            names = ", ".join(s.name for _, s in bench.loaded())
            raise UsageError(f"no memory system {args.source!r} here (there are: {names})")
    try:
        kinds = [k for arg in args.kind for k in match_kinds(arg)]
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    every = drift_findings(bench, scope)
    items = filter_drift(every, kinds, args.text)
    histories = [(s.name, startup_history(s.workspace.store)) for i, s in bench.loaded()
                 if s.workspace is not None and (scope is None or i == scope)]  # (loaded: each has one)
    if args.format == "json":
        print_json({
            "version": 1,
            "total": len(every),  # before --kind and --text
            "drift": [{"kind": k, "kind_id": kind_id(k), "check": x.finding.check, "severity": x.finding.severity.label,
                       "path": x.where, "line": x.finding.line, "message": x.finding.message} for k, x in items],
            "startup_history": [{"source": n, "what": h.what, "reason": h.reason or None,
                                 "points": [{"date": p.date, "commit": p.commit, "subject": p.subject,
                                             "bytes": p.bytes, "approx_tokens": p.approx_tokens} for p in h.points]}
                                for n, h in histories],
        })
        return EXIT_OK
    from ...reports.findings_report import print_indented

    out = console()
    narrowed = kinds or args.text.split()
    out.print(Text(f"{len(items)} of {len(every)} out of step" if narrowed else f"{len(items)} out of step",
                   style="bold")
              + Text(("  kind: " + ", ".join(kind_id(k) for k in kinds) if kinds else "")
                     + (f"  text: {args.text.strip()}" if args.text.split() else ""), style="dim"))
    for kind, x in items:  # the place on its line, the message wrapped under it (never padded)
        f = x.finding
        where = Text(f"{x.where}{':' + str(f.line) if f.line else ''}", style="dim")
        line = Text(f"  {kind:<24} ", style="bold") + where
        if line.cell_len > out.width:  # a long path on a line of its own, folded, no padded break
            out.print(Text(f"  {kind}", style="bold"))
            out.print(Text("    ") + where, overflow="fold")
        else:
            line.rstrip()  # a store-wide finding has no place after its kind
            out.print(line, no_wrap=True)
        print_indented(out, Text(f.message), 6)
    for name, h in histories:
        out.print()
        if not h.points:
            print_indented(out, Text(f"{name}: no start-up load history ({h.reason})", style="bold"), 0)
            continue
        print_indented(out, Text.assemble((f"{name}: start-up load over git history", "bold"),
                                          (f" ({h.what}, ≈ tokens)", "dim")), 0)
        print_indented(out, Text(" → ".join(f"{p.date} {p.approx_tokens:,}" for p in h.points)), 2)
        for p, grew in h.grew_most():  # one line a commit: its subject cut at the edge
            out.print(Text(f"  +{grew:,} tok  {p.date} {p.commit[:7] if p.commit else 'work tree'}  {p.subject}"),
                      no_wrap=True, overflow="ellipsis")
    return EXIT_OK
