"""Every screen and dialog on the sample store at 80×24 and at 120×36. Review the SVGs before
committing them (render them: `rsvg-convert x.svg > x.png`)."""

from __future__ import annotations

import pytest

from curator.base.tokens import FakeTokenCounter
from curator.tui.app import make_app
from tests.fake_encoder import use_fake_encoder

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 36), id="120x36")]
PROMOTE_SRC = "validation/2026-11-18-c0ffee.md"
# after the last key, time for the short timers a view starts (a record's body: 0.05 s) to fire
# before the picture is taken; the workers are waited for, not timed
TIMERS = 0.1


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


def press(*keys, open_path: str | None = None):
    async def run_before(pilot):
        await _ready(pilot)
        if open_path:
            pilot.app.screen.open_path(open_path)
            await _ready(pilot)
        for key in keys:
            await pilot.press(key)
            await _ready(pilot)
        await pilot.pause(TIMERS)
        await _ready(pilot)

    return run_before


# -- screens -------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_first_screen_overview_of_every_source(snap_compare, sample_repo_copy, size):
    from curator.model.sources import discover

    app = make_app(sample_repo_copy / ".serena" / "memories", given="sample_memories",
                   token_counter=FakeTokenCounter(), theme="curator-dark", remember_theme=False,
                   layout=discover(sample_repo_copy))
    assert snap_compare(app, terminal_size=size, run_before=press())


@pytest.mark.parametrize("size", SIZES)
def test_store_record(snap_compare, app, size):
    assert snap_compare(app, terminal_size=size, run_before=press(open_path="git/git-interactive-rebase.md"))


@pytest.mark.parametrize("size", SIZES)
def test_store_index(snap_compare, app, size):
    assert snap_compare(app, terminal_size=size, run_before=press("tab", "down", open_path="skills-review-index.md"))


@pytest.mark.parametrize("size", SIZES)
def test_store_tier_node(snap_compare, app, size):
    assert snap_compare(app, terminal_size=size, run_before=press("down", "up"))


@pytest.mark.parametrize("size", SIZES)
def test_problems(snap_compare, app, size):
    assert snap_compare(app, terminal_size=size, run_before=press("2"))


@pytest.mark.parametrize("size", SIZES)
def test_budgets(snap_compare, app, size):
    assert snap_compare(app, terminal_size=size, run_before=press("3"))


def search_lab(query: str, *keys: str, semantic: bool = True):
    """Open the lab, wait for its engine (with meaning, when on), search, then press `keys`."""

    async def run_before(pilot):
        await _ready(pilot)
        await pilot.press("4")
        screen = pilot.app.screen
        while screen.engine is None or (semantic and screen.engine.semantic is None):
            await pilot.pause(0.05)
        await pilot.press(*query)
        while screen.result is None or screen.result.query != query or (
                semantic and "semantic" not in screen.result.hits[0].sources):
            await pilot.pause(0.05)
        for key in keys:
            await pilot.press(key)
            await _ready(pilot)
        await pilot.pause(TIMERS)
        await _ready(pilot)

    return run_before


@pytest.mark.parametrize("size", SIZES)
def test_retrieval_lab(snap_compare, app, size, monkeypatch):
    # the semantic source is on by default: its column beside route, bm25 and prior (a fake
    # encoder, so the snapshot does not hang on the model's numbers or its timing)
    use_fake_encoder(monkeypatch)
    assert snap_compare(app, terminal_size=size, run_before=search_lab("schema change froze deploy", "escape", "y"))


def test_retrieval_lab_second_result_explained(snap_compare, app, monkeypatch):
    use_fake_encoder(monkeypatch)
    run = search_lab("schema change froze deploy", "escape", "down")
    assert snap_compare(app, terminal_size=(80, 24), run_before=run)


def test_retrieval_lab_without_meaning(snap_compare, app):
    # CURATOR_NO_SEMANTIC=1 (the tests' default): no semantic column, not an empty one
    run = search_lab("schema change froze deploy", "escape", semantic=False)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_help(snap_compare, app, size):
    assert snap_compare(app, terminal_size=size, run_before=press("f1"))


