"""The per-store cache: keyed like git's index, never trusted across a same-tick edit, never
shared between stores, pruned when files go, and invisible in what the loader returns."""

from __future__ import annotations

import os
import time
from dataclasses import fields
from pathlib import Path

import pytest

from curator.base import cache as cache_mod
from curator.base.cache import RACY_SLACK_NS, StoreCache, is_fresh, store_cache
from curator.base.tokens import FakeTokenCounter
from curator.checks import run_checks
from curator.checks.facts import default_cache
from curator.model import load_store
from curator.model.reading import CachedRecord
from curator.model.records import Record

HOUR_NS = 3600 * 1_000_000_000

INDEX = (
    "| Keywords | File |\n|---|---|\n"
    "| rebase squash fixup reword onto | [git/rebase](git/rebase.md) |\n"
    "| worktree hotfix checkout prune venv | [git/worktree](git/worktree.md) |\n"
)
FILES = {
    "memory-index.md": "# Memory Index\n\n[Git]\n|git rebase worktree: [skills-git-index](skills-git-index.md) (12)\n",
    "skills-git-index.md": INDEX,
    "git/rebase.md": "# Rebase\n\n**Use when**: history is messy\n\nSquash the fixups. See [worktree](worktree.md).\n",
    "git/worktree.md": "# Worktree\n\nA second checkout for a hotfix. See [the docs](../../docs/WORKTREE.md).\n",
    "reflexion/2026-01-05-lock.md": (
        "---\ndate: 2026-01-05\nseverity: high\ntags: [lock, retry]\nwhen: 2026-01-05T10:00:00\n---\n"
        "# Lock timeout\n\n## Root Cause\nA held lock.\n"
    ),
    "notes/broken.md": "---\ntitle: [unclosed\n---\n# Broken frontmatter\n",
    "notes/binary.md": b"\x00\x01\x02 binary",
    "notes/latin.md": b"caf\xe9 au lait\n",
}


def _age(root: Path, seconds: int = 3600) -> None:
    """Give every file an mtime well in the past (so its entry is not racy)."""
    past = time.time() - seconds
    for p in root.rglob("*.md"):
        os.utime(p, (past, past))


def _plain(rec: Record) -> dict:
    return {f.name: getattr(rec, f.name) for f in fields(Record)} | {"chars": rec.chars}


def _load(root: Path, **kw):
    return load_store(root, token_counter=FakeTokenCounter(), **kw)


# -- the stat key and the racy rule --------------------------------------------------------


def test_fresh_only_when_the_key_matches_and_the_entry_is_not_racy():
    key = (120, 1_000 * HOUR_NS, 42, 1_000 * HOUR_NS)
    verified_later = (*key, key[1] + RACY_SLACK_NS + 1, "h", None, None, None, None, None)
    assert is_fresh(verified_later, key) is True
    for i in range(4):  # size, mtime, inode, ctime each matter
        changed = tuple(v + 1 if j == i else v for j, v in enumerate(key))
        assert is_fresh(verified_later, changed) is False
    same_tick = (*key, key[1], "h", None, None, None, None, None)  # read in the mtime's tick
    assert is_fresh(same_tick, key) is None  # racy: verify by content hash


def test_unchanged_store_is_loaded_without_reading_a_file(make_store):
    root = make_store(FILES)
    _age(root)
    first = _load(root)
    second = _load(root)
    cache = store_cache(root)
    assert cache.hits >= len(second.records) - 1  # every file but none (all aged)
    memories = [r for r in second.records.values() if r.level == 2 and r.readable]
    assert memories and all(isinstance(r, CachedRecord) for r in memories)
    assert all(Record.__dict__["text"].__get__(r) is None for r in memories)  # never read
    for path, rec in first.records.items():
        assert _plain(second.records[path]) == _plain(rec), path


