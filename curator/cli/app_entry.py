"""`curator [STORE]` with no command: open the app on the store."""

from __future__ import annotations

from .common import (
    EXIT_OK,
    EXIT_USAGE,
    Parser,
    add_store_args,
    console,
    err_console,
    locate_and_configure,
)


def run_app(argv: list[str]) -> int:
    parser = Parser(
        prog="curator",
        description="Open the curator app on STORE (default: the repository found from here upward: its memory "
        "systems, else what each agent loads from its instruction files; with neither, the bundled sample).",
    )
    add_store_args(parser, demo=True)
    parser.add_argument("--theme", help="theme name ('?' lists the themes)")
    args = parser.parse_args(argv)
    if args.theme == "?":
        from rich.text import Text

        from ..tui.themes import available_themes

        themes, failures = available_themes()
        out = console()
        for t in sorted(themes, key=lambda t: t.name):
            out.print(f"{t.name:<28} {'dark' if t.dark else 'light'}  {t.source}")
        for path, why in failures:
            err_console().print(Text.assemble(("skipped", "warning"), f" {path}: {why}"))
        return EXIT_OK
    import sys

    if not (sys.stdout.isatty() and sys.stdin.isatty()):
        # a full-screen app drawn into a pipe never ends: say what to run instead
        err_console().print("curator: the app needs a terminal; try `curator check` or `curator --help`",
                            soft_wrap=True, markup=False, highlight=False)
        return EXIT_USAGE
    from ..base.tokens import default_counter
    from ..tui.app import make_app
    from .common import store_argument

    arg = store_argument(args)
    root, located, config = app_target(args)
    if root is not None:
        app = make_app(root, given=arg or str(root), token_counter=default_counter(), theme=args.theme)
    else:
        app = make_app(
            located.root,
            given=located.given,
            config=config,
            token_counter=default_counter(),
            theme=args.theme,
            notice=located.notice,
            layout=located.layout,
        )
    import gc

    gc.enable()  # a long session needs collections (commands run without them, see __main__)
    app.run()
    return EXIT_OK


def app_target(args):
    """What the app opens: (repository root, None, None) for a repository of instruction files
    without memory (the Context view), else (None, located, config) — the memory store found,
    or the bundled demo when the folder holds neither memory nor instruction files.
    Raises UsageError when a path given holds neither."""
    from ..live.instructions import instruction_repository
    from .common import UsageError, store_argument

    arg = store_argument(args)
    try:
        located, config = locate_and_configure(args, allow_demo=True)
    except UsageError:  # no memory store: instruction files alone open on the Context view
        root = instruction_repository(arg)
        if root is None:
            raise
        return root, None, None
    if located.fallback:  # nothing found from here: the user's own instruction files before the demo
        root = instruction_repository(None, startup_only=True)
        if root is not None:
            return root, None, None
    return None, located, config
