"""A MEMORY.md copied into a repository with few of its topic files (4444J99/portfolio) is one
index.missing-target finding; the index view still marks every dead row, and only those."""

from __future__ import annotations

from textual.widgets import DataTable

from curator.base.tokens import FakeTokenCounter
from curator.tui.app import make_app
from curator.tui.widgets import IndexView
from tests.pilot.conftest import settle


async def test_the_index_view_marks_each_dead_row_of_a_partial_copy(tmp_path):
    store = tmp_path / ".claude" / "memory"
    store.mkdir(parents=True)
    rows = "".join(f"- [T{i}](topic_{i:02}.md) — a note\n" for i in range(24))
    (store / "MEMORY.md").write_text("# Memory\n" + rows)
    for i in (0, 1):
        (store / f"topic_{i:02}.md").write_text("---\nname: t\ndescription: d\ntype: project\n---\n# T\n")
    app = make_app(store, token_counter=FakeTokenCounter(), theme="curator-dark", remember_theme=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(app, pilot)
        assert [f.check for f in app.workspace.findings].count("index.missing-target") == 1
        app.screen.open_path("MEMORY.md")
        await settle(app, pilot)
        table = app.screen.query_one(IndexView).query_one(DataTable)
        marked = {str(table.get_row_at(i)[0]) for i in range(table.row_count)
                  if "error" in str(table.get_row_at(i)[3].style)}
        assert marked == {str(line) for line in range(4, 26)}  # the rows of topic_02 … topic_23
