"""`curator usage`: which memories the agent really read (from its transcripts), most and least."""

from __future__ import annotations

NAME = "usage"
ORDER = 61
HELP = ("which memories and instruction files (rules, nested CLAUDE.md, skills, commands, subagents) the agent's "
        "sessions used, when, and what they cost")


def add_arguments(parser) -> None:
    from ..common import add_format_arg, add_store_args
    from ..sessions_support import add_projects_arg
    from .prune import _days

    add_store_args(parser)
    add_format_arg(parser, ("text", "json"))
    add_projects_arg(parser)
    parser.add_argument("--top", type=int, default=10, metavar="N", help="most and least used to list (text; default 10)")
    parser.add_argument("--unused-for", type=_days, metavar="AGE", help="list the memories not read in this long (90d)")


def run(args) -> int:
    from ..common import EXIT_OK, UsageError, console, open_repository, print_json

    try:
        repo, _ = open_repository(args, check=False, quiet_notice=args.format != "text")
    except UsageError:  # no memory store: the instruction files' usage alone, when there are any
        return _instructions_only(args)
    stores = [_store_use(s.name, s.store, args) for s in repo.loaded()]  # every memory system's reads
    if not stores:
        return _instructions_only(args)
    index, today = stores[0]["index"], stores[0]["store"].today
    proof = _proof(index, today)
    if args.format == "json":
        data = {"repository": str(index.discovery.repo), "sessions": stores[0]["usage"].session_count,
                "today": today.isoformat()}
        if len(stores) == 1:
            data.update(_store_json(stores[0], args))
        else:
            data["sources"] = [{"name": u["name"], **_store_json(u, args)} for u in stores]
        data.update(_proof_json(proof))
        print_json(data)
        return EXIT_OK
    out = console()
    if not stores[0]["usage"].has_evidence:
        out.print(f"no Claude Code sessions found for {index.discovery.repo}: no evidence of use "
                  "(give --projects DIR if the transcripts are elsewhere)")
        return EXIT_OK
    for u in stores:
        if len(stores) > 1:
            from rich.rule import Rule
            from rich.text import Text

            out.print(Rule(Text(u["name"], style="bold"), align="left"))
        _print_store(out, u, args)
    _print_proof(out, proof, args.top)
    return EXIT_OK


def _store_use(name: str, store, args) -> dict:
    """One memory system's reads: its memories by reads, and those unused for `--unused-for`."""
    from ..sessions_support import store_usage

    usage, index = store_usage(store, args)
    memories = [p for p, r in store.records.items() if r.level == 2]
    uses = sorted((usage.use(p) for p in memories), key=lambda u: (-u.reads, u.path))
    unused = None
    if args.unused_for and usage.has_evidence:  # without transcripts nothing can be called unused
        from ...curation.prune import unused_candidates

        last = {p: u.last for p, u in usage.by_path.items()}
        unused = unused_candidates(store, last, args.unused_for, None, allow_semantic=True)
    return {"name": name, "store": store, "usage": usage, "index": index, "memories": memories, "uses": uses,
            "unused": unused}


def _store_json(u: dict, args) -> dict:
    usage = u["usage"]
    data = {"reads": len(usage.reads), "list_memories_calls": sum(usage.listings.values()),
            "memories": [m.to_json() for m in u["uses"]]}
    if args.unused_for:
        data["unused_for_days"] = args.unused_for
        data["unused"] = u["unused"]  # null: no transcripts, so no evidence either way
    return data