def test_cached_load_equals_an_uncached_load(make_store, monkeypatch):
    root = make_store(FILES)
    _age(root)
    _load(root)
    cached = _load(root)
    plain = _load(root, use_cache=False)
    assert list(cached.records) == list(plain.records)
    for path, rec in plain.records.items():
        assert _plain(cached.records[path]) == _plain(rec), path
    assert cached.records["reflexion/2026-01-05-lock.md"].frontmatter["date"].isoformat() == "2026-01-05"
    assert cached.domain_indexes == plain.domain_indexes
    assert cached.l0 == plain.l0
    assert [f.message for f in cached.load_findings] == [f.message for f in plain.load_findings]
    expected = run_checks(plain, facts_cache=default_cache())
    assert run_checks(cached) == expected
    monkeypatch.setattr("curator.checks.FAMILIES", [])  # no check can run now
    again = run_checks(_load(root))  # so these are the cached findings
    assert again == expected

    def fixes(findings):
        return [(type(f.fix), f.fix, f.fix.description) for f in findings if f.fix is not None]

    assert fixes(expected) and fixes(again) == fixes(expected)


def test_an_edit_within_the_same_mtime_tick_is_never_trusted(make_store):
    root = make_store(FILES)
    f = root / "git/rebase.md"
    before = f.stat()
    _load(root)
    # the same size, the same mtime: only the bytes differ
    f.write_text(f.read_text().replace("Rebase", "Rebuse"), encoding="utf-8")
    os.utime(f, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = f.stat()
    cache = store_cache(root)
    entry = cache.entries["git/rebase.md"]
    # what a same-tick edit looks like to stat: inode and ctime equal too
    cache.entries["git/rebase.md"] = (after.st_size, after.st_mtime_ns, after.st_ino, after.st_ctime_ns, *entry[4:])
    assert is_fresh(cache.entries["git/rebase.md"], cache_mod.stat_key(after)) is None
    store = _load(root)
    assert store.records["git/rebase.md"].title == "Rebuse"


def test_a_racy_entry_whose_bytes_are_unchanged_is_trusted_after_verifying(make_store):
    root = make_store(FILES)
    _load(root)  # files written just now: every entry is racy
    cache = store_cache(root)
    cache.verified = 0
    store = _load(root)
    assert cache.verified >= 5  # hashed again, found equal, kept
    assert store.records["git/rebase.md"].title == "Rebase"


def test_a_changed_file_is_read_again(make_store):
    root = make_store(FILES)
    _age(root)
    _load(root)
    (root / "git/rebase.md").write_text("# Rebase, rewritten\n\nLonger text than before, by far.\n")
    store = _load(root)
    assert store.records["git/rebase.md"].title == "Rebase, rewritten"
    assert not isinstance(store.records["git/rebase.md"], CachedRecord)


# -- one cache per store -----------------------------------------------------------------


def test_two_stores_never_share_cache_entries(make_store):
    a = make_store(FILES, name="a")
    b = make_store(FILES, name="b")
    _age(a)
    _age(b)
    _load(a)
    _load(b)
    ca, cb = store_cache(a), store_cache(b)
    assert ca is not cb and ca.folder != cb.folder
    assert ca.folder.name != cb.folder.name
    # the same path with different bytes in b does not leak into a
    (b / "git/rebase.md").write_text("# Rebase in b\n")
    assert _load(b).records["git/rebase.md"].title == "Rebase in b"
    assert _load(a).records["git/rebase.md"].title == "Rebase"
    # a cache file copied from another store is not used
    (cb.folder / "store.marshal").write_bytes((ca.folder / "store.marshal").read_bytes())
    cache_mod.forget_open_caches()
    assert StoreCache(cb.folder, os.path.realpath(b)).entries == {}


def test_a_deleted_files_entry_is_pruned(make_store):
    root = make_store(FILES)
    _age(root)
    run_checks(_load(root))  # fills facts too
    cache = store_cache(root)
    assert "git/worktree.md" in cache.entries
    (root / "git/worktree.md").unlink()
    store = _load(root)
    assert "git/worktree.md" not in store.records
    assert "git/worktree.md" not in cache.entries
    cache_mod.forget_open_caches()
    on_disk = StoreCache(cache.folder, os.path.realpath(root))
    assert "git/worktree.md" not in on_disk.entries
    assert "git/rebase.md" in on_disk.entries
    assert "git/worktree.md" not in on_disk._facts_map()
    assert "git/rebase.md" in on_disk._facts_map()


def test_damaged_cache_files_only_cost_time(make_store):
    root = make_store(FILES)
    _age(root)
    _load(root)
    folder = store_cache(root).folder
    for name in ("store.marshal", "facts.marshal"):
        (folder / name).write_bytes(b"\x00garbage")
    cache_mod.forget_open_caches()
    store = _load(root)
    assert store.records["git/rebase.md"].title == "Rebase"


def test_other_code_starts_a_new_cache(make_store, monkeypatch):
    root = make_store(FILES)
    _age(root)
    _load(root)
    folder = store_cache(root).folder
    cache_mod.forget_open_caches()
    monkeypatch.setattr(cache_mod, "_code", "another version of curator")
    assert StoreCache(folder, os.path.realpath(root)).entries == {}


# -- cached findings ---------------------------------------------------------------------------


def test_cached_findings_follow_a_link_target_outside_the_store(make_store):
    root = make_store(FILES)
    (root.parent / ".git").mkdir()  # the store is in a repository: links leaving it are judged
    _age(root)
    broken = [f for f in run_checks(_load(root)) if f.check == "links.broken"]
    assert [f.path for f in broken] == ["git/worktree.md"]
    docs = root.parent / "docs"  # git/../../docs
    docs.mkdir(exist_ok=True)
    (docs / "WORKTREE.md").write_text("# outside the store\n")
    try:
        again = [f for f in run_checks(_load(root)) if f.check == "links.broken"]
        assert again == []
    finally:
        (docs / "WORKTREE.md").unlink()
        docs.rmdir()


@pytest.mark.parametrize("change", ["config", "today"])
def test_cached_findings_follow_config_and_day(make_store, monkeypatch, change):
    files = dict(FILES)
    files["reflection/2026-01-01-note.md"] = "---\ndate: 2026-01-01\n---\n# A reflection\n"
    root = make_store(files)
    _age(root)
    first = run_checks(_load(root))
    if change == "config":
        (root / ".curator.yaml").write_text("severity:\n  transient.expired: 'off'\n  tokens.stale-count: 'off'\n")
    else:
        monkeypatch.setenv("CURATOR_TODAY", "2026-01-02")
    second = run_checks(_load(root))
    assert second != first
    # the same as a run that uses no cache at all
    assert second == run_checks(_load(root, use_cache=False), facts_cache=default_cache())


def test_an_unwritable_cache_folder_only_costs_time(make_store, monkeypatch, tmp_path):
    root = make_store(FILES)
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("CURATOR_CACHE_DIR", str(blocker))
    first = _load(root)
    assert run_checks(first) == run_checks(_load(root))
    assert blocker.read_text() == "a file where the cache folder should be"


def test_a_cached_records_text_is_read_on_first_use(make_store):
    root = make_store(FILES)
    _age(root)
    _load(root)
    rec = _load(root).records["git/rebase.md"]
    assert isinstance(rec, CachedRecord)
    assert rec.chars == len(FILES["git/rebase.md"])
    assert rec.text == FILES["git/rebase.md"]
    assert rec.lines()[0] == "# Rebase"
    assert rec.abspath == root / "git/rebase.md"


def test_cached_findings_follow_a_repository_file_a_memory_links(tmp_path):
    repo = tmp_path / "repo"
    store = repo / ".serena" / "memories"
    store.mkdir(parents=True)
    (repo / "README.md").write_text("# the repository\n")
    (store / "deploy_notes.md").write_text("# Deploy\n\nSee [the guide](docs/GUIDE.md) first.\n")
    _age(store)

    def broken():
        return [f.target for f in run_checks(_load(store)) if f.check == "links.broken"]

    first = broken()
    assert first  # the guide is nowhere yet
    assert broken() == first  # served from the cache
    (repo / "docs").mkdir()
    (repo / "docs" / "GUIDE.md").write_text("# Guide\n")
    assert broken() == []  # the repository file now answers the link
