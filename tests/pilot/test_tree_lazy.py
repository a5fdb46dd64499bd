"""The store tree fills folders lazily: a folded folder's leaves are built when it is opened,
highlighted, or a record in it is selected (Problems, the lab) — and then look exactly as if
they had been built up front, including after a change on disk seen while folded."""

from __future__ import annotations

from curator.tui.screens import MainScreen
from curator.tui.widgets import NodeRef, StoreTree
from tests.pilot.conftest import settle, text_of, wait_until

FOLDED = "git/git-lfs-fixtures.md"


def built(tree: StoreTree) -> set[str]:
    return {ref.path for ref in tree._path_nodes if ref.path}


def folder_node(tree: StoreTree, path: str):
    return tree._folder_of[NodeRef(0, path)]




async def test_folded_folders_build_no_leaves_until_opened(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        tree = app.screen.query_one(StoreTree)
        records = set(app.workspace.store.records)
        assert {ref.path for ref in tree.refs} == records  # every record is shown ...
        assert not built(tree)  # ... but no leaf exists while every folder is folded
        folder = folder_node(tree, FOLDED)
        assert len(folder.children) == 0 and folder.allow_expand  # still opens: the arrow shows
        folder.expand()
        await settle(app, pilot)
        names = [str(n.label).split()[0] for n in folder.children]
        store = app.workspace.store
        mine = store.records[FOLDED]
        expected = sorted(p for p, r in store.records.items()
                          if r.level == 2 and r.tier == mine.tier and r.folder == mine.folder)
        assert len(expected) > 1 and names == [store.records[p].name for p in expected]
        assert [n.data for n in folder.children] == [NodeRef(0, p) for p in expected]
        assert built(tree) == set(expected)  # only that folder's leaves
        folder.collapse()
        folder.expand()  # opened twice: built once
        await settle(app, pilot)
        assert len(folder.children) == len(expected)


async def test_a_problem_reveals_its_record_in_a_folded_folder(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        tree = app.screen.query_one(StoreTree)
        assert FOLDED not in built(tree)
        app.screen.open_path(FOLDED)  # what Problems and the lab call
        await settle(app, pilot)
        assert tree.cursor_node is not None and tree.cursor_node.data == NodeRef(0, FOLDED)
        node = tree.cursor_node
        parent = node.parent
        while parent is not None:
            assert parent.is_expanded
            parent = parent.parent
        assert tree.node_for(NodeRef(0, FOLDED)) is node
        assert tree.node_for(NodeRef(0, "no/such.md")) is None


async def test_a_highlighted_folder_lists_its_files(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        tree = app.screen.query_one(StoreTree)
        folder = folder_node(tree, FOLDED)
        folder.parent.expand()
        await settle(app, pilot)
        tree.move_cursor(folder)
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen) and app.screen.selected is None
        shown = text_of(app.screen.query_one("#group"))
        assert "git-lfs-fixtures.md" in shown and "0 file(s)" not in shown


async def test_an_edit_while_folded_shows_when_unfolded(live):
    app, events, root = live
    async with app.run_test(size=(80, 24)) as pilot:
        await events.ready(app, pilot)
        tree = app.screen.query_one(StoreTree)
        folder = folder_node(tree, FOLDED)
        assert FOLDED not in built(tree)
        first = app.workspace
        target = root / FOLDED
        target.write_text(target.read_text() + "## More\n" * 16)
        events.push(target)
        await wait_until(pilot, lambda: app.workspace is not first)
        await settle(app, pilot)
        assert folder_node(tree, FOLDED) is folder  # relabelled in place, not rebuilt
        assert "▲" in str(folder.label)  # the folder's badge counts the new warning
        folder.expand()
        await settle(app, pilot)
        node = tree._path_nodes[NodeRef(0, FOLDED)]
        assert node.parent is folder and "▲" in str(node.label)
        # and an edit while unfolded relabels the built leaf in place
        again = app.workspace
        target.write_text(target.read_text().replace("## More\n", ""))
        events.push(target)
        await wait_until(pilot, lambda: app.workspace is not again)
        await settle(app, pilot)
        assert tree._path_nodes[NodeRef(0, FOLDED)] is node and "▲" not in str(node.label)
