"""Enter on a folder-level finding in Problems (transient.expired collapsed to one line for a
folder of old logs) shows the records it covers and how to prune them, not an empty pane."""

from __future__ import annotations

from curator.base.tokens import FakeTokenCounter
from curator.tui.app import make_app
from curator.tui.screens import MainScreen
from curator.tui.widgets import RowTable
from tests.pilot.conftest import settle, text_of, wait_until


def _store(root):
    store = root / ".serena" / "memories"
    (store / "reflection").mkdir(parents=True)
    (store / "memory-index.md").write_text("[Api]\n|api: [skills-api-index](skills-api-index.md) (0)\n")
    (store / "skills-api-index.md").write_text("| Keywords | File |\n|---|---|\n")
    for i in range(1, 7):  # six expired logs in one folder: one finding for the folder
        (store / "reflection" / f"2025-01-0{i}-run.md").write_text(
            f"---\ndate: 2025-01-0{i}\ntask: t{i}\nstatus: done\n---\n# Log {i}\n\nWarm-up run {i} went fine.\n")
    return store


async def test_enter_on_a_folder_finding_lists_its_records(tmp_path):
    store = _store(tmp_path)
    app = make_app(store, token_counter=FakeTokenCounter(), theme="curator-dark", remember_theme=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        table = app.screen.query_one(RowTable)
        row = next(i for i, x in enumerate(app.screen.shown)
                   if x.finding.check == "transient.expired" and x.finding.path == "reflection")
        table.focus()
        table.move_cursor(row=row)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, MainScreen))
        await settle(app, pilot)
        facts = text_of(app.screen.query_one("#facts"))
        assert "no longer in the store" not in facts
        assert "reflection/" in facts and "transient.expired" in facts
        for i in range(1, 7):  # every record the finding covers, not only the message's examples
            assert f"reflection/2025-01-0{i}-run.md" in facts
        assert "x on Problems" in facts and "curator prune" in facts
