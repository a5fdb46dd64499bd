"""The store's loading pane: a load's first seconds draw no progress (a small store opens without
a bar that moves for a frame, and without the re-layout each report costs); a longer load shows
its steps, a few a second."""

from __future__ import annotations

import time

import curator.live.workbench as workbench_module
import curator.tui.background as background
from curator.base.tokens import FakeTokenCounter
from curator.tui.app import CuratorApp, make_app
from tests.pilot.conftest import wait_until


def _load(sample_copy, monkeypatch, pause: float) -> list[tuple[str, float]]:
    """What reached the screens' loading panes while the sample loaded: a report at once, then one
    `pause` seconds later, then the real load's own."""
    real = workbench_module.open_workbench

    def open_workbench(layout, options, *, progress=None, **kwargs):
        progress("finding the sources", 0.1)
        time.sleep(pause)
        progress("reading the memories", 0.6)
        return real(layout, options, progress=progress, **kwargs)

    shown: list[tuple[str, float]] = []
    monkeypatch.setattr(workbench_module, "open_workbench", open_workbench)
    monkeypatch.setattr(CuratorApp, "_progress", lambda self, what, fraction: shown.append((what, fraction)))
    return shown


async def _open(sample_copy) -> None:
    app = make_app(sample_copy, given="sample_memories", token_counter=FakeTokenCounter(), theme="curator-dark")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.workspace is not None or app.load_error is not None)
        assert app.load_error is None


async def test_a_quick_load_draws_no_progress(sample_copy, monkeypatch):
    monkeypatch.setattr(background, "QUIET", 60.0)  # every load here is quicker than that
    shown = _load(sample_copy, monkeypatch, pause=0.0)
    await _open(sample_copy)
    assert shown == []


async def test_a_slow_load_shows_its_steps_after_the_quiet_start(sample_copy, monkeypatch):
    monkeypatch.setattr(background, "QUIET", 0.2)
    shown = _load(sample_copy, monkeypatch, pause=0.3)
    await _open(sample_copy)
    assert ("finding the sources", 0.1) not in shown  # reported at once: inside the quiet start
    assert shown[0] == ("reading the memories", 0.6), shown
