"""A newcomer's first minutes, run by `test_newcomer_walk.py` in a fresh copy of the checkout with an
empty home folder: what the README's `curator` opens there, at 80×24, every screen and dialog, a fix
from the app — and what the newcomer must see. Prints one JSON report on stdout; the test judges it.

Run as a script with the copy as the current folder and on PYTHONPATH (as the README's editable
install there would make it): `python tests/pilot/newcomer_walk.py`."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import sys
from pathlib import Path

SIZE = (80, 24)


def _cli(*argv) -> tuple[int, str]:
    from curator.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue()


def _text(widget) -> str:
    from rich.console import Console

    from curator.reports.styles import rich_theme

    out = io.StringIO()
    Console(file=out, width=200, color_system=None, theme=rich_theme()).print(getattr(widget, "content", None)
                                                                            or widget.render())
    return out.getvalue()


async def _settle(app, pilot) -> None:
    await app.workers.wait_for_complete()
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


async def _until(pilot, condition, timeout: float = 60.0) -> bool:
    import time

    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            return False
        await pilot.pause(0.1)
        await pilot.app.workers.wait_for_complete()
    return True


async def walk(report: dict) -> None:
    from textual.widgets import DataTable

    from curator.base.tokens import default_counter
    from curator.budgets.startup import startup_of
    from curator.cli.app_entry import app_target
    from curator.cli.common import Parser, add_store_args
    from curator.tui.app import make_app
    from curator.tui.dialogs import DiffDialog, HistoryDialog, KeywordDialog, PromoteDialog
    from curator.tui.screens.help import HelpScreen

    parser = Parser()
    add_store_args(parser, demo=True)
    parser.add_argument("--theme")
    # `curator`, where the README's install just ran: what `cli.app_entry.run_app` opens
    root, located, config = app_target(parser.parse_args([]))
    report["opened"] = {"instructions_only": root is not None, "is_sample": bool(located and located.is_sample),
                        "root": str(located.root) if located else str(root)}
    if located is None:
        return
    # `curator sample_memories`, the natural next step, opens the same private copy
    _, again, _ = app_target(parser.parse_args(["sample_memories"]))
    report["sample_memories_opens"] = str(again.root)
    app = make_app(located.root, given=located.given, config=config, token_counter=default_counter(),
                   notice=located.notice, layout=located.layout, remember_theme=False)
    screens, dialogs, numbers = {}, {}, {}
    async with app.run_test(size=SIZE) as pilot:
        await _settle(app, pilot)
        await _until(pilot, lambda: app.workbench is not None and app.context_model is not None)
        await _settle(app, pilot)
        banner = app.screen.query("#notice-banner")
        report["banner"] = _text(banner.first()) if banner else ""
        session = app.workbench
        claude = next(s for _, s in session.loaded() if s.name == ".claude/memory")
        numbers["startup_of"] = startup_of(claude.workspace.store).tokens
        numbers["sources"] = {s.name: startup_of(s.workspace.store).tokens for _, s in session.loaded()}
        numbers["memory_md_record"] = claude.workspace.store.records["MEMORY.md"].tokens
        numbers["overview"] = _text(app.screen.query_one("#overview-body"))
        for key, mode in (("1", "store"), ("2", "problems"), ("3", "budgets"), ("4", "lab"), ("5", "sessions"),
                          ("6", "drift"), ("7", "context"), (None, "review")):
            if key is None or mode == "lab":
                await app.show_view(mode)  # (review from the palette; the lab's box takes keys)
            else:
                app.set_focus(None)
                await pilot.press(key)
            await _settle(app, pilot)
            await _settle(app, pilot)  # (the screen's own loading, started when it mounts)
            seen = {"mode": app.current_view, "header": _text(app.screen.query_one("#totals"))}
            if mode == "budgets":
                seen["text"] = " ".join(_text(w) for w in app.screen.query("Static") if w.display)
            if mode == "context":
                model = app.context_model
                seen["memory_md"] = [e.tokens for e in model.agents["claude-code"].startup
                                     if e.path.endswith("MEMORY.md")]
            await pilot.press("f1")
            await _settle(app, pilot)
            if isinstance(app.screen, HelpScreen):
                box = app.screen.query_one("VerticalScroll")
                seen["help_fits"] = box.max_scroll_y == 0 and box.outer_size.height <= SIZE[1]
                await pilot.press("escape")
                await _settle(app, pilot)
            else:
                seen["help_fits"] = False
            screens[mode] = seen
        # the dialogs: the promote wizard, the keyword editor, a fix's diff, the history
        await app.show_view("store")
        await _settle(app, pilot)
        app.select_source(next(i for i, s in session.loaded() if s.name == ".serena/memories"))
        await _settle(app, pilot)
        app.screen.open_path("validation/2026-11-18-c0ffee.md")
        await _settle(app, pilot)
        app.choices.promote("validation/2026-11-18-c0ffee.md")
        await _settle(app, pilot)
        dialogs["promote"] = isinstance(app.screen, PromoteDialog) and _fits(app.screen)
        await pilot.press("escape")
        await _settle(app, pilot)
        app.choices.edit_keywords("skills-git-index.md", 5)
        await _settle(app, pilot)
        dialogs["keywords"] = isinstance(app.screen, KeywordDialog) and _fits(app.screen)
        await pilot.press("escape")
        await _settle(app, pilot)
        app.action_history()
        await _settle(app, pilot)
        dialogs["history"] = isinstance(app.screen, HistoryDialog) and _fits(app.screen)
        await pilot.press("escape")
        await _settle(app, pilot)
        # a fix from the app: Problems, the first finding with a fix, x, then y
        await pilot.press("2")
        await _settle(app, pilot)
        problems = app.screen
        row = next(i for i, x in enumerate(problems.shown) if x.finding.fix is not None)
        table = problems.query_one(DataTable)
        table.focus()
        table.move_cursor(row=row)
        await pilot.pause()
        await pilot.press("x")
        await _settle(app, pilot)
        dialogs["diff"] = isinstance(app.screen, DiffDialog) and _fits(app.screen)
        report["diff_writes_to"] = _text(app.screen.query_one("#diff-notes")) if isinstance(app.screen, DiffDialog) else ""
        await pilot.press("y")
        await _settle(app, pilot)
        await pilot.pause(0.5)
        await _settle(app, pilot)
        app.set_scope(None)
        await _settle(app, pilot)
        report["header_after_fix"] = _text(app.screen.query_one("#totals"))
        numbers["sources_after_fix"] = {s.name: startup_of(s.workspace.store).tokens for _, s in session.loaded()}
        await app.show_view("store")
        await _settle(app, pilot)
        numbers["overview_after_fix"] = _text(app.screen.query_one("#overview-body"))
    report["screens"] = screens
    report["dialogs"] = dialogs
    report["numbers"] = numbers
    # the same copy, as the CLI sees it
    repo = str(Path(located.root).parent.parent)
    _, out = _cli("check", repo, "--format", "json")
    data = json.loads(out)
    report["check"] = data["summary"]
    report["check_startup"] = {s["name"]: s["startup"]["tokens"] for s in data["sources"]}
    _, out = _cli("tokens", repo, "--format", "json")
    report["tokens_startup"] = {s["name"]: s["startup"]["tokens"] for s in json.loads(out)["sources"]}
    _, out = _cli("context", repo, "--format", "json")
    ctx = json.loads(out)
    report["context_memory_md"] = [f["tokens"] for a in ctx["agents"] if a["agent"] == "claude-code"
                                   for f in a["startup"]["files"] if f["path"].endswith("MEMORY.md")]
    report["repo"] = repo


def _fits(screen) -> bool:
    """Every widget of the dialog lies within the 80×24 screen."""
    return all(w.region.right <= SIZE[0] and w.region.bottom <= SIZE[1] for w in screen.query("*") if w.display)


def main() -> None:
    report: dict = {"cwd": os.getcwd(), "curator": None}
    import curator

    report["curator"] = curator.__file__
    from tests.textual_patches import skip_unread_frames

    skip_unread_frames()  # as in the test process (tests/textual_patches.py)
    asyncio.run(walk(report))
    sys.stdout.write(json.dumps(report) + "\n")


if __name__ == "__main__":
    main()
