"""The budgets screen draws the store's growth over its git history, read in a worker."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from textual.widgets import Sparkline, Static

from curator.base.tokens import FakeTokenCounter
from curator.tui.app import make_app
from curator.tui.screens import BudgetsScreen
from tests.pilot.conftest import back_to_start, settle, step_named, text_of


def git(cwd, *args):
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture
def git_store(sample_copy, tmp_path, monkeypatch):
    """The sample store committed twice in a temporary repository, then grown in the work tree."""
    for var, value in (("GIT_AUTHOR_NAME", "t"), ("GIT_AUTHOR_EMAIL", "t@example.com"),
                       ("GIT_COMMITTER_NAME", "t"), ("GIT_COMMITTER_EMAIL", "t@example.com"),
                       ("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig")), ("GIT_CONFIG_NOSYSTEM", "1")):
        monkeypatch.setenv(var, value)
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "add", "-A", "memories")
    git(tmp_path, "commit", "-q", "-m", "store")
    (sample_copy / "knowledge" / "growth-note.md").write_text("# Growth\n\n" + "word " * 300, encoding="utf-8")
    git(tmp_path, "add", "-A", "memories")
    git(tmp_path, "commit", "-q", "-m", "more")
    (sample_copy / "knowledge" / "growth-draft.md").write_text("# Draft\n\n" + "word " * 100, encoding="utf-8")
    return sample_copy


async def open_budgets(app, pilot) -> BudgetsScreen:
    await settle(app, pilot)
    await pilot.press("3")
    await settle(app, pilot)
    screen = app.screen
    assert isinstance(screen, BudgetsScreen)
    return screen


async def _budgets_draws_the_growth_at(app, pilot, size):
    screen = await open_budgets(app, pilot)
    line = screen.query_one("#growth-line", Sparkline)
    assert line.display and len(line.data) == 3  # two commits, then the work tree
    assert list(line.data) == sorted(line.data) and line.data[0] < line.data[-1]
    assert line.size.width <= size[0]
    title = text_of(screen.query_one("#growth-title", Static))
    legend = text_of(screen.query_one("#growth-legend", Static))
    assert "2 commits" in title
    assert "→ now" in legend and "≈+" in legend and legend.count("files") == 2
    assert "no git history" not in legend


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
async def test_budgets_draws_the_growth_of_a_store_in_git_at_80_and_120_columns(git_store):
    """One launch (a launch is ~1 s of CPU): the budgets screen drawn new at 80×24, then drawn new
    again (its first visit once more) at 120×36."""
    app = make_app(git_store, given="memories", token_counter=FakeTokenCounter(), theme="curator-dark")
    async with app.run_test(size=(80, 24)) as pilot:
        for size in ((80, 24), (120, 36)):
            await back_to_start(app, pilot, size, fresh=("budgets",))
            with step_named(f"budgets at {size[0]}×{size[1]}"):
                await _budgets_draws_the_growth_at(app, pilot, size)


async def test_budgets_says_when_there_is_no_git_history(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_budgets(app, pilot)
        assert not screen.query_one("#growth-line", Sparkline).display
        title = text_of(screen.query_one("#growth-title", Static))
        assert "Growth over git history" in title and "no git history (not in a git repository)" in title
