"""The header's start-up bar shows the one start-up number (`budgets.startup.startup_of`) and,
for Claude Code's MEMORY.md, the lines its loader cuts, at any width."""

from __future__ import annotations

import json

from curator.base.tokens import FakeTokenCounter
from curator.budgets.startup import startup_of
from curator.tui.app import make_app
from curator.tui.widgets import BudgetBar
from tests.pilot.conftest import back_to_start, step_named


async def test_the_claude_header_shows_startup_tokens_and_the_lines_past_the_cap(tmp_path):
    """At 80×24, then resized to 160×30 on the same launch (a launch is ~1 s of CPU)."""
    memory = tmp_path / "repo" / ".claude" / "memory"
    memory.mkdir(parents=True)
    topics = [f"topic_{i:03d}" for i in range(210)]
    for name in topics[:3]:
        (memory / f"{name}.md").write_text(f"---\nname: {name}\ndescription: d\ntype: project\n---\n# {name}\n")
    (memory / "MEMORY.md").write_text("# Memory\n" + "".join(f"- [{n}]({n}.md) — hook\n" for n in topics))
    # your local settings make the committed folder this checkout's auto memory: capped at start-up
    (memory.parent / "settings.local.json").write_text(json.dumps({"autoMemoryDirectory": str(memory)}))
    app = make_app(tmp_path / "repo", token_counter=FakeTokenCounter(), theme="curator-dark", remember_theme=False)
    widths = []
    async with app.run_test(size=(80, 24)) as pilot:
        for size in ((80, 24), (160, 30)):
            await back_to_start(app, pilot, size)
            with step_named(f"header at {size[0]}×{size[1]}"):
                bar = app.screen.query_one(BudgetBar)
                shown = bar.render().plain
                st = startup_of(app.workspace.store)
                assert st.past_cap_lines == 11 and st.tokens > 0
                assert bar.used == st.tokens and bar.budget == 0
                # the numbers whole at any width (where room is short the word goes first)
                assert shown.endswith(f"{st.tokens:,} tok · 11 lines cut") and len(shown) <= bar.size.width
                widths.append(bar.size.width)
        assert widths[0] < widths[1], widths  # the bar did take the wider terminal's room


async def test_a_committed_memory_folder_says_why_it_loads_nothing_in_full_at_80x24(tmp_path):
    """Budgets: start-up 0 and the reason, wrapped under the number, never cut at the edge."""
    from tests.pilot.conftest import settle

    memory = tmp_path / "repo" / ".claude" / "memory"
    memory.mkdir(parents=True)
    (memory / "a.md").write_text("---\nname: a\ndescription: d\ntype: project\n---\n# A\n")
    (memory / "MEMORY.md").write_text("# Memory\n" + "".join(f"- [t{i}](a.md) — hook\n" for i in range(210)))
    app = make_app(tmp_path / "repo", token_counter=FakeTokenCounter(), theme="curator-dark", remember_theme=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("3")
        await settle(app, pilot)
        box = app.screen.query_one("#startup")
        shown = "\n".join(box.render_line(y).text for y in range(box.size.height))  # as the screen shows it
        flat = " ".join(shown.split())
        assert "Start-up load 0 tokens" in flat and "…" not in shown.split("Tokens per")[0]
        assert "committed in the repository" in flat and "lines past its cap)" in flat
