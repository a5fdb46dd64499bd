"""The headless face: `curator COMMAND ...`. Each command lives in `cli/commands/<name>.py` and
exposes `NAME`, `HELP`, `add_arguments(parser)` and `run(args) -> int`; modules import their
heavy dependencies inside `run` so `curator --help` stays instant."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from .. import __version__
from . import commands as _commands_pkg
from .common import EXIT_USAGE, Parser, UsageError, err_console


def command_modules():
    mods = []
    for info in pkgutil.iter_modules(_commands_pkg.__path__):
        if not info.name.startswith("_"):
            mods.append(importlib.import_module(f"{_commands_pkg.__name__}.{info.name}"))
    return sorted(mods, key=lambda m: getattr(m, "ORDER", 50))


def build_parser(only: str | None = None) -> tuple[argparse.ArgumentParser, dict]:
    """The parser and every command module by name; `only`: the one command whose arguments are
    built (a command's own parse needs no other: argparse takes ~10 ms to build them all)."""
    parser = Parser(
        prog="curator",
        # the main use first: `curator` alone opens the app
        usage="curator [STORE]        open the app on a repository or a memory folder\n"
              "       curator COMMAND ...    run one command (curator COMMAND --help)",
        description="A workbench for an AI coding agent's memory. With no command, opens the app on STORE "
        "(default: the repository found from here upward, else the bundled sample).",
    )
    parser.add_argument("--version", action="version", version=f"curator {__version__}")
    # prog: a command's own usage is `curator COMMAND`, not the two-line usage above
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser, prog="curator")
    mods = {}
    for mod in command_modules():
        if only in (None, mod.NAME):
            p = sub.add_parser(mod.NAME, help=mod.HELP, description=getattr(mod, "DESCRIPTION", mod.HELP))
            mod.add_arguments(p)
        mods[mod.NAME] = mod
    return parser, mods


def _unknown_command(word: str, mods: dict) -> None:
    """A first word that is neither a command nor an existing path is a mistyped command."""
    import difflib
    from pathlib import Path

    if Path(word).expanduser().exists():
        return  # `curator STORE` opens the app
    close = difflib.get_close_matches(word, list(mods), n=1, cutoff=0.6)
    if close:
        raise UsageError(f"unknown command '{word}'; did you mean '{close[0]}'? (curator --help lists them)")
    raise UsageError(f"'{word}' is neither a command nor a folder (commands: {', '.join(mods)})")


def _recover_repository(args) -> None:
    """Every command, read-only ones too: an operation a kill interrupted in the repository's
    journal (an instruction file left moved aside) is rolled back now and said — or, when it
    cannot be, the command names each file left missing and how to put it back. Costs a stat or
    two when there is no journal; `undo --repository` recovers (and says so) itself."""
    from pathlib import Path

    from ..base.paths import git_root
    from .common import store_argument

    if args.command == "undo" and getattr(args, "repository", False):
        return
    try:
        given = getattr(args, "path", None) or store_argument(args)
    except UsageError:
        return  # the command says what is wrong with its arguments
    start = Path(given).expanduser() if given else Path.cwd()
    try:
        places = {start.resolve()} if start.is_dir() else set()
        top = git_root(start.resolve())
    except OSError:
        return
    for root in sorted(places | ({top} if top is not None else set())):
        if (root / ".curator" / "journal").is_dir():
            from ..curation.recovery import recover_now
            from .curate import report_recovery

            report_recovery(recover_now(root, dry_run=getattr(args, "dry_run", False)))


def main(argv: list[str] | None = None, kept=None) -> int:
    """Run one command. `kept`: the `base.kept.Run` the entry point opened for it (a command run
    any other way keeps nothing for the next one)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        parser, mods = build_parser(argv[0] if argv and not argv[0].startswith("-") else None)
        if argv and (argv[0] in mods or argv[0] in ("-h", "--help", "--version")):
            args = parser.parse_args(argv)
            args.kept = kept
            _recover_repository(args)
            return int(mods[args.command].run(args) or 0)
        if argv and not argv[0].startswith("-"):
            _unknown_command(argv[0], mods)
        from .app_entry import run_app

        return run_app(argv)
    except UsageError as exc:
        # imported here: a warm `retrieve` answered at the entry point never needs rich
        from rich.text import Text

        err_console().print(Text.assemble(("curator: error:", "error"), f" {exc}"))
        return EXIT_USAGE
    except OSError as exc:  # read-only, full, forbidden: one line, exit 2, never a traceback
        from rich.text import Text

        from ..base.safeio import one_line

        err_console().print(Text.assemble(("curator: error:", "error"), f" {one_line(exc)}"))
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
