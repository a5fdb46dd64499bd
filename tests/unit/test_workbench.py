"""The headless session: one loader for the CLI and the app, new snapshots for changes on disk
(edit, addition, deletion, rename), the watcher (a fake event source and the real watchfiles)."""

from __future__ import annotations

import threading
import time

import pytest

from curator.base.tokens import FakeTokenCounter
from curator.live.workbench import Workbench, _ignored, open_workbench
from curator.model.loader import LoadOptions
from curator.model.sources import discover

INDEX = ("| Keywords | File |\n|---|---|\n"
         "| alpha beta gamma delta epsilon | [notes/a](notes/a.md) |\n"
         "| zeta eta theta iota kappa | [notes/b](notes/b.md) |\n")


@pytest.fixture
def root(make_store):
    return make_store({
        "memory-index.md": "| Keywords | File |\n|---|---|\n| notes | [notes-index](notes-index.md) |\n",
        "notes-index.md": INDEX,
        "notes/a.md": "# A\nalpha words here\n",
        "notes/b.md": "# B\nzeta words there\n",
    })


def session_of(root) -> Workbench:
    return open_workbench(discover(root), LoadOptions(given=str(root), token_counter=FakeTokenCounter()))


def checks_of(ws, path):
    return sorted(f.check for f in ws.findings if f.path == path)


def test_the_cli_loads_through_the_session(root):
    from curator.live.workbench import load_repository

    repo = load_repository(root, LoadOptions(token_counter=FakeTokenCounter()))
    session = session_of(root)
    assert [s.store.records.keys() for s in repo.loaded()] == [session.workspace.store.records.keys()]
    assert sorted(f.check for f in repo.findings()) == sorted(f.check for f in session.workspace.findings)


def test_an_edit_an_addition_a_deletion_and_a_rename_each_make_a_snapshot(root):
    session = session_of(root)
    first = session.workspace
    (root / "notes/a.md").write_text("# A\nalpha words here\n" + "## h\n" * 16)
    [swap] = session.changed([root / "notes/a.md"])
    assert swap.paths == ("notes/a.md",) and session.workspace is swap.workspace is not first
    assert "size.headings" in checks_of(session.workspace, "notes/a.md")
    assert session.workspace.store.records["notes/b.md"] is first.store.records["notes/b.md"]

    (root / "notes/c.md").write_text("# C\nnew\n")
    session.changed([root / "notes/c.md"])
    assert "notes/c.md" in session.workspace.store.records
    assert "orphan.unindexed" in checks_of(session.workspace, "notes/c.md")

    (root / "notes/b.md").unlink()
    session.changed([root / "notes/b.md"])
    assert "notes/b.md" not in session.workspace.store.records
    assert any(f.check == "index.missing-target" and f.target == "notes/b.md" for f in session.workspace.findings)

    (root / "notes/c.md").rename(root / "notes/b.md")
    session.changed([root / "notes/c.md", root / "notes/b.md"])
    records = session.workspace.store.records
    assert "notes/c.md" not in records and records["notes/b.md"].text == "# C\nnew\n"
    assert not any(f.check == "index.missing-target" for f in session.workspace.findings)
    assert session.workspace.report.total == session.workspace.store.total_tokens  # budgets follow


def test_a_change_swaps_in_a_new_repository_and_the_one_held_stays_as_it_was(root):
    import dataclasses

    bench = session_of(root)
    held = bench.repository()
    source, first = held.sources[0], held.sources[0].workspace
    (root / "notes/a.md").write_text("# A\nalpha words here\n" + "## h\n" * 16)
    [swap] = bench.changed([root / "notes/a.md"])
    now = bench.repository()
    assert now is not held and now.sources[0].workspace is swap.workspace is not first
    assert held.sources[0] is source and source.workspace is first  # a worker's copy never moves
    assert "size.headings" not in checks_of(first, "notes/a.md")
    assert now.sources[0].store is swap.workspace.store and now.sources[0].findings == swap.workspace.findings
    with pytest.raises(dataclasses.FrozenInstanceError):
        held.sources[0].workspace = swap.workspace
    with pytest.raises(dataclasses.FrozenInstanceError):
        held.cross = ()


