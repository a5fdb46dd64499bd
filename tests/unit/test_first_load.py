"""A large store's first load runs in a child (live/first_load.py): the app then loads from the
caches it left, with the same findings, and a leaving app never waits for it."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from dataclasses import replace

import pytest

from curator.base import cache, children
from curator.base.cache import forget_open_caches
from curator.base.config import load_config
from curator.base.tokens import FakeTokenCounter, TiktokenCounter
from curator.live import first_load
from curator.live.workbench import open_workbench
from curator.model.loader import LoadOptions
from curator.model.sources import discover

FILES = {f".serena/memories/topic_{i}.md": f"# Topic {i}\n\nThe deploy of service {i} waits for the canary.\n"
         for i in range(6)}
FILES[".serena/memories/topic_5.md"] = FILES[".serena/memories/topic_4.md"]  # a finding to carry over


def _options() -> LoadOptions:
    return LoadOptions(given="repo", token_counter=TiktokenCounter())


def test_a_large_uncached_store_goes_to_a_child_and_the_app_then_loads_its_caches(make_store, monkeypatch):
    root = make_store(FILES, name="repo")
    layout = discover(root)
    assert not first_load.wanted(layout, _options())  # 6 memory files: loaded here
    monkeypatch.setattr(first_load, "FIRST_LOAD_FROM", 5)
    assert first_load.wanted(layout, _options())
    assert not first_load.wanted(layout, _options().but(token_counter=FakeTokenCounter()))  # counts it would not keep
    own = load_config(root / ".serena/memories")
    single = discover(root / ".serena/memories")
    assert first_load.wanted(single, _options().but(config=own))  # the store's own .curator.yaml (or none)
    assert not first_load.wanted(single, _options().but(config=replace(own, orphan_allow=("x.md",))))  # --config elsewhere
    heard: list[tuple[str, float]] = []
    assert first_load.load_elsewhere(root, "repo", lambda what, f: heard.append((what, f)))
    assert heard and all(0 <= f <= first_load.SHARE for _, f in heard)
    assert any("running the checks" in what for what, _ in heard)
    assert not first_load.wanted(layout, _options())  # its store cache is saved: never again
    ours = cache.code_signature()
    monkeypatch.setattr(cache, "_code", "an older curator")  # the saved cache is another version's
    forget_open_caches()
    assert first_load.wanted(layout, _options())  # its parses are not reused: a cold load again
    monkeypatch.setattr(cache, "_code", ours)
    forget_open_caches()
    here = open_workbench(layout, _options())
    monkeypatch.setenv("CURATOR_NO_CACHE", "1")
    cold = open_workbench(layout, _options())
    assert [f.check for f in here.workspace.findings] == [f.check for f in cold.workspace.findings]
    assert "duplicate.near" in {f.check for f in here.workspace.findings}
    # read from what the child cached, not read again
    assert {type(r).__name__ for r in here.workspace.store.records.values()} == {"CachedRecord"}
    assert here.workspace.store.records.keys() == cold.workspace.store.records.keys()


def test_a_child_that_fails_leaves_the_load_to_the_app(make_store, monkeypatch):
    root = make_store(FILES, name="repo")
    monkeypatch.setattr(first_load, "__name__", "curator.live.no_such_module")
    assert not first_load.load_elsewhere(root, "repo", lambda *_: None)
    assert not first_load.load_elsewhere(root / "missing", "repo", lambda *_: None)


def test_a_leaving_app_stops_the_child_and_its_waiter_gives_up(make_store, monkeypatch):
    root = make_store(FILES, name="repo")

    def never_answers(_module, *_args):  # a child that waits for input that never comes
        child = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        children._RUNNING.add(child)
        return child

    monkeypatch.setattr(children, "start", never_answers)
    outcome: list[object] = []

    def wait() -> None:
        try:
            outcome.append(first_load.load_elsewhere(root, "repo", lambda *_: None))
        except children.Stopped:
            outcome.append("stopped")

    waiter = threading.Thread(target=wait)
    waiter.start()
    end = time.monotonic() + 10
    while not children._RUNNING and time.monotonic() < end:
        time.sleep(0.01)
    children.stop_all()
    waiter.join(timeout=10)
    # stopped, not made to load the store itself after all
    assert outcome == ["stopped"] and not children._RUNNING


@pytest.mark.parametrize("count, expected", [(2, True), (3, True), (4, False)])
def test_counting_stops_at_the_threshold(tmp_path, count, expected):
    for i in range(3):
        (tmp_path / f"sub{i}").mkdir()
        (tmp_path / f"sub{i}" / "a.md").write_text("x")
    (tmp_path / "b.txt").write_text("x")
    assert first_load._at_least(tmp_path, count) is expected


async def test_the_app_opens_a_large_first_store_through_the_child(make_store, monkeypatch):
    from curator.tui.app import make_app
    from tests.pilot.conftest import settle

    root = make_store(FILES, name="repo")
    monkeypatch.setattr(first_load, "FIRST_LOAD_FROM", 5)
    app = make_app(root, given="repo", token_counter=TiktokenCounter(), remember_theme=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        store = app.workspace.store
        assert len(store.records) == 6
        # every record came from the cache the child saved: the app read none of them cold
        assert {type(r).__name__ for r in store.records.values()} == {"CachedRecord"}
        assert "duplicate.near" in {f.check for f in app.workspace.findings}
