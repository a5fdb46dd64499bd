"""Each window of the write path where an outside editor (appends in place, O_APPEND, never takes
curator's lock) can strike, made deterministic: fault-injection hooks run "the editor" at an
exact point. In every one the operation lands whole or is refused whole, and every outside
edit ends in the file it was written to, once."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from curator.base.tokens import EstimateCounter
from curator.curation import ChangedOnDisk, apply_plan, journal, plan_keywords, undo
from curator.curation.apply import NO_MERGE, Conflict, rebase, recover
from curator.curation.quarantine import entries
from curator.model import load_store

STORE = {
    "memory-index.md": "# Memory Index\n\n|alpha beta gamma delta: [skills-a-index](skills-a-index.md) (3)\n",
    "skills-a-index.md": "| Keywords | File |\n|---|---|\n"
    + "".join(f"| k{i} w{i} x{i} y{i} z{i} | [a/m{i}](a/m{i}.md) |\n" for i in range(1, 4)),
    **{f"a/m{i}.md": f"# M{i}\n\nbody of memory {i}\n" for i in range(1, 4)},
}
INDEX, L0 = "skills-a-index.md", "memory-index.md"


def files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".curator" not in p.relative_to(root).parts}


def strays(root: Path) -> list[str]:
    return sorted(p.name for p in root.rglob(".*") if p.suffix in (".aside", ".tmp", ".mine", ".conflict"))


def plan(root: Path, word: str = "fresh"):
    store = load_store(root, token_counter=EstimateCounter())
    p = plan_keywords(store, INDEX, "a/m1.md", [word, "alpha", "beta"])
    assert [e.path for e in p.edits] == [INDEX, L0]  # the index first, then the L0 count
    return p


def append(path: Path, line: bytes) -> None:
    """What the editor does: open by name, append, close."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        os.write(fd, line)
    finally:
        os.close(fd)


def hook(monkeypatch, name: str, when, edit, after: bool = False):
    """Run `edit` once, just before (or just after) the first call of journal.<name> for which
    `when(*args)` holds."""
    real = getattr(journal, name)
    ran = []

    def hooked(*args):
        fire = not ran and when(*args)
        if fire and not after:
            ran.append(True)
            edit()
        out = real(*args)
        if fire and after:
            ran.append(True)
            edit()
        return out

    monkeypatch.setattr(journal, name, hooked)
    return ran


def is_aside_of(root, rel):
    return lambda p, *rest: Path(p).name.startswith(f".{Path(rel).name}.") and Path(p).name.endswith(".aside")


@pytest.fixture
def store(make_store):
    return make_store(STORE)


# -- rolling back a file someone appended to -----------------------------------------------


def test_an_append_to_an_applied_file_survives_the_rollback_of_its_operation(store, monkeypatch):
    """The L0 is edited just before curator moves it aside (refused), and the index, already
    written, gets an append too: the rollback puts the index back to before + that append."""
    before = files(store)
    p = plan(store)

    def editor():
        append(store / INDEX, b"<!-- edit to the index -->\n")
        append(store / L0, b"<!-- edit to the L0 -->\n")

    ran = hook(monkeypatch, "replace", lambda s, d: Path(s) == store / L0, editor)
    with pytest.raises(ChangedOnDisk):
        apply_plan(store, p)
    assert ran
    now = files(store)
    assert now[INDEX] == before[INDEX] + b"<!-- edit to the index -->\n"  # refused whole, edit kept
    assert now[L0] == before[L0] + b"<!-- edit to the L0 -->\n"
    assert entries(store)[-1].state == "rolled-back"
    assert strays(store) == []


def test_undo_refused_half_way_keeps_an_append_to_the_file_it_already_restored(store, monkeypatch):
    p = plan(store)
    apply_plan(store, p)
    after = files(store)

    def editor():
        append(store / INDEX, b"<!-- edit to the index -->\n")
        append(store / L0, b"<!-- edit to the L0 -->\n")

    ran = hook(monkeypatch, "replace", lambda s, d: Path(s) == store / L0, editor)
    with pytest.raises(ChangedOnDisk):
        undo(store)
    assert ran
    now = files(store)
    assert now[INDEX] == after[INDEX] + b"<!-- edit to the index -->\n"  # still the applied state
    assert now[L0] == after[L0] + b"<!-- edit to the L0 -->\n"
    assert entries(store)[-1].state == "applied"
    assert strays(store) == []


