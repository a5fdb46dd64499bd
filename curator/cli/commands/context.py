"""`curator context`: what each agent loads at start-up, on demand, and never."""

from __future__ import annotations

import os

NAME = "context"
ORDER = 35
HELP = "what each agent (Claude Code, Codex, Cursor, ...) loads: start-up files, on demand, never"


def add_arguments(parser) -> None:
    from ..common import add_agent_arg

    parser.add_argument("path", nargs="?", metavar="PATH", help="the repository (default: the git repository here)")
    add_agent_arg(parser)
    parser.add_argument("--for", dest="for_paths", nargs="+", metavar="FILE", default=[],
                        help="also what loads when these repository files are read or edited")
    parser.add_argument("--format", choices=("text", "json", "markdown"), default="text", help="output format")
    parser.add_argument("--verify", action="store_true",
                        help="hold the model against the repository's Claude Code sessions: each session's recorded "
                             "loads beside what the rules of its own version predict")
    parser.add_argument("--all", action="store_true",
                        help="with --verify: every transcript of the projects folders (those run elsewhere say so)")
    from ..sessions_support import add_projects_arg

    add_projects_arg(parser)


def repository_root(arg: str | None):
    """The folder given, else the nearest git work tree at or above here, else here."""
    from pathlib import Path

    from ..common import UsageError, own_path

    if arg:
        p = Path(own_path(arg)).expanduser()
        if not p.is_dir():
            raise UsageError(f"not a folder: {arg}")
        return p
    from ...base.paths import git_root

    return git_root(Path.cwd()) or Path.cwd()


def run(args) -> int:
    import os
    import sys

    if args.verify:
        return verify(args)

    from ...reports.context_report import context_json, render_markdown, render_text
    from ...reports.escape import plain_text
    from ..common import EXIT_OK, UsageError, print_json

    root = repository_root(args.path)
    fors = []
    for p in args.for_paths:
        rel = os.path.relpath(os.path.abspath(p), os.path.realpath(root)) if os.path.isabs(p) else p
        if rel.startswith(".."):
            raise UsageError(f"--for {p}: not inside {root}")
        fors.append(rel.replace(os.sep, "/"))
    from ...base.kept import capture
    from ..common import agent_context

    model = agent_context(root, args, for_paths=fors)
    with capture(getattr(args, "kept", None)) as printed:  # kept: an unchanged repository prints it again without a build
        if args.format == "json":
            print_json(context_json(model))
        elif args.format == "markdown":
            sys.stdout.write(plain_text(render_markdown(model)))
        else:
            sys.stdout.write(plain_text(render_text(model)))
    if printed.text is not None:
        keep_context(getattr(args, "kept", None), model, printed.text, EXIT_OK)
    return EXIT_OK


def keep_context(run, model, out: str, code: int) -> bool:
    """After a full `curator context`: keep its output (replay.py) with the stat of every folder
    its walk listed, every file it read (and the Serena store's), and the user-level files."""
    from ...base import kept
    from ...context.for_check import replay_stats
    from ...context.user import probes

    if run is None:  # the entry point opened no run for this command: nothing is kept
        return False
    fs = model.fs
    if fs is None or model.encoding not in ("cl100k_base", "estimate"):
        return False
    user = probes(model.home, fs.root, model.env, model.versions)
    config = os.path.join(fs.root, ".curator.yaml")  # (its `agents:`)
    extra = [os.path.join(fs.root, f) for f in fs.files if f.startswith(".serena/")]
    extra += [p for p in (*user, config) if os.path.lexists(p)]
    stats = replay_stats(model, run.settled, extra)
    if stats is None:
        return False
    presence = [(p, False) for p in (*user, config) if not os.path.lexists(p)]
    return kept.write(run, (run.key, None, tuple(stats), tuple(presence), (), out, code))


def verify(args) -> int:
    """`--verify`: every session of the repository against the model of its own version."""
    import sys

    from ...proof import prove
    from ...reports.proof_report import render_markdown, render_text
    from ..common import EXIT_OK, UsageError, print_json
    from ..sessions_support import index_for

    if args.agent and any(not a.startswith(("claude-code", "claude")) for a in args.agent):
        raise UsageError("--verify reads Claude Code's sessions: --agent claude-code[@VERSION] or none")
    root = repository_root(args.path)
    index = index_for(root, args, match_all=args.all)
    sessions = _indexed(index)
    version = next((a.partition("@")[2] for a in args.agent or () if "@" in a), None)
    try:
        proof = prove(root, sessions, version=version)
    except ValueError as exc:  # a version curator cannot read
        raise UsageError(f"--agent: {exc}") from None
    if args.format == "json":
        print_json(proof.to_json())
    elif args.format == "markdown":
        sys.stdout.write(render_markdown(proof))
    else:
        sys.stdout.write(render_text(proof))
        if not sessions:
            from ...transcripts.discover import explain_none

            sys.stdout.write("\n".join(explain_none(index.discovery)[1:]) + "\n")
    return EXIT_OK


def _indexed(index):
    """Every transcript streamed (cached ones instant); on a terminal, how far it got."""
    import sys

    if not sys.stderr.isatty():
        return index.build()
    from ..common import err_console

    with err_console().status("reading transcripts…") as status:
        return index.build(lambda what, frac: status.update(f"reading transcripts… {frac:.0%} ({what})"))
