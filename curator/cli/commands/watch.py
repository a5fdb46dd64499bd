"""`curator watch`: follow the store on disk and print what each change did to the findings (the
CLI face of the app's live store; the same workbench and watcher)."""

from __future__ import annotations

from collections.abc import Sequence

NAME = "watch"
ORDER = 35
HELP = ("follow the store and the instruction files on disk: each change (edit, new, deleted or renamed file), "
        "the findings it adds or clears, each agent's start-up change")


def add_arguments(parser) -> None:
    from ..common import add_format_arg, add_store_args

    add_store_args(parser)
    add_format_arg(parser, ("text", "json"))
    parser.add_argument("--count", type=int, default=0, metavar="N",
                        help="stop after N changes (default: until interrupted)")
    parser.add_argument("--timeout", type=float, default=0, metavar="SECONDS",
                        help="stop after this many seconds (default: never)")


def describe(before, after, swap) -> dict:
    """What one swap changed: the paths, and the findings it added and cleared (`findings`: the
    source's; `run` replaces it with the repository's total, as `curator check` counts it)."""
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
    import threading

    from rich.text import Text

    from ...base.tokens import default_counter
    from ...live.instructions import context_root, instruction_repository
    from ...live.scope import total_findings
    from ...live.workbench import open_workbench
    from ...model.sources import discover
    from ..common import (
        EXIT_OK,
        UsageError,
        console,
        load_options,
        locate_and_configure,
        store_argument,
    )

    if args.count < 0 or args.timeout < 0:
        raise UsageError("--count and --timeout take a number of 0 or more")
    counter = default_counter()
    bench = None
    try:
        located, config = locate_and_configure(args)
    except UsageError:  # no memory store: a repository's instruction files are followed still
        repo_root = instruction_repository(store_argument(args))
        if repo_root is None:
            raise
    else:
        layout = located.layout or discover(located.root)
        options = load_options(given=located.given, config=config, token_counter=counter)
        bench = open_workbench(layout, options, prefer=located.root)
        if bench.workspace is None:
            raise UsageError("; ".join(s.error for s in bench.sources if s.error) or "no memory store found")
        repo_root = context_root(layout)
    out = console()
    stop = threading.Event()
    shown = [0]
    printing = threading.Lock()  # the memory and the instruction watchers print from two threads

    def report(change: dict, lines: Sequence[str] = ()) -> None:
        with printing:
            _print(out, args.format, change, lines)
            shown[0] += 1
            if args.count and shown[0] >= args.count:
                stop.set()

    last = {i: s.workspace for i, s in bench.loaded()} if bench is not None else {}

    def total() -> int:  # the repository's findings as `curator check` totals them
        return total_findings(bench)

    def on_swaps(swaps) -> None:
        assert bench is not None  # the workbench's own watcher is the only caller
        for swap in swaps:
            before, last[swap.index] = last[swap.index], swap.workspace
            change = describe(before, swap.workspace, swap)
            change["source"] = bench.sources[swap.index].name
            change["findings"] = total()
            report(change)

    instructions = _follow_instructions(repo_root, bench, counter, stop, report, out, total)
    if args.format == "text":  # the folders by their place in the repository, the repository once
        from ...reports.findings_report import print_indented, print_phrases

        base = repo_root if repo_root is not None else None
        roots = [_shown(r, base) for r in (bench.roots() if bench is not None else [])]
        what = f"{total()} findings" if bench is not None else "no memory store"
        also = ([f"the instruction files{'' if roots else ' of ' + str(repo_root)}"]
                if instructions is not None else [])
        print_phrases(out, [Text(f"watching {', '.join(roots + also) or repo_root}", style="dim"),
                            Text(what, style="dim"), Text("ctrl+c stops", style="dim")], 0, sep=" — ")
        if roots and base is not None:
            print_indented(out, Text(f"in {base}", style="dim"), 2)
    timer = threading.Timer(args.timeout, stop.set) if args.timeout else None
    if timer is not None:
        timer.daemon = True
        timer.start()
    failed = lambda exc: out.print(Text(f"watching stopped: {exc}", style="error"))  # noqa: E731
    try:
        if bench is not None:
            bench.watch(on_swaps, stop, on_error=failed)
        else:
            stop.wait()
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        if instructions is not None:
            instructions.join(2)
        if bench is not None:
            bench.flush()
    return EXIT_OK


def _shown(path, base) -> str:
    """A watched folder by its place in the repository (else as it is)."""
    import os

    if base is None:
        return str(path)
    rel = os.path.relpath(os.path.realpath(path), os.path.realpath(base))
    return str(path) if rel.startswith("..") else rel.replace(os.sep, "/")


def _follow_instructions(root, bench, counter, stop, report, out, total):
    """The repository's instruction files followed on a thread (the app's instruction watcher):
    each change builds the context model again and is reported. None when there are none."""
    import threading

    from rich.text import Text

    from ...context.build import build_context
    from ...live.instruction_watch import describe_instructions, watch_instructions

    if root is None or not root.is_dir():
        return None
    state = {"model": build_context(root, token_counter=counter)}
    if not state["model"].agents:
        return None

    def changed(paths) -> None:
        before, after = state["model"], build_context(root, token_counter=counter)
        state["model"] = after
        if bench is not None:
            bench.set_instructions(after)
        change, lines = describe_instructions(before, after, paths)
        if bench is not None:
            change["findings"] = total()  # the repository's, as every other line says it
        report(change, lines)

    def failed(exc) -> None:
        out.print(Text(f"watching the instruction files stopped: {exc}", style="error"))

    thread = threading.Thread(target=watch_instructions, args=(lambda: state["model"], changed, stop, None, failed),
                              name="curator-watch-instructions", daemon=True)
    thread.start()
    return thread


def _print(out, fmt: str, change: dict, lines) -> None:
    import json

    from rich.text import Text

    if fmt == "json":
        print(json.dumps(change), flush=True)
        return
    from ...reports.findings_report import print_hanging, print_indented, print_phrases

    # each line wrapped between words, its further lines indented under where its words began
    phrases = [Text(", ".join(change["paths"]), style="bold"),
               f"{change['findings']} findings (+{len(change['added'])} −{len(change['cleared'])})"]
    if "tokens" in change:  # (the findings are the repository's; the tokens this source's)
        phrases.append(f"{change.get('source', 'the store')} {change['tokens']:,} tokens")
    print_phrases(out, phrases, 0)
    for line in lines:
        print_indented(out, Text(line), 2)
    for sign, key, style in (("+", "added", "warning"), ("−", "cleared", "success")):
        for f in change[key]:
            where = f["path"] + (f":{f['line']}" if f["line"] else "")
            print_hanging(out, Text(f"  {sign} "), Text.assemble((f["check"], style), f" {where} {f['message']}"))