# -- a write through a handle opened before the move-aside ------------------------------------


def test_a_late_write_through_an_old_handle_and_an_append_to_the_new_file_are_both_kept(store, monkeypatch):
    """The editor opened the index before curator moved it aside and writes through that handle
    after the new file is in place (the bytes land in the moved-aside file), and also appends to
    the new file by name: the operation is refused whole and both edits stay in the index."""
    before = files(store)
    p = plan(store)
    handle = os.open(store / INDEX, os.O_WRONLY | os.O_APPEND)

    def editor():
        os.write(handle, b"<!-- through the old handle -->\n")
        os.close(handle)
        append(store / INDEX, b"<!-- to the new file -->\n")

    ran = hook(monkeypatch, "link_new", lambda s, d: Path(d) == store / INDEX, editor, after=True)
    with pytest.raises(ChangedOnDisk):
        apply_plan(store, p)
    assert ran
    now = files(store)
    assert now[INDEX] == before[INDEX] + b"<!-- through the old handle -->\n<!-- to the new file -->\n"
    assert now[L0] == before[L0]
    assert entries(store)[-1].state == "rolled-back"
    assert strays(store) == []


@pytest.mark.parametrize("after", [False, True], ids=["just-before-the-unlink", "just-after-the-unlink"])
def test_a_late_write_at_the_removal_of_the_moved_aside_file_is_not_lost(store, monkeypatch, after):
    """The last window: the moved-aside file has been checked and is being removed when the old
    handle writes. Curator reads it through its own descriptor after the unlink, so it sees the
    bytes, refuses the operation and gives them back."""
    before = files(store)
    p = plan(store)
    handle = os.open(store / INDEX, os.O_WRONLY | os.O_APPEND)

    def editor():
        os.write(handle, b"<!-- through the old handle -->\n")
        os.close(handle)

    ran = hook(monkeypatch, "remove", is_aside_of(store, INDEX), editor, after=after)
    monkeypatch.setattr(journal, "_no_writers", lambda fd, wait: False, raising=False)  # as where leases do not exist
    with pytest.raises(ChangedOnDisk):
        apply_plan(store, p)
    assert ran
    now = files(store)
    assert now[INDEX] == before[INDEX] + b"<!-- through the old handle -->\n"
    assert now[L0] == before[L0]
    assert strays(store) == []


def test_curator_waits_for_an_old_handle_to_close_before_it_removes_the_moved_aside_file(store, monkeypatch):
    """Where leases exist (Linux), the moved-aside file is removed only once no one holds it open
    for writing: a handle still open is waited for, and what it wrote is kept."""
    p = plan(store)
    before = files(store)
    handle = os.open(store / INDEX, os.O_WRONLY | os.O_APPEND)
    real = journal._no_writers
    seen = []

    def no_writers(fd, wait):
        if not seen:  # the first time: the handle is still open, so the lease is refused ...
            seen.append(real(fd, 0))
            os.write(handle, b"<!-- written, then closed -->\n")  # ... it writes and closes
            os.close(handle)
        return real(fd, wait)

    monkeypatch.setattr(journal, "_no_writers", no_writers)
    with pytest.raises(ChangedOnDisk):
        apply_plan(store, p)
    if seen != [False]:
        pytest.skip("no file leases here")
    assert files(store)[INDEX] == before[INDEX] + b"<!-- written, then closed -->\n"


def test_edits_to_the_same_lines_are_reported_as_a_conflict_and_nothing_is_lost(store, monkeypatch):
    """The editor rewrites the new file's row (same lines as curator's change) and wrote an old
    handle's bytes: the two cannot be put together, so the file keeps what is in it, the other
    version is kept beside it, and the refusal names the conflict."""
    p = plan(store)
    handle = os.open(store / INDEX, os.O_WRONLY | os.O_APPEND)
    theirs = b"their rewrite of the whole index\n"

    def editor():
        os.write(handle, b"<!-- through the old handle -->\n")
        os.close(handle)
        (store / INDEX).write_bytes(theirs)  # truncate and write in place: our inode

    hook(monkeypatch, "link_new", lambda s, d: Path(d) == store / INDEX, editor, after=True)
    with pytest.raises(Conflict, match="kept beside it"):
        apply_plan(store, p)
    assert (store / INDEX).read_bytes() == theirs
    conflict = [q for q in store.glob(".*.conflict")]
    assert len(conflict) == 1
    assert conflict[0].read_bytes() == STORE[INDEX].encode() + b"<!-- through the old handle -->\n"


