"""Store.invalidate drops what services derived from the store (`_cache_*`), not just routes."""

from __future__ import annotations

from curator.model import load_store


def test_reload_drops_service_caches(make_store):
    root = make_store({"notes/a.md": "# A\nalpha\n"})
    store = load_store(root)
    store._cache_words = {"alpha": 1}
    store._kept = "not a cache"
    (root / "notes/a.md").write_text("# A\nbeta\n")
    store.reload("notes/a.md")
    assert not hasattr(store, "_cache_words")
    assert store._kept == "not a cache"


def test_suggestions_follow_a_reloaded_memory(make_store):
    from curator.curation import suggest

    root = make_store({
        "notes-index.md": "| Keywords | File |\n|---|---|\n| one | [notes/a](notes/a.md) |\n",
        "notes/a.md": "# A\nzebra zebra\n",
        "notes/b.md": "# B\nzebra\n",
    })
    store = load_store(root)
    assert "zebra" in suggest(store, "zebra yak", "notes-index.md")
    (root / "notes/b.md").write_text("# B\nyak\n")
    store.reload("notes/b.md")
    _df, n = store._cache_curation_df if hasattr(store, "_cache_curation_df") else (None, None)
    assert n is None  # dropped on reload, rebuilt on the next suggestion
    suggest(store, "zebra yak", "notes-index.md")
    assert store._cache_curation_df[0]["yak"] == 1
