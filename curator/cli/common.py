"""What every command shares: finding the store, loading it, printing, exiting."""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, overload

if TYPE_CHECKING:
    from ..model.loader import LoadOptions

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class Parser(argparse.ArgumentParser):
    """curator's argument parser: a usage error is one line and a hint, exit 2."""

    def error(self, message):  # one line, exit 2, no usage dump noise beyond the hint
        from rich.text import Text

        err_console().print(Text.assemble(("curator: error:", "error"), f" {message}"))
        err_console().print(Text(f"try: {self.prog} --help", style="dim"))
        raise SystemExit(EXIT_USAGE)


class UsageError(Exception):
    """A usage or config problem: one line on stderr, exit 2."""


def add_store_args(parser: argparse.ArgumentParser, positional: bool = True, demo: bool = False) -> None:
    """STORE and --store; only the app (`demo`) falls back to the bundled sample repository."""
    if positional:
        where = "a repository or one memory folder (default: the repository found from here upward"
        parser.add_argument(
            "store_pos",
            nargs="?",
            metavar="STORE",
            help=where + (", else the bundled sample)" if demo else "; none found is an error)"),
        )
    parser.add_argument("--store", metavar="PATH", help="the memory store (same as STORE)")
    parser.add_argument("--config", metavar="FILE", help="use this .curator.yaml instead of the store's")


def add_format_arg(parser: argparse.ArgumentParser, choices=("text", "json")) -> None:
    parser.add_argument("--format", choices=choices, default="text", help="output format (default: text)")


def add_agent_arg(parser: argparse.ArgumentParser) -> None:
    from ..agents import AGENTS

    parser.add_argument("--agent", nargs="+", metavar="NAME[@VERSION]",
                        help=f"only these agents ({', '.join(AGENTS)}; windsurf is devin), each at the version "
                             "whose rules apply (claude-code@2.1.270; default: .curator.yaml's, else the newest "
                             "known)")


def agent_context(root, args: argparse.Namespace, **kwargs):
    """The context model of `root` for the agents `--agent` names (all, when none): a name or
    version curator does not know is one line, exit 2."""
    from ..agents import UnknownAgent, VersionError
    from ..context.build import build_context

    agents = getattr(args, "agent", None)
    try:
        return build_context(root, agents=agents, chosen_by="--agent", **kwargs)
    except (UnknownAgent, VersionError) as exc:
        raise UsageError(f"--agent: {exc}") from None


def store_argument(args: argparse.Namespace) -> str | None:
    pos = getattr(args, "store_pos", None)
    opt = getattr(args, "store", None)
    if pos and opt and Path(pos) != Path(opt):
        raise UsageError(f"two stores given ({pos} and --store {opt}); give one")
    return opt or pos


@overload
def own_path(value: str) -> str: ...


@overload
def own_path(value: None) -> None: ...


def own_path(value: str | None) -> str | None:
    """A path given on the command line, except that a place inside what curator ships (the
    bundled sample, the package) is the same place in the demo's private copy: no command
    works on, or writes, the installed files."""
    if not value:
        return value
    from ..demo.sample_copy import private_path

    try:
        mapped = private_path(Path(value).expanduser())
    except OSError:
        return value
    return str(mapped) if mapped is not None else value


def locate_and_configure(args: argparse.Namespace, allow_demo: bool = False):
    """The store the arguments name (or discovery finds) and its config. Raises UsageError; with
    no store found, only the app (`allow_demo`) falls back to the bundled demo store."""
    from ..base.config import ConfigError, load_config
    from ..demo import sample_copy
    from ..model import StoreError, locate_store

    try:
        located = locate_store(store_argument(args), demo=sample_copy, fall_back=allow_demo)
        cfg_path = getattr(args, "config", None)
        if cfg_path and not Path(cfg_path).is_file():
            raise UsageError(f"config file not found: {cfg_path}")
        config = load_config(located.root, Path(cfg_path) if cfg_path else None)
    except (StoreError, ConfigError) as exc:
        raise UsageError(str(exc)) from None
    if not Path(located.root).is_dir():
        raise UsageError(f"store not found: {located.given}")
    return located, config


