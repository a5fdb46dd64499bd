"""Each screen on the sample store at a fixed size. Review the SVGs before committing them."""

from __future__ import annotations

import pytest

from curator.app import make_app
from curator.tokens import FakeTokenCounter

SIZE = (120, 36)


@pytest.fixture(autouse=True)
def _colour(monkeypatch):
    # the shared fixtures set NO_COLOR for text assertions; snapshots show what a user sees
    monkeypatch.delenv("NO_COLOR", raising=False)


@pytest.fixture
def app(sample_copy):
    return make_app(sample_copy, given="sample_memories", token_counter=FakeTokenCounter(),
                    theme="curator-dark", remember_theme=False)


async def _ready(pilot):
    app = pilot.app
    await app.workers.wait_for_complete()
    await pilot.pause()
    for inp in app.screen.query("Input"):
        inp.cursor_blink = False


def press(*keys):
    async def run_before(pilot):
        await _ready(pilot)
        for key in keys:
            await pilot.press(key)
            await _ready(pilot)
        await pilot.pause(0.3)
        await _ready(pilot)

    return run_before


def opened(path, *keys):
    async def run_before(pilot):
        await _ready(pilot)
        pilot.app.screen.open_path(path)
        await _ready(pilot)
        for key in keys:
            await pilot.press(key)
            await _ready(pilot)
        await pilot.pause(0.3)
        await _ready(pilot)

    return run_before


def test_first_screen_overview_of_every_source(snap_compare, sample_repo_copy):
    from curator.model.sources import discover

    app = make_app(sample_repo_copy / ".serena" / "memories", given="sample_memories",
                   token_counter=FakeTokenCounter(), theme="curator-dark", remember_theme=False,
                   layout=discover(sample_repo_copy))
    assert snap_compare(app, terminal_size=(80, 24), run_before=press())


def test_store_record(snap_compare, app):
    assert snap_compare(app, terminal_size=SIZE, run_before=opened("knowledge/architecture.md"))


def test_store_index(snap_compare, app):
    assert snap_compare(app, terminal_size=SIZE, run_before=opened("skills-git-index.md", "tab", "down"))


def test_problems(snap_compare, app):
    assert snap_compare(app, terminal_size=SIZE, run_before=press("2"))


def test_budgets(snap_compare, app):
    assert snap_compare(app, terminal_size=SIZE, run_before=press("3"))


def test_retrieval_lab(snap_compare, app):
    query = "schema change froze deploy"

    async def run_before(pilot):
        await _ready(pilot)
        await pilot.press("4")
        while pilot.app.screen.engine is None:
            await pilot.pause(0.05)
        await pilot.press(*query)
        while pilot.app.screen.result is None or pilot.app.screen.result.query != query:
            await pilot.pause(0.05)
        await _ready(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_help(snap_compare, app):
    assert snap_compare(app, terminal_size=SIZE, run_before=press("f1"))


def test_light_theme_small_terminal(snap_compare, sample_copy):
    app = make_app(sample_copy, given="sample_memories", token_counter=FakeTokenCounter(),
                   theme="curator-light", remember_theme=False)
    assert snap_compare(app, terminal_size=(80, 24), run_before=press("2"))


def test_high_contrast_theme(snap_compare, sample_copy):
    app = make_app(sample_copy, given="sample_memories", token_counter=FakeTokenCounter(),
                   theme="curator-high-contrast", remember_theme=False)
    assert snap_compare(app, terminal_size=SIZE, run_before=press(*["down"] * 3))
