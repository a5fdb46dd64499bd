"""x on an instruction finding in Problems (a broken @import with one file of its name): the
same plan as `curator fix --check instructions.import-broken`, shown as a diff, applied through
the journal at the repository root, followed by the findings; ctrl+z and the history cover it —
in a repository without memory (opened on the Context view) and beside a memory store."""

from __future__ import annotations

import os
from pathlib import Path

from curator.curation.quarantine import entries
from curator.tui.dialogs import DiffDialog, HistoryDialog
from tests.pilot.conftest import settle, wait_until
from tests.pilot.test_live_instructions import _app, _on_context_alone, _ready

BROKEN = "# Claude\n\nSee @elsewhere/only-here.md.\n"
FIXED = "# Claude\n\nSee @notes/only-here.md.\n"


def _broken_repo(tmp_path) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "notes").mkdir()
    (root / "notes" / "only-here.md").write_text("# Only here\n")
    (root / "CLAUDE.md").write_text(BROKEN)
    return root


def _broken(app) -> list:
    return [f for f in app.context_model.findings if f.check == "instructions.import-broken"]


async def _fix_the_import(app, pilot, root: Path) -> None:
    """On Problems: the broken import under the cursor, x, its diff, y; the model follows."""
    await pilot.press("2")
    await settle(app, pilot)
    await pilot.press("slash", *"import-broken", "enter")
    await settle(app, pilot)
    await pilot.press("x")
    await wait_until(pilot, lambda: isinstance(app.screen, DiffDialog))
    diff = app.screen.plan.diff()
    assert "-See @elsewhere/only-here.md.\n+See @notes/only-here.md.\n" in diff
    assert [e.path for e in app.screen.plan.edits] == ["CLAUDE.md"]
    await pilot.press("y")
    await wait_until(pilot, lambda: (root / "CLAUDE.md").read_text() == FIXED and not _broken(app))
    await settle(app, pilot)
    assert [e.state for e in entries(root)] == ["applied"]  # the repository's journal


async def _undo(app, pilot, root: Path) -> None:
    await pilot.press("ctrl+z")
    await wait_until(pilot, lambda: (root / "CLAUDE.md").read_text() == BROKEN and _broken(app))
    await settle(app, pilot)
    assert [e.state for e in entries(root)] == ["undone"]


async def test_x_fixes_a_broken_import_in_a_repository_without_memory_and_ctrl_z_undoes_it(tmp_path):
    root = _broken_repo(tmp_path)
    app = _app(root, layout=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await _on_context_alone(app, pilot)
        [finding] = _broken(app)
        assert finding.fix is not None
        await _fix_the_import(app, pilot, root)
        assert app.screen.query_one("#problems").row_count == 0
        await _undo(app, pilot, root)
        assert app.screen.query_one("#problems").row_count == 1
        app.action_history()
        await settle(app, pilot)
        assert isinstance(app.screen, HistoryDialog)
        assert app.screen.what == "the repository's instruction files"
        assert [(it["state"], it["title"]) for it in app.screen.items] == [("undone", "fix 1 instruction finding(s)")]


async def test_beside_a_memory_store_the_fix_journals_at_the_repository_root_not_the_store(sample_repo_copy):
    root = sample_repo_copy
    (root / "notes").mkdir()
    (root / "notes" / "only-here.md").write_text("# Only here\n")
    (root / "CLAUDE.md").write_text(BROKEN)
    app = _app(root)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(app, pilot, key=None)
        store = Path(app.workbench.sources[app.workbench.current].root)
        assert os.path.realpath(store) != os.path.realpath(root)
        await _fix_the_import(app, pilot, root)
        assert entries(store) == []  # nothing in the store's journal
        app.action_history()
        await settle(app, pilot)
        assert app.screen.what == "this store and the repository's instruction files"
        assert [(it["where"], it["state"]) for it in app.screen.items] == [("repository", "applied")]
        await pilot.press("escape")
        await settle(app, pilot)
        await _undo(app, pilot, root)
        await pilot.press("ctrl+z")  # nothing left in either journal: said, nothing written
        await settle(app, pilot)
        assert (root / "CLAUDE.md").read_text() == BROKEN


async def test_x_fix_check_fixes_every_broken_import_of_the_check(tmp_path):
    root = _broken_repo(tmp_path)
    (root / "notes" / "other.md").write_text("# Other\n")
    (root / "CLAUDE.md").write_text(BROKEN + "And @elsewhere/other.md too.\n")
    app = _app(root, layout=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await _on_context_alone(app, pilot)
        assert len(_broken(app)) == 2
        await pilot.press("2")
        await settle(app, pilot)
        await pilot.press("X")
        await wait_until(pilot, lambda: isinstance(app.screen, DiffDialog))
        assert app.screen.plan.title == "fix 2 instruction finding(s)"
        await pilot.press("n")  # cancelled: nothing written, no journal entry
        await settle(app, pilot)
        assert (root / "CLAUDE.md").read_text() == BROKEN + "And @elsewhere/other.md too.\n"
        assert entries(root) == []


async def test_the_file_edited_while_its_diff_is_shown_makes_the_plan_again(tmp_path):
    root = _broken_repo(tmp_path)
    app = _app(root, layout=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await _on_context_alone(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        await pilot.press("x")
        await wait_until(pilot, lambda: isinstance(app.screen, DiffDialog))
        first = app.screen
        (root / "CLAUDE.md").write_text(BROKEN + "Edited meanwhile.\n")
        app.instruction_events.push(Path(os.path.realpath(root / "CLAUDE.md")))
        await wait_until(pilot, lambda: isinstance(app.screen, DiffDialog) and app.screen is not first)
        assert b"Edited meanwhile." in app.screen.plan.edits[0].before  # from the file as it is now
        await pilot.press("y")
        await wait_until(pilot, lambda: (root / "CLAUDE.md").read_text() == FIXED + "Edited meanwhile.\n")