def refuse_read_only(located) -> None:
    """A writing command on a store it may not write (one that resolves outside its repository,
    the user's global memories): one line, exit 2, nothing written."""
    if getattr(located, "read_only", None):
        raise UsageError(located.read_only)


def writable_root(args: argparse.Namespace):
    """The root of the store a writing command works on (refused when it is read-only)."""
    located, _ = locate_and_configure(args)
    refuse_read_only(located)
    return located.root


def load_options(**fields) -> LoadOptions:
    """How every command loads a store: the fields its arguments give, and duplicate.topic's
    vectors (the semantic source, `live.semantic_embedder`)."""
    from ..live import semantic_embedder
    from ..model.loader import LoadOptions

    return LoadOptions(meaning=semantic_embedder, **fields)


def open_store(args: argparse.Namespace, *, tokens: bool = True, quiet_notice: bool = False, where=None):
    """Locate, configure and load the store the arguments name (or `where`, the (located, config)
    a caller already has). Raises UsageError on failure."""
    from ..model import StoreError, load_store

    located, config = where if where is not None else locate_and_configure(args)
    counter = None
    if tokens:
        from ..base.tokens import default_counter

        counter = default_counter()
    try:
        store = load_store(located.root, load_options(given=located.given, config=config, token_counter=counter))
    except StoreError as exc:
        raise UsageError(str(exc)) from None
    _loaded(counter, located, quiet_notice)
    return store, located


def open_repository(args, *, only=None, check: bool = True, quiet_notice: bool = False, where=None, agents=None):
    """Load every memory source of the repository (or store) the arguments name — or `where`,
    the (located, config) a caller already has — checked unless `check=False`. Returns
    (repository, located). Raises UsageError."""
    from ..base.tokens import default_counter
    from ..live.workbench import load_repository

    located, config = where if where is not None else locate_and_configure(args)
    counter = default_counter()
    target = located.repo if located.repo is not None else located.root
    options = load_options(config=config, token_counter=counter, only=frozenset(only) if only else None, check=check,
                           agents=tuple(agents) if agents else None)
    repo = load_repository(target, options, layout=located.layout)
    _loaded(counter, located, quiet_notice)
    failed = [s for s in repo.sources if s.error]
    if failed and not repo.loaded():
        raise UsageError(failed[0].error)
    return repo, located


def _loaded(counter, located, quiet_notice: bool) -> None:
    """After a load: keep the token counts (later ones too), and say what the user should know."""
    from rich.text import Text

    if counter is not None:
        counter.flush()
        import atexit

        atexit.register(counter.flush)  # counts made later (line budgets) are kept too
        reason = getattr(counter, "fallback_reason", None)
        if reason:
            err_console().print(Text.assemble(("note:", "warning"), f" {reason}"))
    if located.notice and not quiet_notice:
        note_console().print(Text(str(located.notice), style="dim"))


def render_sources(out, repo) -> None:
    """The repository's memory systems, one line each (text reports)."""
    from rich.text import Text

    from ..live.repository import source_summaries
    from ..reports.findings_report import print_indented, print_phrases

    for row in source_summaries(repo):
        head = Text("  ")
        head.append(f"{row['name']:<22}", style="bold")
        head.append(f" {row['label']}")
        if "error" in row:
            out.print(head, no_wrap=True, overflow="ellipsis")
            print_indented(out, Text(f"cannot load: {row['error']}", style="error"), 4)
            continue
        if "startup" not in row:  # the agent's transcripts: read by `curator sessions`, never loaded here
            out.print(head, no_wrap=True, overflow="ellipsis")
            print_indented(out, Text("sessions: curator sessions, curator context --verify", style="dim"), 4)
            continue
        st = row["startup"]
        facts = [Text(f"{row['records']:>4} records"), Text(f"{row['tokens']:>7,} tok"),
                 Text(_startup_words(st),
                      style="error" if st["over"] and not st["past_cap_lines"] else "")]
        if st["past_cap_lines"]:  # which cap: a token budget, or Claude Code's auto-memory lines
            cap = "its token budget" if st["cap_tokens"] else "Claude Code's auto-memory cap"
            facts.append(Text(f"{st['past_cap_lines']} lines past {cap}", style="warning"))
        one = Text(" · ").join(facts)
        if head.cell_len + 2 + one.cell_len <= out.width:  # one line when it fits, else the facts under it
            out.print(head + Text("  ") + one, no_wrap=True)
        else:
            out.print(head, no_wrap=True, overflow="ellipsis")
            print_phrases(out, facts, 4)


