"""The header's start-up bar shows the one start-up number (`budgets.startup.startup_of`) and,
for Claude Code's MEMORY.md, the lines its loader cuts, at any width."""

from __future__ import annotations

import pytest

from curator.base.tokens import FakeTokenCounter
from curator.budgets.startup import startup_of
from curator.tui.app import make_app
from curator.tui.widgets import BudgetBar
from tests.pilot.conftest import settle


@pytest.mark.parametrize("size", [(80, 24), (160, 30)])
async def test_the_claude_header_shows_startup_tokens_and_the_lines_past_the_cap(tmp_path, size):
    memory = tmp_path / "repo" / ".claude" / "memory"
    memory.mkdir(parents=True)
    topics = [f"topic_{i:03d}" for i in range(210)]
    for name in topics[:3]:
        (memory / f"{name}.md").write_text(f"---\nname: {name}\ndescription: d\ntype: project\n---\n# {name}\n")
    (memory / "MEMORY.md").write_text("# Memory\n" + "".join(f"- [{n}]({n}.md) — hook\n" for n in topics))
    app = make_app(tmp_path / "repo", token_counter=FakeTokenCounter(), theme="curator-dark", remember_theme=False)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        bar = app.screen.query_one(BudgetBar)
        shown = bar.render().plain
        st = startup_of(app.workspace.store)
        assert st.past_cap_lines == 11 and st.tokens > 0
        assert bar.used == st.tokens and bar.budget == 0
        # the numbers whole at any width (where room is short the word goes first)
        assert shown.endswith(f"{st.tokens:,} tok · 11 lines cut") and len(shown) <= bar.size.width
