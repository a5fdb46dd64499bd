"""The review screen in a real git repository: changes grouped, the diff of the highlighted
change's file, Enter opens it; outside a repository it says so."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from curator.base.tokens import FakeTokenCounter
from curator.tui.app import make_app
from tests.pilot.conftest import palette_pick, run_steps, settle, text_of, wait_until

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

INDEX = "| Keywords | File |\n|---|---|\n"


def _git(root, *args):
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@x", "PATH": __import__("os").environ["PATH"],
                        "HOME": str(root)})


@pytest.fixture
def repo_store(tmp_path):
    root = tmp_path / "repo"
    store = root / ".serena" / "memories"
    (store / "api").mkdir(parents=True)
    (store / "memory-index.md").write_text("[Api]\n|api rest: [skills-api-index](skills-api-index.md) (0)\n")
    (store / "skills-api-index.md").write_text(INDEX + "| pagination cursor limit offset page | [api/api-paging](api/api-paging.md) |\n")
    (store / "api" / "api-paging.md").write_text("# Paging\n\nUse cursor pagination with a limit of 100.\n")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "init")
    (store / "api" / "api-paging.md").write_text("# Paging\n\nUse cursor pagination with a limit of 50.\n")
    with (store / "skills-api-index.md").open("a") as fh:
        fh.write("| retry backoff jitter idempotency keys | [api/api-retry](api/api-retry.md) |\n")
    return store


async def _review_groups_changes_and_shows_each_diff(app, pilot):
    from textual.widgets import DataTable, Static

    await settle(app, pilot)
    await app.run_action("show_view('review')")  # the palette's "review: ..." entry
    await settle(app, pilot)
    screen = app.screen
    table = screen.query_one("#review-changes", DataTable)
    await wait_until(pilot, lambda: table.row_count > 0)
    rows = [" ".join(str(c) for c in table.get_row_at(i)) for i in range(table.row_count)]
    assert any("records" in r and "modified" in r and "api/api-paging.md" in r for r in rows)
    assert any("index rows" in r and "added" in r and "api/api-retry.md" in r for r in rows)
    assert any("new" in r and "index.missing-target" in r for r in rows)
    summary = text_of(screen.query_one("#review-summary", Static))
    assert "against HEAD" in summary and "worse: 1 new finding (1 error)" in summary
    diff = text_of(screen.query_one("#review-diff", Static))
    assert "-Use cursor pagination with a limit of 100." in diff
    assert "+Use cursor pagination with a limit of 50." in diff
    await pilot.press("down")
    await pilot.pause()
    diff = text_of(screen.query_one("#review-diff", Static))
    assert "+| retry backoff jitter idempotency keys" in diff
    await pilot.press("up", "enter")
    await wait_until(pilot, lambda: app.current_view == "store")


async def test_review_outside_git_says_so(sample_copy):
    from textual.widgets import Static

    app = make_app(sample_copy, given="sample_memories", token_counter=FakeTokenCounter(), theme="curator-dark",
                   remember_theme=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await app.run_action("show_view('review')")
        await settle(app, pilot)
        await wait_until(pilot, lambda: "No review" in text_of(app.screen.query_one("#review-summary", Static)))
        assert "not in a git repository" in text_of(app.screen.query_one("#review-summary", Static))


async def _palette_opens_the_review(app, pilot):
    await settle(app, pilot)
    await palette_pick(app, pilot, "review: the memory")
    await wait_until(pilot, lambda: app.current_view == "review")


async def test_an_edit_elsewhere_keeps_the_cursor_on_the_same_change(repo_store):
    """The watcher's swap re-runs the review; the cursor stays on the change it was on, even when
    a new change now comes before it."""
    from textual.widgets import DataTable

    from tests.pilot.conftest import FakeEvents

    events = FakeEvents()
    app = make_app(repo_store, token_counter=FakeTokenCounter(), theme="curator-dark", remember_theme=False)
    app.watch_events = events
    async with app.run_test(size=(120, 36)) as pilot:
        await events.ready(app, pilot)
        await app.run_action("show_view('review')")
        await settle(app, pilot)
        table = app.screen.query_one("#review-changes", DataTable)
        await wait_until(pilot, lambda: table.row_count > 0)

        def under_cursor() -> str:
            return " ".join(str(c) for c in table.get_row_at(table.cursor_row))

        for _ in range(table.row_count):  # down to the new finding, the rows' last groups
            if "index.missing-target" in under_cursor():
                break
            await pilot.press("down")
        assert "index.missing-target" in under_cursor() and table.cursor_row > 0
        first, rows = app.workspace, table.row_count
        added = repo_store / "api" / "api-auth.md"  # a new record: it lists first, above the cursor
        added.write_text("# Auth\n\nSend the bearer token in the Authorization header.\n")
        events.push(added)
        await wait_until(pilot, lambda: app.workspace is not first and table.row_count > rows)
        await settle(app, pilot)
        assert "index.missing-target" in under_cursor()
        assert any("api/api-auth.md" in " ".join(map(str, table.get_row_at(i))) for i in range(table.row_count))


async def test_review_and_the_palette_on_one_launch(repo_store):
    """Both read-only steps on one launch (a launch is ~1 s of CPU): the review's groups and diffs,
    then, from the store screen, the palette's entry opening the review."""
    app = make_app(repo_store, token_counter=FakeTokenCounter(), theme="curator-dark", remember_theme=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await run_steps(app, pilot, ((None, (), _review_groups_changes_and_shows_each_diff),
                                     (None, (), _palette_opens_the_review)))