# -- dialogs -------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_diff_dialog(snap_compare, app, size):
    assert snap_compare(app, terminal_size=size, run_before=press("2", "slash", *"missing-target", "enter", "x"))


@pytest.mark.parametrize("size", SIZES)
def test_history_dialog(snap_compare, app, size):
    async def run_before(pilot):
        await _ready(pilot)
        pilot.app.action_history()
        await _ready(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_keyword_dialog(snap_compare, app, size):
    assert snap_compare(app, terminal_size=size, run_before=press("tab", "down", "e", open_path="skills-review-index.md"))


@pytest.mark.parametrize("size", SIZES)
def test_promote_dialog(snap_compare, app, size):
    assert snap_compare(app, terminal_size=size, run_before=press("p", open_path=PROMOTE_SRC))


@pytest.mark.parametrize("size", SIZES)
def test_prune_dialog(snap_compare, app, size):
    assert snap_compare(app, terminal_size=size, run_before=press("2", "P"))


# -- themes --------------------------------------------------------------------


def test_light_theme_small_terminal(snap_compare, sample_copy):
    app = make_app(sample_copy, given="sample_memories", token_counter=FakeTokenCounter(),
                   theme="curator-light", remember_theme=False)
    assert snap_compare(app, terminal_size=(80, 24), run_before=press("2"))


def test_high_contrast_theme(snap_compare, sample_copy):
    app = make_app(sample_copy, given="sample_memories", token_counter=FakeTokenCounter(),
                   theme="curator-high-contrast", remember_theme=False)
    assert snap_compare(app, terminal_size=(120, 36), run_before=press(*["down"] * 3))


# -- the whole repository: scope, drift, review and sessions on the demo's history ------------


def _repo_app(repo):
    from curator.model.sources import discover

    return make_app(repo, given="sample_memories", token_counter=FakeTokenCounter(), theme="curator-dark",
                    remember_theme=False, layout=discover(repo))


@pytest.fixture
def demo_repo(monkeypatch):
    """The sample repository as the app's demo copy is: git history and four sessions run in it.
    Its path has the same length on every run and worker: the sessions record it on every line,
    and the Sessions screen shows their size."""
    import os
    import shutil
    import tempfile
    from pathlib import Path

    from curator.base.locations import sample_repository
    from curator.demo.repository import build_history, write_transcripts

    base = Path(tempfile.mkdtemp(prefix="curator-demo-"))  # /tmp/curator-demo-XXXXXXXX: one length
    repo = base / "sample_memories"
    shutil.copytree(sample_repository(), repo, symlinks=True)
    if build_history(repo) is not None:
        shutil.rmtree(base, ignore_errors=True)
        pytest.skip("git is not installed")
    write_transcripts(repo, Path(os.environ["CLAUDE_CONFIG_DIR"]) / "projects")
    yield repo
    shutil.rmtree(base, ignore_errors=True)


def test_problems_whole_repository(snap_compare, sample_repo_copy):
    assert snap_compare(_repo_app(sample_repo_copy), terminal_size=(80, 24), run_before=press("2"))


def test_problems_narrowed_to_one_source(snap_compare, sample_repo_copy):
    assert snap_compare(_repo_app(sample_repo_copy), terminal_size=(80, 24), run_before=press("2", "s", "s"))


def open_then_wait(key: str, ready):
    """Press `key` (a screen), then wait until `ready(app)` holds (a worker's result shown)."""
    async def run_before(pilot):
        await _ready(pilot)
        await pilot.press(key)
        for _ in range(200):
            await _ready(pilot)
            if ready(pilot.app):
                break
            await pilot.pause(0.05)
        await pilot.pause(TIMERS)
        await _ready(pilot)

    return run_before


def test_drift(snap_compare, demo_repo):
    run_before = open_then_wait("6", lambda app: "grew most" in str(app.screen.query_one("#drift-grew").render()))
    assert snap_compare(_repo_app(demo_repo), terminal_size=(80, 24), run_before=run_before)


def test_drift_one_kind(snap_compare, demo_repo):
    """t narrows the drift table to one kind: the bar says how many of how many, and which."""
    async def run_before(pilot):
        await open_then_wait("6", lambda app: "grew most" in str(app.screen.query_one("#drift-grew").render()))(pilot)
        await pilot.press("t", "t")
        await _ready(pilot)

    assert snap_compare(_repo_app(demo_repo), terminal_size=(80, 24), run_before=run_before)


def test_review(snap_compare, demo_repo):
    app = _repo_app(demo_repo)
    app.bind("ctrl+o", "show_view('review')")  # (review has no number key: the palette opens it)
    run_before = open_then_wait(
        "ctrl+o", lambda app: "comparing" not in str(app.screen.query_one("#review-summary").render()))
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_review_narrowed_to_one_source(snap_compare, demo_repo):
    """s on the review: one memory system's changes, without the names and the agents' rows."""
    app = _repo_app(demo_repo)
    app.bind("ctrl+o", "show_view('review')")

    async def run_before(pilot):
        await open_then_wait("ctrl+o", lambda app: app.screen.review is not None)(pilot)
        await pilot.press("s")
        for _ in range(200):
            await _ready(pilot)
            if pilot.app.screen.review is not None and not pilot.app.screen.whole:
                break
            await pilot.pause(0.05)
        await _ready(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_sessions(snap_compare, demo_repo):
    run_before = open_then_wait("5", lambda app: app.transcripts is not None and app.transcripts.indexed)
    assert snap_compare(_repo_app(demo_repo), terminal_size=(80, 24), run_before=run_before)


def test_tiers_dialog(snap_compare, app):
    async def run_before(pilot):
        await _ready(pilot)
        pilot.app.action_tiers()
        await _ready(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_context_view(snap_compare, sample_repo_copy):
    """Key 7 on the sample repository: each agent's start-up files as bars, the import tree."""
    from curator.model.sources import discover

    app = make_app(sample_repo_copy, given="sample_memories", token_counter=FakeTokenCounter(),
                   theme="curator-dark", remember_theme=False, layout=discover(sample_repo_copy))

    async def run_before(pilot):
        from tests.pilot.conftest import wait_until

        await _ready(pilot)
        await wait_until(pilot, lambda: pilot.app.context_model is not None)
        await pilot.press("7")
        await _ready(pilot)
        await pilot.pause(TIMERS)
        await _ready(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_context_view_with_sessions(snap_compare, demo_repo):
    """The demo's sessions held against the model: each file seen in N sessions (the last day) or
    never seen; AGENTS.md, loaded by one session although the rules say never, is marked ✖ and
    its line says which rule predicted otherwise."""
    async def run_before(pilot):
        from tests.pilot.conftest import wait_until

        await _ready(pilot)
        await wait_until(pilot, lambda: pilot.app.proof is not None, timeout=30)
        await pilot.press("7")
        await _ready(pilot)
        await pilot.press("f", "end")
        await pilot.pause(TIMERS)
        await _ready(pilot)

    assert snap_compare(_repo_app(demo_repo), terminal_size=(80, 24), run_before=run_before)


def test_sessions_that_loaded_a_file(snap_compare, demo_repo):
    """Enter on a file of the Context view: the sessions that loaded it, and Esc for all."""
    async def run_before(pilot):
        from tests.pilot.conftest import wait_until

        await _ready(pilot)
        await wait_until(pilot, lambda: pilot.app.proof is not None, timeout=30)
        await pilot.press("7")
        await _ready(pilot)
        await pilot.press("f", "end", "enter")
        await wait_until(pilot, lambda: pilot.app.screen.__class__.__name__ == "SessionsScreen")
        await pilot.pause(TIMERS)
        await _ready(pilot)

    assert snap_compare(_repo_app(demo_repo), terminal_size=(80, 24), run_before=run_before)
