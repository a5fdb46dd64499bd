"""The budgets screen reads a snapshot's git history once: showing the same snapshot again (the
scope set to the source already shown) neither starts a second read nor cancels the first."""

from __future__ import annotations

import threading

from curator.budgets.growth import Growth
from curator.tui.screens import budgets
from tests.pilot.conftest import settle


async def test_the_same_snapshot_shown_again_keeps_its_history_read(app, monkeypatch):
    release = threading.Event()
    reads = []

    def slow_growth(root, today=None):
        reads.append(root)
        release.wait(10)  # still reading while the screen is shown again
        return Growth(reason="no history here")

    monkeypatch.setattr(budgets, "store_growth", slow_growth)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("3")
        for _ in range(200):  # (not wait_until: it waits for the workers, and this one waits for us)
            if reads:
                break
            await pilot.pause(0.01)
        app.set_scope(app.workbench.current)  # the same source: the same snapshot again
        await pilot.pause()
        assert len(reads) == 1
        growth = [w for w in app.workers if w.group == "growth"]
        assert len(growth) == 1 and not growth[0].is_cancelled
        release.set()
        await settle(app, pilot)
        assert len(reads) == 1
