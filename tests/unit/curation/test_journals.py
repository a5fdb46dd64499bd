"""Two journals (a store's, the repository's): the app's undo takes the newest applied
operation of either; the merged history names where each was written."""

from __future__ import annotations

from curator.curation import apply_plan, undo
from curator.curation.journals import distinct, merged_history, newest_applied
from curator.curation.plan import FileEdit, Plan


def _write(root, name: str, text: str, title: str) -> None:
    path = root / name
    before = path.read_bytes() if path.exists() else None
    apply_plan(root, Plan("fix", title, [FileEdit(name, before, text.encode())]))


def test_the_newest_applied_operation_wins_and_undone_ones_do_not_count(tmp_path):
    store, repo = tmp_path / "repo" / ".serena", tmp_path / "repo"
    store.mkdir(parents=True)
    journals = [("store", store), ("repository", repo)]
    assert newest_applied(journals) is None
    _write(store, "a.md", "a\n", "store op")
    _write(repo, "CLAUDE.md", "c\n", "repo op")
    assert newest_applied(journals) == ("repository", repo)
    undo(repo)
    assert newest_applied(journals) == ("store", store)
    _write(repo, "CLAUDE.md", "d\n", "repo op 2")
    assert newest_applied(journals) == ("repository", repo)
    items = merged_history(journals)
    assert [(it["where"], it["title"], it["state"]) for it in items] == [
        ("store", "store op", "applied"), ("repository", "repo op", "undone"), ("repository", "repo op 2", "applied")]


def test_a_store_at_the_repository_top_is_one_journal(tmp_path):
    assert distinct([("store", tmp_path), ("repository", tmp_path / "."), ("repository", None)]) == [("store", tmp_path)]
