"""Store snapshots: frozen after loading; `evolve(paths)` reads only those files again, shares
every unchanged record, and recomputes a derived view only when what it reads changed."""

from __future__ import annotations

import pytest

from curator.base.config import Config
from curator.base.tokens import FakeTokenCounter
from curator.model import load_store
from curator.model.store import INDEXES, TEXT, FrozenStore

INDEX = "| Keywords | File |\n|---|---|\n| alpha beta gamma delta eps | [notes/a](notes/a.md) |\n"


@pytest.fixture
def store_root(make_store):
    return make_store({
        "notes-index.md": INDEX,
        "notes/a.md": "# A\nzebra zebra\n",
        "notes/b.md": "# B\nzebra\n",
        "notes/c.md": "# C\nyak\n",
    })


def load(root):
    return load_store(root, config=Config(), token_counter=FakeTokenCounter())


def test_a_loaded_store_is_frozen(store_root):
    store = load(store_root)
    with pytest.raises(FrozenStore):
        store.records = {}
    with pytest.raises(FrozenStore):
        store.encoding = "estimate"


def test_an_edit_is_a_new_snapshot_sharing_the_unchanged_records(store_root):
    store = load(store_root)
    (store_root / "notes/b.md").write_text("# B\nyak yak yak\n")
    new = store.evolve(["notes/b.md"])
    assert new is not store and new.frozen
    assert new.records["notes/b.md"].text == "# B\nyak yak yak\n"
    assert store.records["notes/b.md"].text == "# B\nzebra\n"  # the old snapshot is untouched
    assert new.records["notes/a.md"] is store.records["notes/a.md"]
    assert new.records["notes/c.md"] is store.records["notes/c.md"]
    assert new.records["notes/b.md"].tokens is not None  # counted by the snapshot's counter
    assert list(new.records) == list(store.records)  # order kept


def test_an_addition_a_deletion_and_a_rename(store_root):
    store = load(store_root)
    (store_root / "notes/d.md").write_text("# D\nnew\n")
    added = store.evolve(["notes/d.md"])
    assert "notes/d.md" in added.records and "notes/d.md" not in store.records
    assert list(added.records) == sorted(added.records)
    (store_root / "notes/c.md").unlink()
    deleted = added.evolve(["notes/c.md"])
    assert "notes/c.md" not in deleted.records and "notes/c.md" in added.records
    (store_root / "notes/a.md").rename(store_root / "notes/a2.md")
    renamed = deleted.evolve(["notes/a.md", "notes/a2.md"])
    assert "notes/a.md" not in renamed.records and renamed.records["notes/a2.md"].text.startswith("# A")
    # the index still points at the old name: the route is there, the file is not
    assert "notes/a.md" in renamed.routes_to


def test_the_same_bytes_give_the_same_snapshot(store_root):
    store = load(store_root)
    (store_root / "notes/a.md").write_text("# A\nzebra zebra\n")  # rewritten, unchanged
    assert store.evolve(["notes/a.md"]) is store
    assert store.evolve(["notes/never.md"]) is store
    assert store.evolve([]) is store


def test_hidden_curator_and_non_markdown_paths_are_never_records(store_root):
    store = load(store_root)
    (store_root / ".curator").mkdir()
    (store_root / ".curator" / "x.md").write_text("journal\n")
    (store_root / "notes" / ".a.md.swp").write_text("swap\n")
    (store_root / "notes" / "a.md~").write_text("backup\n")
    assert store.evolve([".curator/x.md", "notes/.a.md.swp", "notes/a.md~"]) is store


def test_views_are_recomputed_only_when_their_inputs_change(store_root):
    store = load(store_root)
    builds = []

    def words():
        builds.append("words")
        return sum(len(r.text) for r in store.memories())

    store.view("t.words", words, reads={TEXT})
    store.view("t.rows", lambda: builds.append("rows") or 1, reads={INDEXES})
    routes = store.routes_to
    (store_root / "notes/b.md").write_text("# B\nchanged\n")
    edited = store.evolve(["notes/b.md"])
    assert "t.rows" in edited._views and "t.words" not in edited._views
    assert edited.routes_to is routes  # an edited memory keeps the routes
    (store_root / "notes-index.md").write_text(INDEX.replace("[notes/a](notes/a.md)", "[notes/b](notes/b.md)"))
    reindexed = edited.evolve(["notes-index.md"])
    assert "t.rows" not in reindexed._views
    assert "notes/b.md" in reindexed.routes_to and "notes/a.md" not in reindexed.routes_to
    assert builds == ["words", "rows"]


def test_suggestions_follow_an_edited_memory(store_root):
    from curator.curation import suggest

    store = load(store_root)
    assert "zebra" in suggest(store, "zebra yak", "notes-index.md")
    (store_root / "notes/c.md").write_text("# C\nzebra\n")
    (store_root / "notes/b.md").write_text("# B\nyak\n")
    new = store.evolve(["notes/b.md", "notes/c.md"])
    df_old = store.view("curation.document_frequency", lambda: None)
    df_new = new.view("curation.document_frequency", lambda: pytest.fail("built already"))  \
        if "curation.document_frequency" in new._views else None
    assert df_new is None  # the memories changed: the word statistics are built again
    suggest(new, "zebra yak", "notes-index.md")
    assert new.view("curation.document_frequency", lambda: None)[0]["yak"] == 1
    assert df_old[0]["yak"] == 1 and df_old[0]["zebra"] == 2


def test_a_new_symlink_leaving_the_store_is_reported_never_read(store_root, tmp_path):
    secret = tmp_path / "secret.md"
    secret.write_text("# not yours\n")
    store = load(store_root)
    (store_root / "notes/link.md").symlink_to(secret)
    new = store.evolve(["notes/link.md"])
    assert "notes/link.md" not in new.records
    assert [(f.check, f.path) for f in new.load_findings if f.path == "notes/link.md"] == [
        ("index.unsafe-target", "notes/link.md")]