def _print_store(out, u: dict, args) -> None:
    from rich.text import Text

    usage, uses, unused = u["usage"], u["uses"], u["unused"]
    read = [m for m in uses if m.reads]
    never = [m.path for m in uses if not m.reads]
    out.print(f"{usage.session_count} session(s), {len(usage.reads)} read(s) of {len(read)} of "
              f"{len(u['memories'])} memories; {sum(usage.listings.values())} list_memories call(s)")
    if read:
        _rows(out, "most read", read[: args.top])
        least = sorted(read, key=lambda m: (m.reads, m.last, m.path))[: args.top]
        _rows(out, "least read (of those read)", least)
    out.print(Text.assemble(("never read", "bold"), f" ({len(never)})"))
    for p in never[: args.top]:
        out.print(f"  {p}")
    if len(never) > args.top:
        out.print(f"  … {len(never) - args.top} more (--top, or --format json)")
    if unused is not None:
        out.print(Text.assemble((f"not read in {args.unused_for} days", "bold"),
                                f" (of those at least as old; {len(unused)}) — ",
                                (f"curator prune --unused-for {args.unused_for}d offers the transient ones", "dim")))
        for p in unused[: args.top]:
            out.print(f"  {p}")


def _proof(index, today):
    """The instruction files held against the same sessions (None without a repository model)."""
    from ...proof import prove

    if index.discovery.repo is None:
        return None
    return prove(index.discovery.repo, list(index.sessions.values()), today=today)


def _proof_json(proof) -> dict:
    if proof is None:
        return {}
    return {"instructions": proof.usage.to_json() if proof.usage else None,
            "listing": proof.simulation.to_json() if proof.simulation else None,
            "instruction_findings": [f.to_json() for f in proof.findings if f.check != "sessions.model-contradicted"]}


def _print_proof(out, proof, top: int) -> None:
    from rich.text import Text

    from ...reports.proof_report import findings_lines, listing_lines, usage_lines

    if proof is None or proof.usage is None or not proof.usage.items:
        return
    out.print()
    shown = [f for f in proof.findings if f.check != "sessions.model-contradicted"]
    for line in usage_lines(proof, top) + [""] + listing_lines(proof) + findings_lines(shown):
        out.print(Text(line), no_wrap=True, overflow="ellipsis")
    if any(f.check == "sessions.model-contradicted" for f in proof.findings):
        out.print(Text("sessions contradict the model: curator context --verify", style="warning"))


def _instructions_only(args) -> int:
    """`curator usage` in a repository with instruction files but no memory store."""
    from pathlib import Path

    from ...base.paths import git_root
    from ...live.instructions import instruction_repository
    from ..common import EXIT_OK, UsageError, console, print_json, store_argument
    from ..sessions_support import index_for

    given = store_argument(args)
    root = instruction_repository(given) or (git_root(Path(given or ".").resolve()) if given is None else None)
    if root is None:
        raise UsageError("no agent memory or instruction files found here (give the repository's path)")
    index = index_for(Path(root), args)
    index.build()
    from datetime import date

    proof = _proof(index, date.today())
    if args.format == "json":
        print_json({"repository": str(root), "sessions": len(index.sessions), **_proof_json(proof)})
        return EXIT_OK
    out = console()
    if not index.sessions:
        out.print(f"no Claude Code sessions found for {root}: no evidence of use "
                  "(give --projects DIR if the transcripts are elsewhere)")
        return EXIT_OK
    _print_proof(out, proof, args.top)
    return EXIT_OK


def _rows(out, heading, uses) -> None:
    from rich.table import Table

    from ...reports.fitting import middle_cut

    t = Table(box=None, pad_edge=False, header_style="bold", title=heading, title_justify="left", title_style="bold")
    rows = [(str(u.reads), str(u.reads_30), str(u.reads_90), str(len(u.sessions)), u.last_day or "-") for u in uses]
    heads = ("reads", "30d", "90d", "sessions", "last read")
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(heads)]
    for col, width in zip(heads, widths, strict=True):  # every number and header whole
        t.add_column(col, justify="left" if col == "last read" else "right", no_wrap=True, min_width=width)
    room = max(12, out.width - sum(widths) - 2 * len(widths))  # the path gives way, cut in its middle
    t.add_column("memory", no_wrap=True, max_width=room)
    for row, u in zip(rows, uses, strict=True):
        t.add_row(*row, middle_cut(u.path, room))
    out.print(t)
