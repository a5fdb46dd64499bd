"""The store's growth over its git history, against real temporary repositories."""

from __future__ import annotations

import shutil
from datetime import date

import pytest

from curator.budgets.growth import Growth, sample, store_growth

SERENA_FILES = 5  # the Serena store the `repo` fixture commits

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

TODAY = date(2026, 11, 20)
STORE = ".serena/memories"


def test_single_commit_gives_that_commit_and_the_work_tree(repo):
    g = store_growth(repo.root / STORE, today=TODAY)
    assert g.reason == ""
    assert g.commits == 1 and g.sampled == 1
    first, now = g.points
    assert first.commit is not None and len(first.commit) == 40
    store = repo.root / STORE
    assert (first.files, first.bytes) == (SERENA_FILES, sum(p.stat().st_size for p in store.rglob("*.md")))
    assert now.commit is None and now.date == "2026-11-20"
    assert (now.files, now.bytes) == (first.files, first.bytes)
    assert ": +0 B ≈+0 tokens" in g.legend()


def test_growth_follows_the_history_oldest_first(repo):
    repo.write(f"{STORE}/db/db-one.md", "# One\n\n" + "word " * 200)
    repo.commit("one")
    repo.write(f"{STORE}/db/db-two.md", "# Two\n\n" + "word " * 400)
    repo.write("README.md", "# project, edited\n")  # outside the store: changes nothing
    repo.commit("two")
    repo.write("src/app.py", "print()\n")
    repo.commit("not the store")  # does not touch the store: not in its history
    repo.write(f"{STORE}/db/db-three.md", "# Three\n")  # uncommitted: only the work tree has it
    repo.write(f"{STORE}/.hidden/x.md", "hidden\n")  # hidden folders are not memory
    repo.write(f"{STORE}/notes.txt", "not markdown\n")
    g = store_growth(repo.root / STORE, today=TODAY)
    assert g.commits == 3
    assert [p.files for p in g.points] == [5, 6, 7, 8]
    assert [p.bytes for p in g.points] == sorted(p.bytes for p in g.points)
    assert g.points[-1].bytes - g.points[-2].bytes == len("# Three\n")
    assert g.points[-1].approx_tokens == g.points[-1].bytes // 4
    assert [p["files"] for p in g.to_json()] == [5, 6, 7, 8]


def test_many_commits_are_sampled_evenly_newest_last(repo):
    for i in range(12):
        repo.write(f"{STORE}/db/db-{i:02}.md", f"# {i}\n")
        repo.commit(f"c{i}")
    head = repo.git("rev-parse", "HEAD").strip()
    g = store_growth(repo.root / STORE, today=TODAY, samples=5)
    assert g.commits == 13 and g.sampled == 5
    assert g.points[0].files == 5 and g.points[-2].commit == head and g.points[-2].files == 17
    assert "5 of 13 commits" in g.title()


def test_a_deleted_store_folder_counts_as_empty(repo):
    repo.git("rm", "-q", "-r", STORE)
    repo.commit("drop")
    g = store_growth(repo.root / ".claude/memory", today=TODAY)
    assert g.points[0].files == 3
    (repo.root / STORE).mkdir(parents=True)
    g = store_growth(repo.root / STORE, today=TODAY)
    assert [p.files for p in g.points] == [5, 0, 0]


def test_no_repository(tmp_path):
    store = tmp_path / "memories"
    store.mkdir()
    (store / "a.md").write_text("# a\n")
    g = store_growth(store, today=TODAY)
    assert not g and g.points == () and "not in a git repository" in g.reason
    assert g.legend().startswith("no git history")


def test_no_git(repo, monkeypatch):
    monkeypatch.setenv("PATH", "")
    g = store_growth(repo.root / STORE, today=TODAY)
    assert not g and g.reason == "git is not installed"


def test_uncommitted_store_and_empty_repository(repo, tmp_path):
    new = repo.root / "other-memories"
    new.mkdir()
    (new / "a.md").write_text("# a\n")
    assert store_growth(new).reason == "the store has no commits yet"
    empty = tmp_path / "empty"
    empty.mkdir()
    repo_cls = type(repo)
    r = repo_cls(empty)
    r.git("init", "-q", "-b", "main")
    (empty / "a.md").write_text("# a\n")
    g = store_growth(empty)
    assert not g and g.reason


def test_shallow_clone(repo, tmp_path):
    repo.write(f"{STORE}/x.md", "# x\n")
    repo.commit("x")
    clone = tmp_path / "clone"
    repo.git("clone", "-q", "--depth", "1", f"file://{repo.root}", str(clone))
    g = store_growth(clone / STORE)
    assert not g and "shallow" in g.reason


def test_missing_folder_never_raises(tmp_path):
    g = store_growth(tmp_path / "nowhere")
    assert isinstance(g, Growth) and not g and g.reason


def test_sample_keeps_the_ends():
    assert sample(list(range(100)), 5) == [0, 25, 50, 74, 99]
    assert sample([1, 2], 30) == [1, 2]
    assert sample(list(range(10)), 1) == [9]


# -- `curator tokens` ------------------------------------------------------------


def test_tokens_json_and_text_carry_the_growth(repo, capsys):
    import json

    from curator.cli import main

    repo.write(f"{STORE}/db/db-one.md", "# One\n\n" + "word " * 200)
    repo.commit("one")
    assert main(["tokens", str(repo.root / STORE), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [p["files"] for p in data["growth"]] == [5, 6, 6]
    assert data["growth"][-1]["commit"] is None and data["growth_commits"] == 2 and data["growth_note"] is None
    assert all(p["approx_tokens"] == p["bytes"] // 4 for p in data["growth"])
    assert main(["tokens", str(repo.root / STORE)]) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("Growth"))
    assert "5 files" in line and "→ now 6 files" in line and "≈+" in line


def test_tokens_without_git_stays_valid(sample_copy, capsys, monkeypatch):
    import json

    from curator.cli import main

    assert main(["tokens", str(sample_copy), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["growth"] == [] and data["growth_note"] == "not in a git repository"
    monkeypatch.setenv("PATH", "")
    assert main(["tokens", str(sample_copy), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["growth_note"] == "git is not installed"
    assert main(["tokens", str(sample_copy)]) == 0
    assert "Growth  no git history (git is not installed)" in capsys.readouterr().out


def test_history_is_read_once_per_head_and_the_work_tree_every_time(repo, monkeypatch):
    import curator.budgets.growth as hg

    calls: list[str] = []
    real = hg.git  # the one git runner (base.git.run), as growth calls it
    monkeypatch.setattr(hg, "git", lambda cwd, *a, timeout: calls.append(a[0] if a[0] != "--literal-pathspecs" else a[1]) or real(cwd, *a, timeout=timeout))
    first = store_growth(repo.root / STORE, today=TODAY)
    assert "log" in calls and "ls-tree" in calls
    calls.clear()
    repo.write(f"{STORE}/db/db-new.md", "# New\n\n" + "word " * 50)  # a live edit, not committed
    again = store_growth(repo.root / STORE, today=TODAY)
    assert "log" not in calls and "ls-tree" not in calls  # the committed history was kept
    assert again.points[:-1] == first.points[:-1]
    assert again.points[-1].files == first.points[-1].files + 1  # the work tree is read anew
    repo.commit("new")  # a new HEAD: its history is read again
    calls.clear()
    third = store_growth(repo.root / STORE, today=TODAY)
    assert "log" in calls and third.commits == first.commits + 1
