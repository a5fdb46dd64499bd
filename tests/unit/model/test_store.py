import os
from pathlib import Path

import pytest

from curator.base.config import Config
from curator.demo import sample_copy
from curator.model import StoreError, load_store, locate_store


def test_tiers_levels_and_dates(make_store):
    root = make_store(
        {
            "memory-index.md": "[Git]\n|git: [skills-git-index](skills-git-index.md) (0)\n",
            "skills-git-index.md": "| Keywords | File |\n|---|---|\n| rebase | [git/r](git/r.md) |\n",
            "git/r.md": "# Rebase\n**Use**: always\n",
            "knowledge/architecture.md": "# Arch\n",
            "reflexion/2026-01-20-auth-error.md": "---\ndate: 2026-01-20\nseverity: high\n---\n## Known Issue\n",
            "validation/2026-01-23-abc123.md": "---\ndate: 2026-01-23\nstatus: pass\n---\n",
            "reflect/2026-02-01-x.md": "x\n",
            "docs/error-experience/entries/2026-03-01-db-lock.md": "Error: lock\nRemediation: retry\n",
            "docs/error-experience/summary/entries/2026-03-01-db-lock.md": "Summary: lock\n",
        }
    )
    store = load_store(root)
    tiers = {p: r.tier for p, r in store.records.items()}
    assert tiers["knowledge/architecture.md"] == "semantic"
    assert tiers["reflexion/2026-01-20-auth-error.md"] == "reflexion"
    assert tiers["validation/2026-01-23-abc123.md"] == "transient"
    assert tiers["reflect/2026-02-01-x.md"] == "transient"
    assert tiers["docs/error-experience/entries/2026-03-01-db-lock.md"] == "reflexion"
    assert store.records["memory-index.md"].level == 0
    assert store.records["skills-git-index.md"].level == 1
    assert store.records["git/r.md"].meta == {"Use": "always"}
    assert store.records["git/r.md"].title == "Rebase"
    assert store.records["reflect/2026-02-01-x.md"].date == "2026-02-01"
    assert store.records["docs/error-experience/summary/entries/2026-03-01-db-lock.md"].kind == "experience-summary"
    assert store.records["docs/error-experience/entries/2026-03-01-db-lock.md"].meta["Remediation"] == "retry"
    assert [r.index for r in store.routes_to["git/r.md"]] == ["skills-git-index.md"]


def test_serena_sibling_tier_folders_are_included(tmp_path):
    serena = tmp_path / ".serena"
    (serena / "memories").mkdir(parents=True)
    (serena / "memories" / "a.md").write_text("a\n")
    (serena / "reflexion").mkdir()
    (serena / "reflexion" / "2026-01-01-x.md").write_text("x\n")
    store = load_store(serena / "memories")
    assert "../reflexion/2026-01-01-x.md" in store.records
    assert store.records["../reflexion/2026-01-01-x.md"].tier == "reflexion"


def test_unreadable_files_become_parse_errors(make_store):
    root = make_store({"bin.md": b"\x00\x01\x02", "latin.md": b"caf\xe9\n", "ok.md": "fine\n"})
    big = root / "big.md"
    big.write_bytes(b"a" * 10_000_001)
    store = load_store(root)
    checks = {(f.path, f.check) for f in store.load_findings}
    assert checks == {("bin.md", "parse.error"), ("latin.md", "parse.error"), ("big.md", "parse.error")}
    assert store.records["ok.md"].readable
    assert "too large" in store.records["big.md"].error


@pytest.mark.skipif(os.name == "nt", reason="symlinks")
def test_symlinks_loops_and_escapes(make_store, tmp_path):
    root = make_store({"a.md": "a\n", "sub/b.md": "b\n"})
    outside = tmp_path / "outside.md"
    outside.write_text("secret\n")
    (root / "escape.md").symlink_to(outside)
    (root / "loop.md").symlink_to(root / "loop.md")
    (root / "sub" / "again").symlink_to(root)  # a folder loop
    (root / "inside.md").symlink_to(root / "a.md")
    store = load_store(root)
    by_path = {f.path: f.check for f in store.load_findings}
    assert by_path["escape.md"] == "index.unsafe-target"
    assert by_path["loop.md"] == "parse.error"
    assert by_path["sub/again"] == "parse.error"
    assert "escape.md" not in store.records
    assert store.records["inside.md"].text == "a\n"


def test_empty_and_missing_store(tmp_path):
    store = load_store(tmp_path)
    assert store.records == {} and store.l0 is None
    with pytest.raises(StoreError, match="not found"):
        load_store(tmp_path / "nope")
    f = tmp_path / "file.md"
    f.write_text("x")
    with pytest.raises(StoreError, match="not a folder"):
        load_store(f)


def test_locate_store_searches_upward_then_falls_back_to_sample(tmp_path):
    mem = tmp_path / "repo" / ".serena" / "memories"
    mem.mkdir(parents=True)
    deep = tmp_path / "repo" / "src" / "pkg"
    deep.mkdir(parents=True)
    assert locate_store(None, cwd=deep).root.resolve() == mem.resolve()
    lonely = tmp_path / "elsewhere"
    lonely.mkdir()
    with pytest.raises(StoreError, match="no agent memory found"):  # the model alone knows no demo
        locate_store(None, cwd=lonely)
    with pytest.raises(StoreError, match="no agent memory found"):  # nor falls back when told not to
        locate_store(None, cwd=lonely, demo=sample_copy, fall_back=False)
    found = locate_store(None, cwd=lonely, demo=sample_copy)
    assert found.is_sample and found.notice
    assert Path(found.root).is_dir()
    # the demo is a private copy: curating it never writes into the installed package
    from curator.base.locations import sample_store

    assert Path(found.root).resolve() != sample_store().resolve()
    assert (Path(found.root) / "memory-index.md").read_bytes() == (sample_store() / "memory-index.md").read_bytes()
    (Path(found.root) / "note.md").write_text("mine\n")
    assert (Path(locate_store(None, cwd=lonely, demo=sample_copy).root) / "note.md").exists()


def test_evolve_picks_up_an_edit_and_a_deletion(make_store):
    root = make_store({"skills-a-index.md": "| Keywords | File |\n|---|---|\n| x | a |\n", "a.md": "a\n"})
    store = load_store(root, config=Config())
    (root / "skills-a-index.md").write_text("| Keywords | File |\n|---|---|\n| x y | b |\n")
    new = store.evolve(["skills-a-index.md"])
    assert new.domain_indexes["skills-a-index.md"].rows[0].links[0].target == "b.md"
    assert "b.md" in new.routes_to and "b.md" not in store.routes_to  # the old snapshot is as it was
    (root / "a.md").unlink()
    newer = new.evolve(["a.md"])
    assert "a.md" not in newer.records and "a.md" in new.records
