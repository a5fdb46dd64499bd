"""The write path from the app: every change is previewed as a diff, applied, undoable."""

from __future__ import annotations

from textual.widgets import Input, Select

from curator.tui.dialogs import DiffDialog, KeywordDialog, PromoteDialog
from curator.tui.screens import MainScreen, ProblemsScreen
from tests.pilot.conftest import settle, text_of


async def test_fix_from_problems_then_undo(app, sample_copy):
    original = (sample_copy / "skills-ci-index.md").read_bytes()
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, ProblemsScreen)
        await pilot.press("slash", *"release-pipeline", "enter")
        await settle(app, pilot)
        assert screen.shown[0].finding.check == "index.missing-target"
        await pilot.press("x")
        await settle(app, pilot)
        assert isinstance(app.screen, DiffDialog)
        assert "ci/ci-release-workflow.md" in text_of(app.screen.query_one("#diff-body"))
        await pilot.press("y")
        await settle(app, pilot)
        assert b"ci/ci-release-workflow.md" in (sample_copy / "skills-ci-index.md").read_bytes()
        assert "index.missing-target" not in {
            f.check for f in app.workspace.findings if f.path == "skills-ci-index.md"
        }
        await pilot.press("ctrl+z")
        await settle(app, pilot)
        assert (sample_copy / "skills-ci-index.md").read_bytes() == original


async def test_cancelled_preview_writes_nothing(app, sample_copy):
    before = (sample_copy / "memory-index.md").read_bytes()
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(app, pilot)
        app.action_refresh_counts()
        await settle(app, pilot)
        assert isinstance(app.screen, DiffDialog)
        await pilot.press("n")
        await settle(app, pilot)
        assert (sample_copy / "memory-index.md").read_bytes() == before
        assert not (sample_copy / ".curator" / "journal").exists()


async def test_promote_wizard(app, sample_copy):
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        screen.open_path("validation/2026-11-18-c0ffee.md")
        await settle(app, pilot)
        await pilot.press("p")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, PromoteDialog)
        dialog.query_one("#pr-index", Select).value = "skills-ci-index.md"
        dialog.query_one("#pr-dest", Input).value = "ci/ci-webhook-signing-rotation.md"
        await settle(app, pilot)
        assert "unique in skills-ci-index.md" in text_of(dialog.query_one("#pr-meter"))  # relative to what: its index
        await pilot.click("#preview")
        await settle(app, pilot)
        assert isinstance(app.screen, DiffDialog)
        await pilot.press("y")
        await settle(app, pilot)
        assert (sample_copy / "ci/ci-webhook-signing-rotation.md").exists()
        assert not (sample_copy / "validation/2026-11-18-c0ffee.md").exists()
        assert "ci/ci-webhook-signing-rotation.md" in app.workspace.store.routes_to


async def test_keyword_editor_meter_updates_as_you_type(app, sample_copy):
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        app.screen.open_path("skills-review-index.md")
        await settle(app, pilot)
        app.choices.edit_keywords("skills-review-index.md", 6)
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, KeywordDialog)
        low = text_of(dialog.query_one("#kw-meter"))
        field = dialog.query_one(Input)
        field.value = "pr size split stacked large-change diff-budget"
        await settle(app, pilot)
        high = text_of(dialog.query_one("#kw-meter"))
        assert low != high and "100%" in high
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, DiffDialog)
        await pilot.press("y")
        await settle(app, pilot)
        assert "stacked" in (sample_copy / "skills-review-index.md").read_text()


async def test_prune_screen_ticks_expired_records(app, sample_copy):
    from textual.widgets import SelectionList

    from curator.tui.dialogs import PruneDialog

    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        app.action_prune()
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, PruneDialog)
        ticked = sorted(dialog.query_one(SelectionList).selected)
        assert ticked == ["reflection/2026-09-22-session-review.md", "reflection/2026-10-15-review-bot-noise.md",
                          "validation/2026-09-30-ci-cache-key.md", "validation/2026-10-08-pool-size.md"]
        await pilot.click("#preview")
        await settle(app, pilot)
        assert isinstance(app.screen, DiffDialog)
        await pilot.press("y")
        await settle(app, pilot)
        assert (sample_copy / ".curator/archive/validation/2026-09-30-ci-cache-key.md").exists()
        assert not (sample_copy / "validation/2026-09-30-ci-cache-key.md").exists()


async def test_x_merges_a_memory_md_line_listed_twice_and_ctrl_z_restores_it(make_store):
    from curator.base.tokens import FakeTokenCounter
    from curator.tui.app import make_app

    topic = "---\nname: t\ndescription: d\ntype: project\n---\n# T\n"
    memory = "# Memory\n- [Testing](t.md) — PRs merged\n- [House method](t.md) — doctrine\n"
    root = make_store({"MEMORY.md": memory, "t.md": topic}, name="memory")
    app = make_app(root, given="memory", token_counter=FakeTokenCounter(), theme="curator-dark")
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        screen = app.screen
        row = next(i for i, x in enumerate(screen.shown) if x.finding.check == "index.duplicate-entry")
        screen.query_one("#problems").move_cursor(row=row)
        await pilot.press("x")
        await settle(app, pilot)
        assert isinstance(app.screen, DiffDialog)
        assert "PRs merged; House method: doctrine" in text_of(app.screen.query_one("#diff-body"))
        await pilot.press("y")
        await settle(app, pilot)
        assert (root / "MEMORY.md").read_text() == "# Memory\n- [Testing](t.md) — PRs merged; House method: doctrine\n"
        await pilot.press("ctrl+z")
        await settle(app, pilot)
        assert (root / "MEMORY.md").read_text() == memory
