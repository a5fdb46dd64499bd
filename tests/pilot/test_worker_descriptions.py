"""A worker started with a store among its arguments never writes the store out: Textual
describes a worker by `repr` of its work unless given a description, and the repr of a store
at 10,000 memories is tens of MB, built on the UI thread (22 MB of the app's peak)."""

from __future__ import annotations

from curator.model.store import Store
from tests.pilot.conftest import settle, wait_until


async def test_the_workers_of_the_lab_drift_budgets_and_sessions_never_repr_a_store(app, monkeypatch):
    written: list[str] = []

    def counted(self) -> str:
        written.append(self.root.name)
        return "Store(...)"

    monkeypatch.setattr(Store, "__repr__", counted)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("4")  # the lab builds its engine in a worker, the store its argument
        await wait_until(pilot, lambda: getattr(app.screen, "engine", None) is not None)
        for key in ("6", "3", "5"):  # drift reads histories, budgets growth, sessions search
            await pilot.press(key)
            await settle(app, pilot)
    assert written == []
