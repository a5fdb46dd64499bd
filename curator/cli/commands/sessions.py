"""`curator sessions [PATH]`: the Claude Code sessions run in a repository, newest first."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import JustifyMethod

NAME = "sessions"
ORDER = 60
HELP = "list the agent's sessions (Claude Code transcripts) run in a repository, newest first"


def add_arguments(parser) -> None:
    from ..common import add_format_arg
    from ..sessions_support import add_projects_arg

    parser.add_argument("path", nargs="?", default=".", metavar="PATH",
                        help="the repository (or a store inside it; default: the current folder)")
    add_format_arg(parser, ("text", "json"))
    add_projects_arg(parser)
    parser.add_argument("--all", action="store_true", help="every transcript in the projects folders, whatever its cwd")
    parser.add_argument("--search", metavar="WORDS", help="turns containing every word, across the sessions")
    parser.add_argument("--show", metavar="SESSION", help="print one session's conversation (tool calls folded)")
    parser.add_argument("--limit", type=int, default=50, metavar="N", help="rows or hits to show (text; default 50)")
    parser.add_argument("--loaded", metavar="FILE",
                        help="only the sessions that recorded loading this instruction file (or used this skill, "
                             "command or subagent file), repository-relative")


def run(args) -> int:
    from pathlib import Path

    from ...base.paths import transcript_repository
    from ..common import EXIT_OK, UsageError, console, own_path, print_json
    from ..sessions_support import index_for

    path = Path(own_path(args.path)).expanduser()
    if not path.exists():
        raise UsageError(f"not found: {args.path}")
    repo = transcript_repository(path)
    index = index_for(repo, args, match_all=args.all)
    sessions = _build(index)
    if args.show:
        return _show(args, index)
    if args.search is not None:
        return _search(args, sessions)
    if args.loaded:
        sessions = _loaded(repo, sessions, args.loaded)
    if args.format == "json":
        print_json({"repository": str(repo), "roots": [str(r) for r in index.discovery.roots],
                    "sessions": [s.to_json() for s in sessions]})
        return EXIT_OK
    out = console()
    if not sessions and args.loaded:
        out.print(f"no session recorded loading {args.loaded} (sessions of Claude Code 2.1.276 and later record "
                  "what they load: `curator context --verify`)")
        return EXIT_OK
    if not sessions:
        from rich.text import Text

        from ...transcripts.discover import explain_none

        out.print(Text("\n".join(explain_none(index.discovery))))
        return EXIT_OK
    _table(out, sessions[: args.limit], where=args.all)
    more = len(sessions) - args.limit
    where = (f"run anywhere (--all; {sum(1 for x in sessions if not _inside(x, repo))} outside {repo})" if args.all
             else f"run in {repo}")
    if args.loaded:
        where += f" that loaded {args.loaded}"
    out.print(f"{len(sessions)} session(s) {where}" + (f"; {more} more (--limit)" if more > 0 else ""),
              overflow="fold")
    return EXIT_OK


def _loaded(repo, sessions, path: str):
    """The sessions that recorded loading `path` (held against the model, as the app's Context view)."""
    import os

    from ...proof import prove

    rel = os.path.relpath(os.path.abspath(path), os.path.realpath(repo)) if os.path.isabs(path) else path
    ids = set(prove(repo, sessions).sessions_loading(rel.replace(os.sep, "/").removeprefix("./")))
    return [s for s in sessions if s.session_id in ids]


def _build(index):
    """Stream every transcript; on a terminal, say how far it got (cached files are instant)."""
    import sys

    if not sys.stderr.isatty():
        return index.build()
    from ..common import err_console

    with err_console().status("reading transcripts…") as status:
        return index.build(lambda what, frac: status.update(f"reading transcripts… {frac:.0%} ({what})"))


def _inside(session, repo) -> bool:
    from ...transcripts.discover import inside

    return inside(getattr(session.main, "cwd", "") or "", repo)


def _table(out, sessions, where: bool = False) -> None:
    from rich.table import Table

    from ...transcripts.index import format_duration as duration

    t = Table(box=None, pad_edge=False, header_style="bold")
    # with --all, where each ran takes the place of its length and message count
    cols: list[tuple[str, JustifyMethod]] = [("started", "left")]
    if not where:
        cols += [("dur", "right"), ("msgs", "right")]
    cols += [("tokens", "right"), ("branch", "left"), ("session", "left")]
    if where:
        cols.append(("ran in", "left"))
    cols.append(("title", "left"))
    widths = {"started": 16, "dur": 4, "msgs": 4, "tokens": 7, "branch": 12, "session": 8, "ran in": 16}
    # one line a session: the title gets what is left, cut with an ellipsis
    widths["title"] = max(12, out.width - sum(widths[c] for c, _ in cols if c != "title") - 2 * (len(cols) - 1))
    for col, just in cols:
        t.add_column(col, justify=just, no_wrap=True, overflow="ellipsis", width=widths[col])
    for s in sessions:
        flag = " ⚠" if s.problems else ""
        cwd = getattr(s.main, "cwd", "") or "?"
        ran = [cwd if len(cwd) <= 16 else "…" + cwd[-15:]] if where else []  # its end names the folder
        size = [] if where else [duration(s.duration_s), str(s.messages)]
        t.add_row(s.started[:16].replace("T", " "), *size, f"{s.tokens:,}",
                  s.main.branch[:20], s.session_id[:8], *ran, s.title[:80] + flag)
    out.print(t)


def _show(args, index) -> int:
    from rich.text import Text

    from ...transcripts import conversation
    from ..common import EXIT_OK, UsageError, console, print_json

    s = index.find(args.show)
    if s is None:
        raise UsageError(f"no session {args.show!r} here (give its id, a unique prefix or its file name)")
    turns = [t for sc in s.scans for t in conversation(sc.path)]
    if args.format == "json":
        print_json({"session": s.to_json(), "turns": [
            {"uuid": t.uuid, "role": t.role, "timestamp": t.timestamp, "text": t.text, "sidechain": t.sidechain,
             "calls": [{"name": c.name, "input": c.summary} for c in t.calls],
             "results": [{"text": r.text, "is_error": r.is_error} for r in t.results]} for t in turns]})
        return EXIT_OK
    from ...reports.findings_report import print_hanging, print_indented

    out = console()
    print_indented(out, Text(s.title, style="bold"), 0)
    print_indented(out, Text(f"{s.session_id} · {s.main.branch or 'no branch'}", style="dim"), 2)
    repo = str(index.discovery.repo).rstrip("/") + "/"
    for t in turns:  # time, role and id; the words beside them, wrapped under where they began
        head = Text(f"{t.timestamp[11:19]} {t.role:<9} {t.uuid[:8]} ", style="dim")
        if t.role == "tool":
            errs = sum(r.is_error for r in t.results)
            print_hanging(out, head, Text(f"▸ {len(t.results)} result(s)" + (f", {errs} error(s)" if errs else ""),
                                          style="error" if errs else "dim"))
            continue
        words = " ".join(t.text.split())
        if words or not t.calls:
            print_hanging(out, head, Text(words), limit=160)
            head = Text(" " * head.cell_len)
        for c in t.calls:  # a path in the repository by its place there
            print_hanging(out, head, Text(f"▸ {c.name} {c.summary.replace(repo, '')}", style="info"), limit=100)
            head = Text(" " * head.cell_len)
    return EXIT_OK


def _search(args, sessions) -> int:
    from pathlib import Path

    from ...transcripts import search
    from ..common import EXIT_OK, UsageError, console, print_json

    if not args.search.strip():
        raise UsageError("--search needs words")
    files = [(s.session_id, Path(sc.path)) for s in sessions for sc in s.scans]
    hits = list(search(files, args.search, limit=args.limit))
    if args.format == "json":
        print_json({"query": args.search, "hits": [
            {"session_id": h.session_id, "path": h.path, "uuid": h.turn.uuid, "role": h.turn.role,
             "timestamp": h.turn.timestamp, "snippet": h.snippet} for h in hits]})
        return EXIT_OK
    from rich.text import Text

    from ...reports.findings_report import print_hanging

    out = console()
    for h in hits:  # where, then the snippet wrapped beside it
        print_hanging(out, Text(f"{h.turn.timestamp[:16].replace('T', ' ')}  {h.session_id[:8]} {h.turn.uuid[:8]} "
                                f"{h.turn.role:<9} "), Text(" ".join(h.snippet.split())))
    out.print(f"{len(hits)} hit(s)")
    return EXIT_OK