def test_what_the_session_ignores(root):
    session = session_of(root)
    (root / ".curator").mkdir()
    (root / ".curator" / "note.md").write_text("journal\n")
    (root / "notes" / ".a.md.swp").write_text("swap")
    (root / "notes" / "4913").write_text("vim's probe")
    outside = root.parent / "elsewhere.md"
    outside.write_text("not the store\n")
    assert session.changed([root / ".curator/note.md", root / "notes/.a.md.swp", root / "notes/4913", outside]) == []
    assert session.changed([root / "notes/a.md"]) == []  # the same bytes: no new snapshot
    assert _ignored(str(root / "notes/a.md~")) and _ignored(str(root / ".curator/x.md"))
    assert not _ignored(str(root / "notes/a.md"))


def test_our_own_write_gives_one_snapshot(root):
    from curator.curation import plan_keywords

    session = session_of(root)
    plan = plan_keywords(session.workspace.store, "notes-index.md", "notes/a.md",
                         "alpha beta gamma delta epsilon lambda".split())
    jid, swap = session.apply(plan)
    assert jid and swap is not None
    assert "lambda" in session.workspace.store.domain_indexes["notes-index.md"].rows[0].keywords
    # the watcher then reports the same files: nothing is re-read into a new snapshot
    assert session.changed([root / e.path for e in plan.edits]) == []
    entry, back = session.undo()
    assert back is not None and "lambda" not in session.workspace.store.domain_indexes["notes-index.md"].rows[0].keywords


def test_the_watch_loop_with_a_fake_event_source(root):
    session = session_of(root)
    stop = threading.Event()
    seen, errors = [], []

    def events(roots, stop_event):
        assert root in roots
        (root / "notes/a.md").write_text("# A\nchanged\n")
        yield {root / "notes/a.md"}
        yield {root / "notes/a.md"}  # seen twice: one snapshot only
        raise RuntimeError("the folder went away")

    session.watch(seen.append, stop, events, errors.append)
    assert [[s.paths for s in batch] for batch in seen] == [[("notes/a.md",)]]
    assert [str(e) for e in errors] == ["the folder went away"]


def test_the_real_watcher_sees_an_edit_within_a_few_seconds(root):
    session = session_of(root)
    stop = threading.Event()
    got = threading.Event()
    seen = []

    def on_swaps(swaps):
        seen.extend(swaps)
        got.set()

    thread = threading.Thread(target=session.watch, args=(on_swaps, stop), daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not got.is_set() and time.monotonic() < deadline:
            (root / "notes/b.md").write_text(f"# B\nedited {time.monotonic()}\n")  # until the watcher is up
            got.wait(0.5)
        assert got.is_set(), "the watcher saw no change in 10 s"
        assert seen[0].paths == ("notes/b.md",)
        assert session.workspace.store.records["notes/b.md"].text.startswith("# B\nedited")
    finally:
        stop.set()
        thread.join(5)
    assert not thread.is_alive()


def test_a_cold_open_reads_each_memorys_facts_once_also_across_sources(sample_repo_copy, monkeypatch):
    """The cross-source duplicates take each memory's facts from its own source's checks: under
    the union's names they were computed a second time (a third of a cold open of the sample)."""
    from curator.checks import facts

    computed: list[str] = []
    real = facts.compute
    monkeypatch.setattr(facts, "compute", lambda text, *a: (computed.append(text), real(text, *a))[1])
    bench = session_of(sample_repo_copy)
    assert len(bench.loaded()) >= 2
    assert any("kept in" in f.message for f in bench.cross)  # the cross-source pass ran and found its pair
    assert computed and len(computed) == len(set(computed))
