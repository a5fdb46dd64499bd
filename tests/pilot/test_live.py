"""A live store: changes on disk reach the app's snapshot, tree and findings without a restart,
keeping the selection; worker failures surface; the lab follows a deletion; an open plan over a
file changed outside is made again, never applied over the change."""

from __future__ import annotations

from curator.base.tokens import FakeTokenCounter
from curator.tui.app import make_app
from curator.tui.dialogs import DiffDialog
from curator.tui.screens import MainScreen, RetrievalLabScreen
from curator.tui.widgets import NodeRef, StoreTree
from tests.pilot.conftest import settle, wait_until


def tree_paths(app) -> set[str]:
    tree = app.screen.query_one(StoreTree)
    return {ref.path for ref in tree.refs if isinstance(ref, NodeRef) and ref.path}


def checks_at(app, path: str) -> set[str]:
    return {f.check for f in app.workspace.findings if f.path == path}


async def test_an_edit_on_disk_shows_keeping_the_selection(live):
    app, events, root = live
    async with app.run_test(size=(120, 36)) as pilot:
        await events.ready(app, pilot)
        app.screen.open_path("git/git-lfs-fixtures.md")
        await settle(app, pilot)
        first = app.workspace
        tree = app.screen.query_one(StoreTree)
        node = tree._path_nodes[NodeRef(0, "git/git-lfs-fixtures.md")]
        assert "▲" not in str(node.label)
        target = root / "git/git-lfs-fixtures.md"
        target.write_text(target.read_text() + "## More\n" * 16)
        events.push(target)
        await wait_until(pilot, lambda: app.workspace is not first)
        assert "size.headings" in checks_at(app, "git/git-lfs-fixtures.md")
        assert isinstance(app.screen, MainScreen) and app.screen.selected == "git/git-lfs-fixtures.md"
        cursor = app.screen.query_one(StoreTree).cursor_node
        assert cursor is not None and cursor.data.path == "git/git-lfs-fixtures.md"
        # updated in place: the same node, relabelled with its new warning
        assert tree._path_nodes[NodeRef(0, "git/git-lfs-fixtures.md")] is node and "▲" in str(node.label)


async def test_another_files_change_keeps_the_open_record_as_it_is(live):
    from curator.tui.widgets import RecordView

    app, events, root = live
    async with app.run_test(size=(120, 36)) as pilot:
        await events.ready(app, pilot)
        app.screen.open_path("git/git-signed-commits.md")
        await settle(app, pilot)
        view = app.screen.query_one(RecordView)
        shown = view._shown[0]
        other = root / "git/git-worktree-parallel.md"
        other.write_text(other.read_text() + "\nmore\n")
        events.push(other)
        await wait_until(pilot, lambda: app.workspace is not shown)
        await settle(app, pilot)
        assert view._shown[0] is shown  # not re-rendered: its scroll stays where the reader left it
        mine = root / "git/git-signed-commits.md"
        mine.write_text(mine.read_text() + "\nmine changed\n")
        events.push(mine)
        await wait_until(pilot, lambda: view._shown[0] is app.workspace and view._shown[0] is not shown)
        assert "mine changed" in app.workspace.store.records["git/git-signed-commits.md"].text


async def test_an_addition_a_deletion_and_a_rename_show_in_the_tree(live):
    app, events, root = live
    async with app.run_test(size=(120, 36)) as pilot:
        await events.ready(app, pilot)
        app.screen.open_path("git/git-signed-commits.md")
        await settle(app, pilot)

        (root / "git/git-new-note.md").write_text("# New\nsomething new about git\n")
        events.push(root / "git/git-new-note.md")
        await wait_until(pilot, lambda: "git/git-new-note.md" in tree_paths(app))
        assert "orphan.unindexed" in checks_at(app, "git/git-new-note.md")

        (root / "git/git-lfs-fixtures.md").unlink()
        events.push(root / "git/git-lfs-fixtures.md")
        await wait_until(pilot, lambda: "git/git-lfs-fixtures.md" not in tree_paths(app))
        assert any(f.check == "index.missing-target" and f.target == "git/git-lfs-fixtures.md"
                   for f in app.workspace.findings)

        (root / "git/git-new-note.md").rename(root / "git/git-renamed-note.md")
        events.push(root / "git/git-new-note.md", root / "git/git-renamed-note.md")
        await wait_until(pilot, lambda: "git/git-renamed-note.md" in tree_paths(app))
        assert "git/git-new-note.md" not in tree_paths(app)
        assert app.screen.selected == "git/git-signed-commits.md"  # the selection stayed


async def test_a_failing_worker_is_one_notification_naming_it(app):
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(app, pilot)

        def boom() -> None:
            raise ValueError("the disk said no")

        app.run_worker(boom, name="re-reading the store", thread=True, exit_on_error=False)
        await wait_until(pilot, lambda: any("the disk said no" in str(n.message) for n in app.toasts))
        [note] = [n for n in app.toasts if "the disk said no" in str(n.message)]
        assert "re-reading the store failed" in str(note.message) and note.severity == "error"


