"""The first run (issue 33): the README's `curator` in a checkout of curator opens the demo, a path
inside what curator ships opens the demo's private copy, and nothing curator ships is written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from curator.base.locations import demo_copy, sample_repository, shipped
from curator.cli.app_entry import app_target
from curator.cli.common import Parser, add_store_args
from curator.curation import CurationError
from curator.curation.journal import curator_dir
from curator.demo import sample_copy
from curator.live.instructions import instruction_repository
from curator.model.discovery import locate_store


def _args(argv):
    parser = Parser()
    add_store_args(parser, demo=True)
    return parser.parse_args(argv)


def _checkout(tmp_path) -> Path:
    """A git work tree shaped like curator's checkout: its only agent files are the bundled
    sample's nested CLAUDE.md and AGENTS.md."""
    root = tmp_path / "curator-checkout"
    (root / ".git").mkdir(parents=True)
    (root / "sample_memories").mkdir()
    (root / "sample_memories" / "CLAUDE.md").write_text("# Ledgerline\n\n@README.md\n")
    (root / "sample_memories" / "AGENTS.md").write_text("# Agents\n\nRun the tests.\n")
    (root / "README.md").write_text("# curator\n")
    return root


def test_nested_agent_files_alone_do_not_make_a_repository_of_instruction_files(tmp_path, monkeypatch):
    root = _checkout(tmp_path)
    monkeypatch.chdir(root)
    assert instruction_repository(None) == root  # there are agent files (on demand) ...
    assert instruction_repository(None, startup_only=True) is None  # ... but nothing loads at start-up
    root_file = root / "AGENTS.md"
    root_file.write_text("# Agents\n\nUse uv.\n")
    assert instruction_repository(None, startup_only=True) == root  # something loads: its Context view


def test_the_readme_command_in_a_checkout_opens_the_demo_with_its_banner(tmp_path, monkeypatch):
    monkeypatch.chdir(_checkout(tmp_path))
    root, located, _ = app_target(_args([]))
    assert root is None and located.is_sample and located.fallback
    assert Path(located.root).resolve().is_relative_to(demo_copy().resolve())
    assert located.notice.startswith("No agent memory or instruction files here or above: the demo")


@pytest.mark.parametrize("inside", ["", ".serena/memories", "docs"])
def test_a_path_inside_the_bundled_sample_opens_the_private_copy(inside):
    path = sample_repository() / inside
    located = locate_store(str(path), demo=sample_copy)
    assert located.is_sample and "private copy" in located.notice
    copy = demo_copy().resolve()
    assert Path(located.root).resolve().is_relative_to(copy)
    assert shipped(located.root) is None  # never the installed files
    if inside == ".serena/memories":
        assert Path(located.root).resolve() == copy / ".serena" / "memories"


def test_the_current_folder_inside_the_bundled_sample_opens_the_private_copy(monkeypatch):
    monkeypatch.chdir(sample_repository() / "docs")
    root, located, _ = app_target(_args([]))
    assert root is None and located.is_sample and not located.fallback
    assert Path(located.root).resolve().is_relative_to(demo_copy().resolve())


def test_the_write_path_never_writes_what_curator_ships():
    before = sorted(p.name for p in sample_repository().iterdir())
    for root in (sample_repository(), sample_repository() / ".serena" / "memories",
                 Path(__file__).resolve().parents[2] / "curator"):
        if shipped(root) is None:
            continue  # (an installed wheel: the package lives elsewhere)
        with pytest.raises(CurationError, match="never written"):
            curator_dir(root)
    assert sorted(p.name for p in sample_repository().iterdir()) == before
    assert not (sample_repository() / ".curator").exists()


def test_a_writing_command_on_the_bundled_sample_writes_the_private_copy(capsys):
    from curator.cli import main

    sample = sample_repository() / ".serena" / "memories"
    index = sample / "memory-index.md"
    was = index.read_bytes()
    assert main(["refresh", "--store", str(sample)]) == 0
    assert index.read_bytes() == was and not (sample / ".curator").exists()
    copy = demo_copy() / ".serena" / "memories"
    assert (copy / "memory-index.md").read_bytes() != was  # the stale counts were refreshed there
    assert (copy / ".curator" / "journal").is_dir()
    assert "writes to .serena/memories in the demo's private copy" in capsys.readouterr().out


def test_shipped_names_the_sample_and_the_package_only(tmp_path):
    assert shipped(sample_repository()) is not None
    assert shipped(sample_repository() / "docs") is not None
    assert shipped(tmp_path) is None
    assert shipped(demo_copy()) is None
    link = tmp_path / "link"
    os.symlink(sample_repository(), link)
    assert shipped(link) is not None  # a link into it counts
