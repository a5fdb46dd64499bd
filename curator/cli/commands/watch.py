"""`curator watch`: follow the store on disk and print what each change did to the findings (the
CLI face of the app's live store; the same session and watcher)."""

from __future__ import annotations

NAME = "watch"
ORDER = 35
HELP = "follow the store on disk: each change (edit, new, deleted or renamed file) and the findings it adds or clears"


def add_arguments(parser) -> None:
    from ..common import add_format_arg, add_store_args

    add_store_args(parser)
    add_format_arg(parser, ("text", "json"))
    parser.add_argument("--count", type=int, default=0, metavar="N",
                        help="stop after N changes (default: until interrupted)")
    parser.add_argument("--timeout", type=float, default=0, metavar="SECONDS",
                        help="stop after this many seconds (default: never)")


def describe(before, after, swap) -> dict:
    """What one swap changed: the paths, and the findings it added and cleared."""
    def key(f):
        return (f.check, f.path, f.line, f.message, f.target)

    old = {key(f): f for f in before.findings}
    new = {key(f): f for f in after.findings}
    added = [new[k] for k in new.keys() - old.keys()]
    cleared = [old[k] for k in old.keys() - new.keys()]

    def rows(fs):
        return [{"check": f.check, "path": f.path, "line": f.line, "message": f.message}
                for f in sorted(fs, key=lambda f: f.sort_key())]

    return {"paths": list(swap.paths), "findings": len(after.findings), "added": rows(added),
            "cleared": rows(cleared), "tokens": after.store.total_tokens}


def run(args) -> int:
    import json
    import threading

    from rich.text import Text

    from ...live.session import open_session
    from ...model.sources import discover
    from ...tokens import default_counter
    from ..common import EXIT_OK, UsageError, console, locate_and_configure

    if args.count < 0 or args.timeout < 0:
        raise UsageError("--count and --timeout take a number of 0 or more")
    located, config = locate_and_configure(args)
    layout = located.layout or discover(located.root)
    session = open_session(layout, given=located.given, config=config, token_counter=default_counter(),
                           prefer=located.root)
    if session.workspace is None:
        raise UsageError("; ".join(s.error for s in session.sources if s.error) or "no memory store found")
    out = console()
    stop = threading.Event()
    shown = [0]
    last = {i: s.workspace for i, s in session.loaded()}

    def on_swaps(swaps) -> None:
        for swap in swaps:
            before, last[swap.index] = last[swap.index], swap.workspace
            change = describe(before, swap.workspace, swap)
            change["source"] = session.sources[swap.index].name
            if args.format == "json":
                print(json.dumps(change), flush=True)
            else:
                line = Text.assemble((", ".join(change["paths"]), "bold"),
                                     f"  {change['findings']} findings (+{len(change['added'])} "
                                     f"−{len(change['cleared'])}) · {change['tokens']:,} tokens")
                out.print(line)
                for sign, key, style in (("+", "added", "warning"), ("−", "cleared", "success")):
                    for f in change[key]:
                        where = f["path"] + (f":{f['line']}" if f["line"] else "")
                        out.print(Text.assemble(f"  {sign} ", (f["check"], style), f" {where} {f['message']}"))
            shown[0] += 1
            if args.count and shown[0] >= args.count:
                stop.set()

    if args.format == "text":
        roots = ", ".join(str(r) for r in session.roots())
        out.print(Text(f"watching {roots} — {len(session.workspace.findings)} findings; ctrl+c stops", style="dim"))
    timer = threading.Timer(args.timeout, stop.set) if args.timeout else None
    if timer is not None:
        timer.daemon = True
        timer.start()
    try:
        session.watch(on_swaps, stop, on_error=lambda exc: out.print(Text(f"watching stopped: {exc}", style="error")))
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        session.flush()
    return EXIT_OK
