"""A narrow lab names each result by as much of its path as tells it from the others: perfice
keeps a core.md at the top, in client/ and in server/, and the 80-column table showed three rows
of `core.md`."""

from __future__ import annotations

from curator.reports.fitting import unique_tails
from tests.pilot.conftest import search_in_lab, settle

BODY = {"": "The gateway forwards requests to the sync service; deploy both together.\n",
        "client/": "The client sends requests to the gateway, which forwards them to the sync service.\n",
        "server/": "The sync service answers requests the gateway forwards, after checking the session.\n"}


def test_unique_tails_keep_folders_only_where_names_repeat():
    got = unique_tails(["core.md", "client/core.md", "server/core.md", "server/sync.md", "a/b/x.md", "c/b/x.md"])
    assert got == {"core.md": "core.md", "client/core.md": "client/core.md", "server/core.md": "server/core.md",
                   "server/sync.md": "sync.md", "a/b/x.md": "a/b/x.md", "c/b/x.md": "c/b/x.md"}
    assert unique_tails([]) == {} and unique_tails(["x.md", "x.md"]) == {"x.md": "x.md"}


async def test_an_80_column_lab_tells_same_named_memories_apart(app, sample_copy):
    for folder in ("", "client/", "server/"):
        path = sample_copy / f"{folder}core.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# Core {folder or 'top'}\n\n{BODY[folder]}")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await search_in_lab(app, pilot, "gateway forwards requests to the sync service")
        await settle(app, pilot)
        table = screen.query_one("#fused")
        names = {r.value: str(table.get_row(r.value)[1]).strip() for r in table.rows}
        cores = {k: v for k, v in names.items() if k.endswith("core.md")}
        assert cores == {"core.md": "core.md", "client/core.md": "client/core.md",
                         "server/core.md": "server/core.md"}, names
