"""Quitting while threads still work: a worker or the watcher that finishes after the app has
left hands nothing to the closed loop and prints no traceback."""

from __future__ import annotations

import threading

import pytest

from curator.base.tokens import FakeTokenCounter
from curator.tui.app import make_app
from tests.pilot.conftest import settle, wait_until


@pytest.fixture
def thread_errors(monkeypatch):
    """Exceptions that escaped any thread (what Python would print as a traceback)."""
    seen: list[BaseException] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: seen.append(args.exc_value))
    return seen


async def test_a_hand_off_after_quit_returns_quietly(app, thread_errors):
    got: dict[str, object] = {}
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        worker = threading.Thread(target=lambda: got.setdefault("running", app.hand_off(lambda: 42)))
        worker.start()
        await wait_until(pilot, lambda: "running" in got)
        worker.join()
    after = threading.Thread(target=lambda: got.setdefault("after", app.hand_off(lambda: 42)))
    after.start()
    after.join(5)
    assert not after.is_alive()
    assert got == {"running": 42, "after": None} and not thread_errors


async def test_quitting_while_the_lab_builds_its_engine(sample_copy, monkeypatch, thread_errors, capfd):
    from curator.retrieval import RetrievalEngine

    entered, release, done = threading.Event(), threading.Event(), threading.Event()
    prepare = RetrievalEngine.prepare

    def slow_prepare(self):
        entered.set()
        release.wait(10)
        try:
            return prepare(self)
        finally:
            done.set()

    monkeypatch.setattr(RetrievalEngine, "prepare", slow_prepare)
    app = make_app(sample_copy, given="sample_memories", token_counter=FakeTokenCounter(), theme="curator-dark")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("4")
        await wait_until(pilot, entered.is_set)
        workers = [w for w in app.workers if w.group == "lab-engine"]
        app.exit()  # quit while the engine is still being built (q is typed in the query box)
    assert workers and app.return_code == 0
    release.set()
    assert done.wait(10)
    threading.Event().wait(0.5)  # the engine's thread hands its result to a gone app, quietly
    assert not thread_errors
    assert "Traceback" not in capfd.readouterr().err


async def test_quitting_while_the_watcher_reads_a_batch(live, thread_errors):
    app, events, root = live
    async with app.run_test(size=(80, 24)) as pilot:
        await events.ready(app, pilot)
        watcher = app.watchers.thread
        session = app.workbench
        entered, release = threading.Event(), threading.Event()
        changed = session.changed

        def slow_changed(batch):
            entered.set()
            release.wait(10)
            return changed(batch)

        session.changed = slow_changed
        target = root / "git/git-signed-commits.md"
        target.write_text(target.read_text() + "\nchanged\n")
        events.push(target)
        await wait_until(pilot, entered.is_set)
        threading.Timer(0.2, release.set).start()  # the batch ends while the app is leaving
        await pilot.press("q")
    assert watcher is not None
    watcher.join(5)
    assert not watcher.is_alive() and not thread_errors


async def test_switching_screens_while_the_store_loads_never_fails_the_load(sample_copy, monkeypatch):
    """A progress report reaching a screen whose loading pane is not composed yet is skipped
    (it failed the whole load: "could not open the store: No nodes match '#loading-what'")."""
    import time

    import curator.live.workbench as session_module

    real = session_module.open_workbench

    def slow_open(layout, options, *, progress=None, **kwargs):
        end = time.monotonic() + 1.0
        while time.monotonic() < end:  # reports as fast as a large store's walk does
            progress("reading", 0.5)
        return real(layout, options, progress=progress, **kwargs)

    monkeypatch.setattr(session_module, "open_workbench", slow_open)
    app = make_app(sample_copy, given="sample_memories", token_counter=FakeTokenCounter(), theme="curator-dark")
    async with app.run_test(size=(80, 24)) as pilot:
        for key in "4321" * 3:
            await pilot.press(key)
        await wait_until(pilot, lambda: app.workspace is not None or app.load_error is not None)
        assert app.load_error is None and app.workspace is not None
