"""A store-wide finding (path ".") is named as the store, never as a bare dot."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from curator.base.tokens import FakeTokenCounter
from curator.tui.app import make_app
from curator.tui.screens import ProblemsScreen
from tests.pilot.conftest import settle, text_of


@pytest.mark.parametrize(("opened", "named"), [("store", "the store"), ("repo", ".serena/memories")])
async def test_a_store_wide_finding_names_the_store(tmp_path, opened, named):
    store = tmp_path / "repo" / ".serena" / "memories"
    store.mkdir(parents=True)
    for name in ("deploy_notes", "auth_flow", "cache_layer"):
        (store / f"{name}.md").write_text(f"# {name}\n\n" + "many words in this memory " * 40 + "\n")
    (store / ".curator.yaml").write_text("budgets:\n  memory: 5\n")
    app = make_app(store if opened == "store" else tmp_path / "repo", token_counter=FakeTokenCounter(), theme="curator-dark", remember_theme=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        wide = [f for f in app.workspace.findings if f.path == "."]
        assert wide and wide[0].check == "budget.over"
        overview = " ".join(text_of(app.screen.query_one("#overview-body", Static)).split())
        assert f"budget.over {named} 3 of 3 memories" in overview and "memories/." not in overview
        await pilot.press("2")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, ProblemsScreen)
        row = [str(c) for c in screen.query_one("#problems").get_row_at(0)]
        assert "(store)" in row and "." not in row
        detail = text_of(screen.query_one("#problem-detail", Static))
        assert "the whole store:" in detail and "\n.  " not in detail
