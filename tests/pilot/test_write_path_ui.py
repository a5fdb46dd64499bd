"""The app as one of two writers: a fix the CLI made while the app's preview was open is never
applied a second time; a store whose journal is unusable still opens for reading."""

from __future__ import annotations

import re

from curator.cli import main
from curator.tui.dialogs import DiffDialog
from curator.tui.screens import ProblemsScreen
from tests.pilot.conftest import settle


async def test_the_app_never_reapplies_a_fix_the_cli_made_meanwhile(app, sample_copy):
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        assert isinstance(app.screen, ProblemsScreen)
        await pilot.press("slash", *"release-pipeline", "enter")
        await settle(app, pilot)
        assert main(["fix", str(sample_copy)]) == 0  # the CLI fixes the store the app has loaded
        by_cli = {p: p.read_bytes() for p in sample_copy.rglob("*.md")}
        seen = []
        app.notify = lambda message, **kw: seen.append(message)  # what the user is told
        await pilot.press("x")  # the app plans from what it loaded: refused, not re-applied
        await settle(app, pilot)
        if isinstance(app.screen, DiffDialog):
            await pilot.press("y")
            await settle(app, pilot)
        assert {p: p.read_bytes() for p in sample_copy.rglob("*.md")} == by_cli
        assert any("changed on disk" in m for m in seen), seen
        assert not re.search(r"\(\d+\) \(\d+\)", (sample_copy / "memory-index.md").read_text())


async def test_a_symlinked_journal_folder_leaves_the_store_readable(app, sample_copy, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (sample_copy / ".curator").symlink_to(outside, target_is_directory=True)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(app, pilot)
        assert app.workspace is not None and app.workspace.store.records
    assert list(outside.iterdir()) == []