class NoTrailingSpaces:
    """A text stream that drops the spaces at the end of each line (a table's padding, a
    wrapped line's last space) before passing it on: what curator prints is never padded."""

    _END: re.Pattern[str] | None = None

    def __init__(self, out) -> None:
        self.out = out
        self._line = ""

    def write(self, text: str) -> int:
        end = NoTrailingSpaces._END
        if end is None:  # spaces before the line's closing colour codes go too
            end = NoTrailingSpaces._END = re.compile(r"[ \t]+((?:\x1b\[[0-9;]*m)*)$")
        *done, self._line = (self._line + text).split("\n")
        if done:
            self.out.write("\n".join(end.sub(r"\1", line) for line in done) + "\n")
        return len(text)

    def flush(self) -> None:
        if self._line:
            self.out.write(self._line)
            self._line = ""
        self.out.flush()

    def isatty(self) -> bool:
        return self.out.isatty()

    def fileno(self) -> int:
        return self.out.fileno()

    @property
    def encoding(self) -> str:
        return getattr(self.out, "encoding", "utf-8")


def _visible_console_class():
    """A Rich console that never writes a control character it did not make itself: one left in
    a text segment (from a repository's names and text) is drawn as its control picture."""
    global _VISIBLE
    if _VISIBLE is None:
        from rich.console import Console
        from rich.segment import Segment

        from ..reports.escape import CONTROL, picture, unlike_workflow_command

        class VisibleConsole(Console):
            def render(self, renderable, options=None):
                at_start = True  # no line may begin (spaces aside) as a CI workflow command
                for segment in super().render(renderable, options):
                    if segment.control is not None:
                        yield segment
                        continue
                    text = picture(segment.text) if CONTROL.search(segment.text) else segment.text
                    text, at_start = unlike_workflow_command(text, at_start)
                    yield segment if text is segment.text else Segment(text, segment.style)

        _VISIBLE = VisibleConsole
    return _VISIBLE


_VISIBLE = None


def console(file=None):
    from ..reports.styles import rich_theme

    VisibleConsole = _visible_console_class()  # noqa: N806 - a class

    width = None if sys.stdout.isatty() else int(os.environ.get("COLUMNS", "100"))
    # markup=False: a path, check id or title holding `[/]` is printed as text, never parsed;
    # a control character from a repository is drawn, never sent (reports/escape.py)
    return VisibleConsole(file=NoTrailingSpaces(file or sys.stdout), width=width, highlight=False, soft_wrap=False,
                          markup=False, theme=rich_theme())


def err_console():
    from ..reports.styles import rich_theme

    VisibleConsole = _visible_console_class()  # noqa: N806 - a class

    # one-line messages stay one line; text, never markup
    return VisibleConsole(stderr=True, highlight=False, soft_wrap=True, markup=False, theme=rich_theme())


def note_console():
    """Notes and warnings on stderr, wrapped between words at the terminal's width (an error
    stays one line: `err_console`)."""
    from ..reports.styles import rich_theme

    VisibleConsole = _visible_console_class()  # noqa: N806 - a class

    width = None if sys.stderr.isatty() else int(os.environ.get("COLUMNS", "100"))
    return VisibleConsole(file=NoTrailingSpaces(sys.stderr), width=width, highlight=False, soft_wrap=False,
                   markup=False, theme=rich_theme())


def print_json(data) -> None:
    import json

    from ..reports.escape import json_text

    sys.stdout.write(json_text(json.dumps(data, indent=2, ensure_ascii=False)) + "\n")


def _startup_words(st: dict) -> str:
    """"start-up 2,761/4,000"; with tokens loaded beside the budget (Serena's activation next to
    a tiered index) the total first: "start-up 12,124 (2,837/4,000 in budget)"."""
    if not st["cap_tokens"]:
        return f"start-up {st['tokens']:,}"
    if st["beside"]["tokens"]:
        return f"start-up {st['tokens']:,} ({st['budgeted']:,}/{st['cap_tokens']:,} in budget)"
    return f"start-up {st['tokens']:,}/{st['cap_tokens']:,}"
