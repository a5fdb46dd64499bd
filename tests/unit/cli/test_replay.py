"""`curator check` replays its kept output only while nothing it read has changed: any edit
(even one that keeps size and mtime), addition, deletion, rename, a new config up the tree or a
link target appearing outside the store runs the checks again; a run during which files were
recent is never kept."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from curator.base import kept
from curator.checks import replay
from curator.cli import main

FILES = {
    "memory-index.md": "# Memory Index\n\n[Git]\n|git rebase worktree: [skills-git-index](skills-git-index.md) (12)\n",
    "skills-git-index.md": (
        "| Keywords | File |\n|---|---|\n"
        "| rebase squash fixup reword onto | [git/rebase](git/rebase.md) |\n"
        "| worktree hotfix checkout prune venv | [git/worktree](git/worktree.md) |\n"
    ),
    "git/rebase.md": "# Rebase\n\nSquash the fixups before review.\n",
    "git/worktree.md": "# Worktree\n\nA second checkout for a hotfix.\n",
}


@pytest.fixture
def trusting(monkeypatch):
    """Files written by the test are seconds old; let the racy rule trust them."""
    monkeypatch.setattr(kept, "RACY_SLACK_NS", -3600 * 10**9)


def check(capsys, *argv) -> tuple[bool, int, str]:
    """(replayed, exit code, stdout) of one `curator check` as the entry point runs it."""
    argv = ["check", *argv]
    code, run = replay.begin(argv)  # as the entry point: the run it opens is handed to the command
    replayed = code is not None
    if not replayed:
        code = main(argv, kept=run)
    return replayed, code, capsys.readouterr().out


def paths(out: str) -> set[str]:
    return {f["path"] for f in json.loads(out)["findings"]}


def test_an_unchanged_store_replays_the_same_output(capsys, make_store, trusting):
    root = make_store(FILES)
    first = check(capsys, str(root), "--format", "json")
    again = check(capsys, str(root), "--format", "json")
    assert not first[0] and again[0]
    assert again[1:] == first[1:]


@pytest.mark.parametrize("fmt", ["sarif", "github"])
def test_other_machine_formats_replay(capsys, make_store, trusting, fmt):
    root = make_store(FILES)
    first = check(capsys, str(root), "--format", fmt)
    again = check(capsys, str(root), "--format", fmt)
    assert again[0] and again[1:] == first[1:]


def test_text_output_replays_for_the_same_terminal_only(capsys, make_store, trusting, monkeypatch):
    root = make_store({**FILES, "git/rebase.md": "# Rebase\n\n" + "A long line of advice. " * 600})
    monkeypatch.setenv("COLUMNS", "120")
    first = check(capsys, str(root))
    assert check(capsys, str(root)) == (True, *first[1:])
    monkeypatch.setenv("COLUMNS", "80")
    narrow = check(capsys, str(root))
    assert not narrow[0] and narrow[2] != first[2]
    assert max(len(line) for line in narrow[2].splitlines()) <= 80 < max(len(line) for line in first[2].splitlines())


def _same_size_same_mtime_edit(path: Path) -> None:
    st = path.stat()
    text = path.read_text()
    path.write_text(text.replace("Squash", "SQUASH"))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # only the ctime tells


def _add(root: Path) -> None:
    (root / "git" / "bisect.md").write_text("# Bisect\n\nFind the commit that broke it.\n")


def _delete(root: Path) -> None:
    (root / "git" / "worktree.md").unlink()


def _rename(root: Path) -> None:
    (root / "git" / "worktree.md").rename(root / "git" / "worktrees.md")


def _config_up_the_tree(root: Path) -> None:
    (root.parent / ".curator.yaml").write_text("thresholds:\n  size_warn_chars: 10\n")


@pytest.mark.parametrize("change", [_same_size_same_mtime_edit, _add, _delete, _rename, _config_up_the_tree],
                         ids=["edit-same-tick", "add", "delete", "rename", "parent-config"])
def test_any_change_runs_the_checks_again(capsys, make_store, trusting, change):
    root = make_store(FILES)
    check(capsys, str(root), "--format", "json")
    assert check(capsys, str(root), "--format", "json")[0]
    change(root if change is not _same_size_same_mtime_edit else root / "git" / "rebase.md")
    replayed, _, out = check(capsys, str(root), "--format", "json")
    assert not replayed
    assert out == check(capsys, str(root), "--format", "json")[2]  # kept anew, and current
    assert main(["check", str(root), "--format", "json"]) in (0, 1)
    assert out == capsys.readouterr().out


def test_a_change_shows_in_the_findings(capsys, make_store, trusting):
    root = make_store(FILES)
    _, _, before = check(capsys, str(root), "--format", "json")
    _delete(root)
    _, _, after = check(capsys, str(root), "--format", "json")
    assert "skills-git-index.md" not in paths(before)
    assert "skills-git-index.md" in paths(after)  # its row now points at nothing
    _config_up_the_tree(root)
    _, _, sized = check(capsys, str(root), "--format", "json")
    assert any(f["check"] == "size.chars" for f in json.loads(sized)["findings"])


def test_a_run_over_recent_files_is_not_kept(capsys, make_store):
    root = make_store(FILES)  # written just now: within the racy window
    check(capsys, str(root), "--format", "json")
    assert not check(capsys, str(root), "--format", "json")[0]


def test_a_symbolic_link_in_the_store_is_not_kept(capsys, make_store, trusting):
    root = make_store(FILES)
    (root / "alias.md").symlink_to(root / "git" / "rebase.md")
    check(capsys, str(root), "--format", "json")
    assert not check(capsys, str(root), "--format", "json")[0]


def test_commands_and_stores_keep_their_own_output(capsys, make_store, trusting):
    a = make_store(FILES, name="a")
    b = make_store({**FILES, "git/extra.md": "# Extra\n\nUnindexed.\n"}, name="b")
    outs = {}
    for argv in ([str(a), "--format", "json"], [str(b), "--format", "json"],
                 [str(a), "--format", "json", "--only", "orphan.unindexed"]):
        outs[tuple(argv)] = check(capsys, *argv)[2]
    for argv, out in outs.items():
        replayed, _, again = check(capsys, *argv)
        assert replayed and again == out
    assert len(set(outs.values())) == 3


def test_a_link_target_appearing_outside_the_store_runs_again(capsys, tmp_path, trusting):
    repo = tmp_path / "repo"
    store = repo / ".serena" / "memories"
    store.mkdir(parents=True)
    (repo / "README.md").write_text("# Repo\n")
    (store / "setup.md").write_text("# Setup\n\nSee [the guide](docs/GUIDE.md) for the steps.\n")
    _, _, before = check(capsys, str(store), "--format", "json")
    assert check(capsys, str(store), "--format", "json")[0]
    (repo / "docs").mkdir()
    (repo / "docs" / "GUIDE.md").write_text("# Guide\n")
    replayed, _, after = check(capsys, str(store), "--format", "json")
    assert not replayed
    assert any(f["check"] == "links.broken" for f in json.loads(before)["findings"])
    assert not any(f["check"] == "links.broken" for f in json.loads(after)["findings"])


def test_a_damaged_replay_file_only_costs_time(capsys, make_store, trusting):
    root = make_store(FILES)
    _, code, out = check(capsys, str(root), "--format", "json")
    folder = Path(os.environ["CURATOR_CACHE_DIR"]) / "replay"
    for f in folder.iterdir():
        f.write_bytes(b"\x00garbage")
    assert check(capsys, str(root), "--format", "json") == (False, code, out)


def test_no_cache_means_no_replay(capsys, make_store, trusting, monkeypatch):
    root = make_store(FILES)
    monkeypatch.setenv("CURATOR_NO_CACHE", "1")
    check(capsys, str(root), "--format", "json")
    assert not check(capsys, str(root), "--format", "json")[0]


def test_no_replay_runs_the_checks_with_the_same_output(capsys, make_store, trusting, monkeypatch):
    root = make_store(FILES)
    first = check(capsys, str(root), "--format", "json")
    monkeypatch.setenv("CURATOR_NO_REPLAY", "1")
    assert check(capsys, str(root), "--format", "json") == first  # not replayed, same output


def test_only_the_newest_replay_files_are_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(kept, "KEEP", 3)
    for i in range(6):
        f = tmp_path / f"{i:08x}.marshal"
        f.write_bytes(b"x")
        os.utime(f, ns=(i * 10**9, i * 10**9))
    (tmp_path / "notes.txt").write_text("not ours")
    kept.prune(str(tmp_path))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["00000003.marshal", "00000004.marshal",
                                                          "00000005.marshal", "notes.txt"]


def test_the_entry_point_replays_without_loading_the_store(make_store, tmp_path):
    """End to end through `python -m curator`: the second run prints the same output and exit
    code without building the store's cache (it loaded nothing)."""
    import shutil
    import subprocess
    import sys
    import time

    root = make_store(FILES)
    time.sleep(2.1)  # older than the racy window, for real
    argv = [sys.executable, "-m", "curator", "check", str(root), "--format", "json"]
    env = {**os.environ, "CURATOR_TOKENS": "estimate"}
    first = subprocess.run(argv, capture_output=True, text=True, env=env)
    stores = Path(os.environ["CURATOR_CACHE_DIR"]) / "stores"
    assert stores.is_dir() and (Path(os.environ["CURATOR_CACHE_DIR"]) / "replay").is_dir()
    shutil.rmtree(stores)
    again = subprocess.run(argv, capture_output=True, text=True, env=env)
    assert (again.returncode, again.stdout) == (first.returncode, first.stdout)
    assert json.loads(again.stdout)["summary"]["files"] == len(FILES)
    assert not stores.exists()


