"""An index named among changed paths whose bytes did not change keeps its rows (a watcher batch
naming a file curator wrote a moment ago beside one it writes now emptied the index pane)."""

from __future__ import annotations

from curator.model import load_store


def test_an_unchanged_index_among_changed_paths_keeps_its_rows(sample_copy):
    store = load_store(sample_copy)
    rows = len(store.domain_indexes["skills-ci-index.md"].rows)
    l0 = sample_copy / "memory-index.md"
    l0.write_text(l0.read_text() + "\n")
    new = store.evolve(["skills-ci-index.md", "memory-index.md"])
    assert new is not store and len(new.domain_indexes["skills-ci-index.md"].rows) == rows
    assert new.l0 is not None and len(new.l0.rows) == len(store.l0.rows)