async def test_the_lab_after_a_deletion_searches_the_new_snapshot(live):
    app, events, root = live
    async with app.run_test(size=(120, 40)) as pilot:
        await events.ready(app, pilot)
        await pilot.press("4")
        await settle(app, pilot)
        lab = app.screen
        assert isinstance(lab, RetrievalLabScreen)
        await wait_until(pilot, lambda: lab.engine is not None)
        await pilot.press(*"git lfs fixtures", "enter")
        await wait_until(pilot, lambda: lab.result is not None and lab.result.hits)
        gone = lab.result.hits[0].path
        lab.query_one("#why-path").value = gone
        (root / gone).unlink()
        events.push(root / gone)
        await wait_until(pilot, lambda: gone not in app.workspace.store.records)
        await wait_until(pilot, lambda: lab.engine_store is app.workspace.store and lab.result is not None)
        assert gone not in [h.path for h in lab.result.hits]
        lab._explain(gone)  # asking about the deleted file answers, never raises
        await settle(app, pilot)
        assert not [n for n in app.toasts if n.severity == "error"]


async def test_a_plan_over_a_file_changed_outside_is_made_again(live):
    app, events, root = live
    async with app.run_test(size=(120, 36)) as pilot:
        await events.ready(app, pilot)
        app.action_refresh_counts()
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, DiffDialog)
        index = root / "memory-index.md"
        assert "memory-index.md" in {e.path for e in dialog.plan.edits}
        edited = index.read_text() + "\nA line someone added.\n"
        index.write_text(edited)
        events.push(index)
        await wait_until(pilot, lambda: isinstance(app.screen, DiffDialog) and app.screen is not dialog)
        again = app.screen.plan
        assert [e.before for e in again.edits if e.path == "memory-index.md"] == [edited.encode()]
        await wait_until(pilot, lambda: any("memory-index.md" in str(n.message) and "made again" in str(n.message)
                                            for n in app.toasts))
        await pilot.press("y")
        await settle(app, pilot)
        assert "A line someone added." in index.read_text()  # applied over the new bytes, kept


async def test_an_apply_whose_file_changed_on_disk_is_planned_again_and_keeps_the_edit(live):
    app, events, root = live
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(app, pilot)
        app.action_refresh_counts()
        await settle(app, pilot)
        assert isinstance(app.screen, DiffDialog)
        shown = app.screen.plan
        index = root / "memory-index.md"
        index.write_text(index.read_text() + "\nEdited outside, no event yet.\n")
        await pilot.press("y")
        await settle(app, pilot)
        # made again from the file as it is: the same changes, so applied (issue 20), the edit kept
        assert not isinstance(app.screen, DiffDialog)
        text = index.read_text()
        assert "Edited outside, no event yet." in text
        assert all(line[1:] in text for line in shown.diff().splitlines() if line.startswith("+") and not line.startswith("+++"))


async def test_the_real_watcher_updates_the_app(sample_copy, monkeypatch):
    monkeypatch.delenv("CURATOR_NO_WATCH")
    app = make_app(sample_copy, given="sample_memories", token_counter=FakeTokenCounter(), theme="curator-dark")
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(app, pilot)
        await wait_until(pilot, lambda: app.watchers.stop_event is not None)
        new = sample_copy / "git/git-watched.md"
        import time

        deadline = time.monotonic() + 15
        while "git/git-watched.md" not in app.workspace.store.records and time.monotonic() < deadline:
            new.write_text(f"# Watched\nwritten at {time.monotonic()}\n")  # until the watcher is up
            await pilot.pause(0.3)
        assert "git/git-watched.md" in app.workspace.store.records
        await wait_until(pilot, lambda: "git/git-watched.md" in tree_paths(app))


async def test_the_problems_cursor_stays_on_its_finding_when_a_new_one_comes_before_it(live):
    from curator.tui.widgets.table import RowTable

    app, events, root = live
    async with app.run_test(size=(120, 36)) as pilot:
        await events.ready(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        screen = app.screen
        table = screen.query_one(RowTable)
        table.focus()
        table.move_cursor(row=5)
        await settle(app, pilot)
        picked = screen.shown[5]
        new = root / "aaa-first" / "broken.md"
        new.parent.mkdir()
        new.write_text("---\nname: never closed\n")  # frontmatter.invalid: an error, sorted first
        events.push(new)
        await wait_until(pilot, lambda: any(x.finding.path == "aaa-first/broken.md" for x in screen.shown))
        await settle(app, pilot)
        assert screen.shown.index(picked) == 6  # it moved down one row ...
        assert table.cursor_row == 6  # ... and the cursor with it