def test_an_include_folder_beside_the_store_is_followed(capsys, tmp_path, trusting):
    """ADR-002's `../knowledge` is read with the store: a file added there runs the checks again."""
    root = tmp_path / "memories"
    root.mkdir()
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (tmp_path / "knowledge").mkdir()
    (tmp_path / "knowledge" / "style.md").write_text("# Style\n\nShort lines.\n")
    _, _, before = check(capsys, str(root), "--format", "json")
    assert check(capsys, str(root), "--format", "json")[0]
    (tmp_path / "knowledge" / "naming.md").write_text("# Naming\n\nsnake_case.\n")
    replayed, _, after = check(capsys, str(root), "--format", "json")
    assert not replayed
    assert json.loads(after)["summary"]["files"] == json.loads(before)["summary"]["files"] + 1


def test_replay_always_equals_a_fresh_run_over_random_changes(capsys, make_store, trusting):
    """A run of random edits (same size and mtime too), additions, deletions, renames and new
    folders: after each, what `check` prints equals what a full run prints."""
    import random

    rng = random.Random(7)
    root = make_store(FILES)
    argv = [str(root), "--format", "json"]
    replays = 0
    for step in range(24):
        memories = sorted(p for p in root.rglob("*.md") if p.parent != root)
        op = rng.choice(["edit", "add", "delete", "rename", "folder", "nothing", "nothing"])
        if op == "edit" and memories:
            _same_size_same_mtime_edit_text(rng.choice(memories), rng)
        elif op == "add" or not memories:
            folder = rng.choice([root / "git", root / "ops", root])
            folder.mkdir(exist_ok=True)
            (folder / f"note_{step}.md").write_text(f"# Note {step}\n\n" + "word " * rng.randint(1, 3000))
        elif op == "delete":
            rng.choice(memories).unlink()
        elif op == "rename":
            victim = rng.choice(memories)
            victim.rename(victim.with_name(f"moved_{step}.md"))
        elif op == "folder":
            (root / f"topic_{step}").mkdir()
            (root / f"topic_{step}" / "inside.md").write_text("# Inside\n")
        replayed, code, out = check(capsys, *argv)
        replays += replayed
        assert main(["check", *argv]) == code
        assert capsys.readouterr().out == out, (step, op)
    assert replays >= 3  # the unchanged steps were replayed