def test_recovery_keeps_an_append_made_after_the_crash(store, monkeypatch):
    """A crash after the index was written; the editor then appends to it: recovery rolls the
    index back to before and keeps the append."""
    before = files(store)
    p = plan(store)

    class PowerCut(Exception):
        pass

    def cut():
        raise PowerCut

    hook(monkeypatch, "replace", lambda s, d: Path(s) == store / L0, cut)
    with pytest.raises(PowerCut):
        apply_plan(store, p)
    monkeypatch.undo()
    append(store / INDEX, b"<!-- after the crash -->\n")
    assert recover(store)
    assert files(store)[INDEX] == before[INDEX] + b"<!-- after the crash -->\n"
    assert files(store)[L0] == before[L0]
    assert entries(store)[-1].meta["kept_external_edits"] == [INDEX]


# -- the merge ----------------------------------------------------------------------------

lines = st.lists(st.sampled_from([b"a\n", b"b\n", b"| row |\n", b"\n", b"x y\n"]), max_size=8).map(b"".join)


@given(lines, lines, lines)
def test_appends_on_both_sides_always_merge_in_order(base, ours, theirs):
    merged = rebase(base, base + theirs, base + ours)
    assert merged == base + ours + theirs


@given(lines, lines)
def test_a_side_that_did_not_change_gives_the_other(base, other):
    assert rebase(base, base, other) == other
    assert rebase(base, other, base) == other


@given(st.lists(st.sampled_from([b"a\n", b"b\n", b"c\n"]), min_size=3, max_size=8), st.data())
def test_a_merge_keeps_both_changes_or_refuses(base_lines, data):
    """Change one line on each side: if they are different lines both changes are in the result,
    if it is the same line the merge refuses."""
    base = b"".join(base_lines)
    i = data.draw(st.integers(0, len(base_lines) - 1))
    j = data.draw(st.integers(0, len(base_lines) - 1))
    ours, theirs = list(base_lines), list(base_lines)
    ours[i], theirs[j] = b"OURS\n", b"THEIRS\n"
    merged = rebase(base, b"".join(theirs), b"".join(ours))
    if abs(i - j) <= 0:
        assert merged is NO_MERGE
    elif merged is not NO_MERGE:
        want = list(base_lines)
        want[i], want[j] = b"OURS\n", b"THEIRS\n"
        assert merged == b"".join(want)


def test_a_created_or_deleted_side_never_merges():
    assert rebase(b"a\n", None, b"b\n") is NO_MERGE
    assert rebase(None, b"a\n", b"b\n") is NO_MERGE
    assert rebase(b"a\n", b"a\nb\n", None) is NO_MERGE
    assert rebase(None, None, b"b\n") == b"b\n"


def test_a_file_without_a_final_newline_is_not_glued_to_an_append():
    assert rebase(b"a", b"a\nb\n", b"c") is NO_MERGE or rebase(b"a", b"a\nb\n", b"c") == b"c\nb\n"


def test_a_lease_break_notice_does_not_end_curator():
    """SIGIO (how the kernel tells a lease holder someone wants to write) must not kill us."""
    import signal
    import threading

    from curator.curation import journal

    if not hasattr(signal, "SIGIO") or threading.current_thread() is not threading.main_thread():
        pytest.skip("no SIGIO here")
    before = signal.getsignal(signal.SIGIO)
    try:
        signal.signal(signal.SIGIO, signal.SIG_DFL)
        journal._quiet_lease_breaks()
        assert signal.getsignal(signal.SIGIO) == signal.SIG_IGN
        os.kill(os.getpid(), signal.SIGIO)  # would end the test process with the default action
    finally:
        signal.signal(signal.SIGIO, before)
