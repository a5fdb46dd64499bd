"""The store tree's usage marks: reads in 90 days (or "unread") from the agent's transcripts,
between a record's name and its badges; none at all without transcripts; relabelled in place
when the sessions index moves on."""

from __future__ import annotations

import re
import shutil

import pytest

from curator.base.tokens import FakeTokenCounter
from curator.transcripts import slug
from curator.tui.app import make_app
from curator.tui.widgets import NodeRef, StoreTree
from curator.tui.widgets.store_tree import usage_mark
from tests.conftest import SAMPLE
from tests.pilot.conftest import drawn_lines, settle, wait_until
from tests.unit.transcripts import transcripts as tx

SID = "44444444-dddd-4eee-8fff-000000000004"
READ = "git/git-interactive-rebase.md"
UNREAD = "git/git-lfs-fixtures.md"
MARK = re.compile(r"(?:^| )(?:r\d+|unread)(?: |$)")


def read_memory(uuid: str, ts: str, name: str, sid: str, cwd: str) -> dict:
    return tx.assistant(uuid, ts, [tx.tool("mcp__serena__read_memory", {"memory_file_name": name})],
                        f"msg_{uuid}", sid=sid, cwd=cwd)


@pytest.fixture
def repo_app(tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    store = repo / ".serena" / "memories"
    shutil.copytree(SAMPLE, store)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))
    folder = tmp_path / "claude" / "projects" / slug(repo)
    objs = tx.well_formed(sid=SID, cwd=str(repo), day="2026-11-10") + [
        read_memory("r1", "2026-11-10T10:03:00.000Z", "git/git-interactive-rebase", SID, str(repo)),
        read_memory("r2", "2026-11-10T10:04:00.000Z", "git/git-interactive-rebase", SID, str(repo)),
    ]
    tx.write(folder / f"{SID}.jsonl", objs)
    return make_app(store, token_counter=FakeTokenCounter(), theme="curator-dark"), repo, folder


def label(tree: StoreTree, path: str) -> str:
    return str(tree.node_for(NodeRef(0, path)).label)


def nodes(tree: StoreTree) -> dict:
    """Every node the tree shows, folded folders' leaves built on demand."""
    return {ref: tree.node_for(ref) for ref in tree.refs}


async def test_read_memories_show_their_reads_and_unread_ones_are_marked(repo_app):
    app, repo, folder = repo_app
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        tree = app.screen.query_one(StoreTree)
        await wait_until(pilot, lambda: " r2 " in label(tree, READ))
        rec = app.workspace.store.records[READ]
        # the mark sits between the name and the badges; the token count stays last
        assert re.fullmatch(r"git-interactive-rebase\.md r2(?: [✖▲●]\d+)* [\d,.]+[kM]?", label(tree, READ))
        assert label(tree, READ).split()[-1] == str(rec.tokens)
        assert re.fullmatch(r"git-lfs-fixtures\.md unread(?: [✖▲●]\d+)* [\d,.]+[kM]?", label(tree, UNREAD))
        assert all(MARK.search(str(n.label)) for ref, n in nodes(tree).items()
                   if ref.path and app.workspace.store.records[ref.path].readable)
        assert "unread = never read" in tree.HELP  # f1 explains the marks where they show
        # groups carry no mark: their last number is still their tokens
        assert not any(MARK.search(str(n.label)) for ref, n in nodes(tree).items() if not ref.path)

        # at 80×24, every visible line keeps its mark and token count whole
        tree.root.expand_all()
        await settle(app, pilot)
        for y, line in enumerate(drawn_lines(tree)):
            line = line.rstrip(" ▕▇▆▅▄▃▂▁")
            node = tree.get_node_at_line(tree.scroll_offset.y + y)
            if node is not None and line and isinstance(node.data, NodeRef) and node.data.path:
                assert line.split()[-1] == str(node.label).split()[-1], line
                if MARK.search(str(node.label)):
                    assert MARK.search(line), line

        # the agent reads the unread memory in a new session: after re-indexing, the label
        # changes in place — same nodes, the cursor where it was
        app.screen.open_path(UNREAD)
        await settle(app, pilot)
        node = tree.cursor_node
        assert node.data == NodeRef(0, UNREAD)
        before = nodes(tree)
        other = "55555555-eeee-4fff-8aaa-000000000005"
        tx.write(folder / f"{other}.jsonl", [
            tx.prompt("u1", "rebase with lfs", "2026-11-19T09:00:00.000Z", sid=other, cwd=str(repo)),
            read_memory("r1", "2026-11-19T09:00:05.000Z", "git/git-lfs-fixtures", other, str(repo)),
        ])
        app.background.index_transcripts()
        await wait_until(pilot, lambda: " r1 " in label(tree, UNREAD))
        await settle(app, pilot)
        after = nodes(tree)
        assert after.keys() == before.keys() and all(after[k] is v for k, v in before.items())
        assert tree.cursor_node is node
        assert " r2 " in label(tree, READ)


async def test_no_transcripts_no_marks(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await wait_until(pilot, lambda: app.transcripts is not None and app.transcripts.indexed)
        await settle(app, pilot)
        tree = app.screen.query_one(StoreTree)
        labels = [str(n.label) for ref, n in nodes(tree).items() if ref.path]
        assert labels and not any(MARK.search(t) for t in labels)
        assert tree.HELP == StoreTree.BASE_HELP


class _Use:
    def __init__(self, reads: int, reads_90: int) -> None:
        self.reads, self.reads_90 = reads, reads_90


class _Usage:
    def __init__(self, **uses) -> None:
        self.by_path = {f"{k}.md": v for k, v in uses.items()}


class _Rec:
    def __init__(self, path: str, readable: bool = True) -> None:
        self.path, self.readable = path, readable


def test_usage_mark():
    usage = _Usage(recent=_Use(12, 12), old=_Use(3, 0), zero=_Use(0, 0))
    assert usage_mark(usage, _Rec("recent.md")) == "r12"
    assert usage_mark(usage, _Rec("old.md")) == "r0"  # read, but not in 90 days
    assert usage_mark(usage, _Rec("zero.md")) == "unread"
    assert usage_mark(usage, _Rec("never.md")) == "unread"
    assert usage_mark(usage, _Rec("recent.md", readable=False)) == ""
    assert usage_mark(None, _Rec("recent.md")) == ""  # no transcripts: no marks
