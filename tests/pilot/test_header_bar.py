"""The header's start-up bar keeps its unit on a narrow terminal."""

from __future__ import annotations

import pytest

from curator.tokens import FakeTokenCounter
from curator.tui.app import make_app
from curator.tui.widgets import BudgetBar
from tests.pilot.conftest import settle


@pytest.mark.parametrize(("size", "label"), [((80, 24), "lines "), ((160, 30), "MEMORY.md lines ")])
async def test_the_claude_line_bar_says_lines_at_any_width(tmp_path, size, label):
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
        assert bar.budget == 200 and bar.used == 211
        assert shown.startswith(label) and shown.endswith(" 211/200 over")