def _same_size_same_mtime_edit_text(path: Path, rng) -> None:
    st = path.stat()
    text = path.read_text()
    i = rng.randrange(len(text))
    path.write_text(text[:i] + ("X" if text[i] != "X" else "Y") + text[i + 1:])
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def test_a_repository_replays_until_a_source_changes_or_appears(capsys, sample_repo_copy, trusting):
    repo = sample_repo_copy
    first = check(capsys, str(repo), "--format", "json")
    assert len(json.loads(first[2])["sources"]) >= 2
    assert check(capsys, str(repo), "--format", "json") == (True, *first[1:])
    claude = repo / ".claude" / "memory"
    (claude / "new_topic.md").write_text("---\nname: new\ndescription: d\ntype: project\n---\n# New\n")
    changed = check(capsys, str(repo), "--format", "json")
    assert not changed[0] and changed[2] != first[2]
    assert check(capsys, str(repo), "--format", "json")[0]
    # a memory source that was not there: discovery finds it
    from curator.model.sources import claude_slug

    mem = Path(os.environ["CLAUDE_CONFIG_DIR"]) / "projects" / claude_slug(repo.resolve()) / "memory"
    mem.mkdir(parents=True)
    (mem / "MEMORY.md").write_text("# Memory\n\n- [Deploy](deploy.md) — how we ship\n")
    (mem / "deploy.md").write_text("---\nname: deploy\ndescription: d\ntype: project\n---\n# Deploy\n")
    grown = check(capsys, str(repo), "--format", "json")
    assert not grown[0]
    assert len(json.loads(grown[2])["sources"]) == len(json.loads(changed[2])["sources"]) + 1


def test_a_store_found_from_the_current_folder_replays(capsys, sample_repo_copy, trusting, monkeypatch):
    monkeypatch.chdir(sample_repo_copy / "docs")
    first = check(capsys, "--format", "json")
    assert check(capsys, "--format", "json") == (True, *first[1:])
    (sample_repo_copy / ".serena" / "memories" / "extra_note.md").write_text("# Extra\n\nUnindexed.\n")
    again = check(capsys, "--format", "json")
    assert not again[0] and again[2] != first[2]


def test_an_error_while_asking_runs_the_command(capsys, sample_repo_copy, trusting, monkeypatch):
    first = check(capsys, str(sample_repo_copy), "--format", "json")

    def broken(*_a, **_k):
        raise RuntimeError("discovery exploded")

    with monkeypatch.context() as m:
        m.setattr(replay, "_found_unchanged", broken)
        assert replay.begin(["check", str(sample_repo_copy), "--format", "json"])[0] is None
    assert check(capsys, str(sample_repo_copy), "--format", "json") == (True, *first[1:])


def test_another_output_encoding_is_its_own_command(monkeypatch):
    import io

    utf8 = replay.command_key(["check", "x"])
    monkeypatch.setattr("sys.stdout", io.TextIOWrapper(io.BytesIO(), encoding="ascii", errors="strict"))
    assert replay.command_key(["check", "x"]) != utf8
