"""Issue 29: a repository whose `.serena/memories` is a symbolic link to a folder outside it.
Plain `curator fix` and `prune` (the store found from the repository) edited and moved files
there; now such a store is read-only — every writing command refuses it in one line and changes
nothing outside — unless the user names it on the command line or in their own settings."""

from __future__ import annotations

import shutil

import pytest

from curator.base.locations import sample_store
from curator.cli import main
from tests.hostile import tree_hash


@pytest.fixture
def linked(tmp_path):
    """(repository, the real store outside it): `.serena/memories` links out of the repository."""
    outside = tmp_path / "elsewhere" / "memories"
    shutil.copytree(sample_store(), outside)
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / ".serena").mkdir()
    (repo / ".serena" / "memories").symlink_to(outside, target_is_directory=True)
    return repo, outside


@pytest.mark.parametrize("argv", [["fix"], ["prune"], ["refresh"], ["fix", "--check", "orphan.unindexed"]])
def test_a_store_linked_outside_is_not_written(linked, capsys, argv):
    repo, outside = linked
    before = tree_hash(outside.parent)
    code = main([*argv, "--store", str(repo)])
    _, err = capsys.readouterr()
    assert tree_hash(outside.parent) == before
    assert code == 2 and "outside the repository" in err and "Traceback" not in err


def test_undo_on_a_store_linked_outside_is_refused(linked, capsys):
    repo, outside = linked
    assert main(["fix", str(outside)]) == 0  # named on the command line: the user's own word
    before = tree_hash(outside.parent)
    capsys.readouterr()
    assert main(["undo", str(repo)]) == 2
    assert "outside the repository" in capsys.readouterr().err
    assert tree_hash(outside.parent) == before
    assert main(["undo", str(outside)]) == 0  # named: undone


def test_the_link_typed_as_a_readme_says_is_not_written(linked, capsys):
    """`curator fix .serena/memories` in a clone whose link leads out: the path typed is the
    clone's, not the user's own word for the folder outside — refused, the real folder named."""
    repo, outside = linked
    before = tree_hash(outside.parent)
    for argv in (["fix", str(repo / ".serena" / "memories")], ["prune", "--store", str(repo / ".serena" / "memories")]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "link out of the repository" in err and str(outside.resolve()) in err and "Traceback" not in err
    assert tree_hash(outside.parent) == before
    assert main(["check", str(repo / ".serena" / "memories")]) in (0, 1)  # reading it is fine


def test_named_on_the_command_line_or_in_the_users_settings_it_is_written(linked, capsys, tmp_path, monkeypatch):
    repo, outside = linked
    before = tree_hash(outside.parent)
    assert main(["fix", str(outside)]) == 0  # the real folder itself, named
    assert tree_hash(outside.parent) != before
    settings = tmp_path / "settings.yaml"
    settings.write_text(f"writable_stores:\n  - {outside}\n")
    monkeypatch.setenv("CURATOR_CONFIG", str(settings))
    capsys.readouterr()
    assert main(["prune", "--store", str(repo), "--dry-run"]) == 0  # allowed: plans, writes nothing
    assert "outside the repository" not in capsys.readouterr().err
