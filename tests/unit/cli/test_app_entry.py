"""`curator` with no command: the app only in a terminal; packaging metadata stays clean."""

from __future__ import annotations

import tomllib
from pathlib import Path

from curator.cli import main


def test_app_refuses_without_a_terminal(capsys, sample_copy):
    # pytest captures stdout, so it is not a terminal: one line of advice, exit 2, no app
    assert main([str(sample_copy)]) == 2
    err = capsys.readouterr().err
    assert "needs a terminal" in err and "curator check" in err
    assert len(err.strip().splitlines()) == 1 and len(err.strip()) <= 80


def test_licence_is_an_spdx_string():
    meta = tomllib.loads((Path(__file__).parents[3] / "pyproject.toml").read_text())
    assert meta["project"]["license"] == "MIT"


def test_keywords_set_warns_below_five(capsys, sample_copy):
    index = (sample_copy / "skills-review-index.md").read_text().splitlines()
    target = next(line for line in index if "](" in line).split("](", 1)[1].split(")", 1)[0]
    assert main(["keywords", "skills-review-index.md", target, "--set", "alpha", "beta", "gamma",
                 "--store", str(sample_copy), "--dry-run"]) == 0
    err = capsys.readouterr().err
    assert "3 keyword(s)" in err and "fewer than 5" in err
    assert main(["keywords", "skills-review-index.md", target, "--set", *"a1 b2 c3 d4 e5".split(),
                 "--store", str(sample_copy), "--dry-run"]) == 0
    assert "fewer than" not in capsys.readouterr().err


def test_the_app_opens_a_repository_of_instruction_files_only(tmp_path, monkeypatch, capsys):
    import sys

    from curator.tui.app import CuratorApp

    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "AGENTS.md").write_text("# Agents\n\nRun the tests.\n")
    opened = []
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr(CuratorApp, "run", lambda self: opened.append(self))
    assert main([str(repo)]) == 0
    assert [a.store_root for a in opened] == [repo]  # (the app then opens on its Context view)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main([str(empty)]) == 2 and "no agent memory found" in capsys.readouterr().err


def _opened(monkeypatch, argv):
    """The app `curator ARGV` would open (its store root, given and notice), not run."""
    import sys

    from curator.tui.app import CuratorApp

    opened = []
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr(CuratorApp, "run", lambda self: opened.append(self))
    assert main(argv) == 0
    assert len(opened) == 1
    return opened[0]


def test_no_path_inside_a_repository_of_instruction_files_opens_it_not_the_demo(tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "src" / "pkg").mkdir(parents=True)
    (repo / "CLAUDE.md").write_text("# Project\n\nUse uv.\n")
    monkeypatch.chdir(repo / "src" / "pkg")  # from a folder deep inside it, as `curator PATH` would
    app = _opened(monkeypatch, [])
    assert app.store_root == repo and app.notice is None and app.layout is None
    assert _opened(monkeypatch, [str(repo)]).store_root == repo  # the same as naming it


def test_no_path_in_a_folder_outside_git_with_an_agent_file_opens_it(tmp_path, monkeypatch):
    here = tmp_path / "notes"
    (here / ".cursor" / "rules").mkdir(parents=True)
    (here / ".cursor" / "rules" / "style.mdc").write_text("---\nalwaysApply: true\n---\nBe brief.\n")
    monkeypatch.chdir(here)
    assert _opened(monkeypatch, []).store_root == here


def test_no_path_with_neither_memory_nor_instructions_opens_the_demo_and_says_so(tmp_path, monkeypatch):
    here = tmp_path / "plain"
    (here / ".git").mkdir(parents=True)
    (here / "README.md").write_text("# Nothing for agents here\n")
    monkeypatch.chdir(here)
    app = _opened(monkeypatch, [])
    assert app.given == "sample_memories" and app.layout is not None
    assert app.notice.startswith("No agent memory or instruction files here or above: the demo, the bundled")


def test_no_path_in_a_repository_with_memory_opens_its_memory(tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / ".claude" / "memory").mkdir(parents=True)
    (repo / ".claude" / "memory" / "MEMORY.md").write_text("# Memory\n\n- [a](a.md) — one\n")
    (repo / "CLAUDE.md").write_text("# Project\n")
    monkeypatch.chdir(repo)
    app = _opened(monkeypatch, [])
    assert app.notice is None and app.layout is not None and app.store_root == repo / ".claude" / "memory"
