"""Apps for pilot tests: a private copy of the sample store and the fake token counter."""

from __future__ import annotations

import asyncio
import contextlib
import queue

import pytest

from curator.base.tokens import FakeTokenCounter
from curator.tui.app import make_app
from curator.tui.views import VIEWS, name_of


@pytest.fixture
def app(sample_copy):
    return make_app(sample_copy, given="sample_memories", token_counter=FakeTokenCounter(), theme="curator-dark")


async def workers_done(app) -> None:
    """`app.workers.wait_for_complete()`, where a worker cancelled meanwhile is no error: an
    exclusive worker replaced by a newer one (the growth reader, a search) raised WorkerCancelled
    out of the wait on a busy machine; the newer one is waited for. A failed worker still raises."""
    import time

    from textual.worker import WorkerCancelled

    end = time.monotonic() + 60
    while True:
        try:
            await app.workers.wait_for_complete()
            return
        except WorkerCancelled:
            if time.monotonic() > end:
                raise
            await asyncio.sleep(0.02)  # until the cancelled one's thread returns and it leaves the manager


async def settle(app, pilot):
    """Wait for workers (loading, searching) and for the screen to catch up."""
    await workers_done(app)
    await pilot.pause()
    await workers_done(app)
    await pilot.pause()


async def wait_until(pilot, condition, timeout: float = 10.0, seen=None) -> None:
    """Poll (letting timers and workers run) until condition() holds; fail after timeout, saying
    what `seen()` describes (what the screen showed instead: a rare failure on a busy CI machine
    is then read from its log, not guessed)."""
    import time

    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            focused = pilot.app.focused
            raise AssertionError(f"condition not met in time; screen {type(pilot.app.screen).__name__}, focus "
                                 f"{getattr(focused, 'id', None)!r}" + (f"; {seen()}" if seen is not None else ""))
        await pilot.pause(0.05)
        await workers_done(pilot.app)


async def back_to_start(app, pilot, size: tuple[int, int] | None = None, fresh: tuple[str, ...] = ()) -> None:
    """Between read-only steps that share one launch (each launch costs ~1 s of CPU): every dialog
    closed as a user closes it (Escape), the store screen, no toasts, nothing focused by the step
    before; `size` resizes the terminal for the next step; each view in `fresh` gets a new screen
    (its first visit again: focus, cursor, typed text and filters as a new launch has them)."""
    for _ in range(5):
        if name_of(app.screen) is not None:
            break
        await pilot.press("escape")
        await settle(app, pilot)
    while name_of(app.screen) is None:  # a dialog Escape does not close (a box holding it)
        await app.pop_screen()
    await app.show_view("store")
    for view in fresh:  # a new screen in its place, made on the next visit as a launch makes it
        old = app.get_screen(view)
        app.uninstall_screen(view)
        if old.is_attached:
            await old.remove()
        app.install_screen(VIEWS[view], view)  # (a class, as App.SCREENS holds it: made when shown)
    app.clear_notifications()
    if size is not None and app.size != size:
        await pilot.resize_terminal(*size)
    await settle(app, pilot)


@contextlib.contextmanager
def step_named(name: str):
    """A failed assertion of one step of a shared launch names the step it belongs to."""
    try:
        yield
    except AssertionError as failed:
        raise AssertionError(f"step {name}: {failed}") from failed


async def run_steps(app, pilot, steps) -> None:
    """Read-only steps on one launch: each `(size, fresh modes, step)` from the start state
    (`back_to_start`), a failed assertion naming its step."""
    for size, fresh, step in steps:
        await back_to_start(app, pilot, size, fresh)
        with step_named(step.__name__):
            await step(app, pilot)


async def palette_pick(app, pilot, text: str) -> None:
    """The command palette (ctrl+p), `text` typed, its first hit chosen, the app settled."""
    await pilot.press("ctrl+p")
    await pilot.pause()
    await pilot.press(*text)
    await settle(app, pilot)  # the palette's search is a worker: settled, its hits are listed
    await pilot.press("enter")
    await settle(app, pilot)


async def search_in_lab(app, pilot, query: str):
    """The lab (key 4) with `query` typed and answered; returns the lab's screen."""
    await settle(app, pilot)
    await pilot.press("4")
    screen = app.screen
    await wait_until(pilot, lambda: screen.engine is not None)
    await pilot.press(*query)
    await wait_until(pilot, lambda: screen.result is not None and screen.result.query == query)
    return screen


async def press_on_row(app, pilot, row: int, key: str = "x") -> None:
    """Problems' table focused with its cursor on `row`, then `key`, and the app settled."""
    from textual.widgets import DataTable

    table = app.screen.query_one(DataTable)
    table.focus()
    table.move_cursor(row=row)
    await pilot.pause()
    await pilot.press(key)
    await settle(app, pilot)


def drawn_lines(widget) -> list[str]:
    """The widget's lines as the screen shows them, drawn now (the tests draw no frame they do
    not read: tests/textual_patches.py)."""
    from textual.geometry import Region

    return [strip.text for strip in widget.render_lines(Region(0, 0, *widget.size))]


def text_of(static) -> str:
    """The plain text a Static shows (Rich tables and Text alike)."""
    from io import StringIO

    from rich.console import Console

    from curator.reports.styles import rich_theme

    out = StringIO()
    Console(file=out, width=200, color_system=None, theme=rich_theme()).print(static.content)
    return out.getvalue()


# -- a live store: the app with a test-driven watcher -----------------------------------

class FakeEvents:
    """The watcher's event source, driven by the test: `push(paths)` is one batch."""

    def __init__(self) -> None:
        self.batches: queue.Queue = queue.Queue()
        self.roots = None

    def __call__(self, roots, stop):
        self.roots = roots
        while not stop.is_set():
            try:
                batch = self.batches.get(timeout=0.02)
            except queue.Empty:
                continue
            yield batch

    def push(self, *paths) -> None:
        self.batches.put(set(paths))

    async def ready(self, app, pilot) -> None:
        """The app has loaded and its watcher listens to this event source."""
        await settle(app, pilot)
        await wait_until(pilot, lambda: self.roots is not None)


@pytest.fixture
def live(sample_copy):
    events = FakeEvents()
    app = make_app(sample_copy, given="sample_memories", token_counter=FakeTokenCounter(), theme="curator-dark")
    app.watch_events = events
    return app, events, sample_copy
