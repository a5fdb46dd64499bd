"""Where review extracts the base revision: one folder a commit in the user's cache (so the next
review of that commit finds its findings in the store cache), removed after; a review that finds
it held, or runs without a cache, extracts into a temporary folder instead."""

from __future__ import annotations

import os

from curator.base.locations import cache_dir
from curator.checks import run as check_run
from curator.review import review_repository
from curator.review.git import base_folder

S = ".serena/memories"


def test_the_base_folder_is_one_a_commit_in_the_cache_and_is_removed_after():
    with base_folder("a" * 40) as one:
        assert one.parent == cache_dir() / "review" and one.is_dir() and not any(one.iterdir())
        (one / "x.md").write_text("left\n")
        with base_folder("a" * 40) as other:  # held: a folder of its own, outside the cache
            assert not other.is_relative_to(cache_dir()) and other.is_dir()
        assert not other.exists() and (one / "x.md").exists()
    assert not one.exists()
    with base_folder("a" * 40) as again:
        assert again == one and not any(again.iterdir())  # the same place, emptied


def test_a_left_folder_that_cannot_be_removed_gives_a_temporary_folder(monkeypatch):
    import shutil

    with base_folder("c" * 40) as kept:
        pass
    kept.mkdir()  # as a killed review left it, and rmtree cannot take it away (permissions)
    monkeypatch.setattr(shutil, "rmtree", lambda *a, **k: None)
    with base_folder("c" * 40) as folder:
        assert folder != kept and folder.is_dir() and not folder.is_relative_to(cache_dir())
    monkeypatch.undo()  # the temporary folder's own clean-up met the blocked rmtree too
    shutil.rmtree(folder, ignore_errors=True)


def test_without_a_cache_the_base_folder_is_temporary(monkeypatch):
    monkeypatch.setenv("CURATOR_NO_CACHE", "1")
    with base_folder("b" * 40) as folder:
        assert not folder.is_relative_to(cache_dir())
    assert not folder.exists()


def test_a_second_review_of_the_same_commit_checks_only_the_work_tree(repo, monkeypatch):
    repo.edit(f"{S}/auth/auth-password-hashing.md", "never log them.", "never log them, nor print them.")
    review_repository(repo.root)  # the base commit's findings kept
    repo.edit(f"{S}/auth/auth-password-hashing.md", "nor print them.", "nor print them. See [x](gone.md).")
    ran: list[str] = []
    real = check_run.run_cached

    def spy(store, wanted, run, loading=None):
        def counted():
            ran.append(os.path.realpath(store.root))
            return run()
        return real(store, wanted, counted, loading)

    monkeypatch.setattr(check_run, "run_cached", spy)
    second = review_repository(repo.root)
    assert ran == [os.path.realpath(repo.root / S)]  # the edited store of the work tree, and only it
    monkeypatch.setenv("CURATOR_NO_CACHE", "1")
    cold = review_repository(repo.root)
    assert [(f.check, f.path, f.message) for s in second.stores for f in s.introduced] == \
        [(f.check, f.path, f.message) for s in cold.stores for f in s.introduced] != []
    assert not list((cache_dir() / "review").glob("[0-9a-f]*"))  # nothing left behind
