"""Every CLI command at COLUMNS=80 on the demo (issue 33): no line over 80 columns, no line padded
with trailing spaces, no count split from its noun across two lines. The commands come from the
CLI's registry: a new command fails here until it has a run below."""

from __future__ import annotations

import json
import re

import pytest

from curator.cli import command_modules, main

WIDTH = 80
# a count at a line's end, its noun starting the next line: a phrase broken in two
SPLIT = re.compile(r"^\s*(tok|tokens|files?|records?|findings?|new findings|resolved|lines?|rows?|index rows|memories|"
                   r"sessions?|queries|hits?)\b")


@pytest.fixture
def demo(monkeypatch, tmp_path):
    """The demo's private copy (git history, two transcripts), the current folder."""
    from curator.demo.sample_copy import demo_store

    monkeypatch.setenv("COLUMNS", str(WIDTH))
    monkeypatch.setenv("CURATOR_NO_REPLAY", "1")
    monkeypatch.setenv("CURATOR_NO_FAST", "1")
    repo, is_copy = demo_store()
    assert is_copy
    monkeypatch.chdir(repo)
    return repo


def _run(capsys, argv) -> tuple[int, list[str]]:
    try:
        code = main(argv)
    except SystemExit as exc:  # (an argparse usage error)
        code = exc.code
    got = capsys.readouterr()
    return code, got.out.splitlines() + got.err.splitlines()


def _problems(argv, lines) -> list[str]:
    out = []
    for i, line in enumerate(lines):
        if line.startswith("curator: error:"):
            out.append(f"{argv}: an error instead of output: {line}")
        if len(line) > WIDTH:
            out.append(f"{argv}: {len(line)} columns: {line!r}")
        if line != line.rstrip():
            out.append(f"{argv}: trailing spaces: {line!r}")
        before = lines[i - 1] if i else ""
        indent = len(line) - len(line.lstrip())  # (a deeper line starts a block of its own)
        if re.search(r"\d$", before) and SPLIT.match(line) and indent <= len(before) - len(before.lstrip()):
            out.append(f"{argv}: a count split from its noun: {lines[i - 1]!r} / {line!r}")
    return out


def test_every_command_fits_80_columns_unpadded(capsys, demo, tmp_path):
    code, lines = _run(capsys, ["sessions", "--format", "json"])
    session = json.loads("\n".join(lines))["sessions"][0]["session_id"]
    code, lines = _run(capsys, ["sessions", "--show", session, "--format", "json"])
    turn = json.loads("\n".join(lines))["turns"][-1]["uuid"]
    runs = {
        "check": [["check"], ["check", "--list"], ["check", "--explain", "keywords.collision"],
                  ["check", ".claude/memory"]],
        "context": [["context"]],
        "drift": [["drift"]],
        "eval": [["eval", ".serena/memories"]],
        "tokens": [["tokens"], ["tokens", "docs"]],
        "review": [["review"]],
        "retrieve": [["retrieve", "how are releases tagged"],
                     ["retrieve", "migration lock timeout", "--why", ".serena/memories/knowledge/architecture.md"]],
        "usage": [["usage"]],
        "tiers": [["tiers"]],
        "sessions": [["sessions"], ["sessions", "--show", session], ["sessions", "--search", "pool"]],
        "baseline": [["baseline", "-o", str(tmp_path / "baseline.json")]],
        "fix": [["fix", "--dry-run"], ["fix", "--dry-run", "--check", "orphan.unindexed"]],
        "refresh": [["refresh", "--dry-run"]],
        "prune": [["prune", "--dry-run"]],
        "keywords": [["keywords", ".serena/memories/memory-index.md:9", "--set", "git", "worktree", "--dry-run"]],
        "promote": [["promote", "validation/2026-11-18-c0ffee.md", "--to", "ci/ci-webhook-signing.md", "--index",
                     "skills-ci-index.md", "--dry-run", "--store", ".serena/memories"]],
        "mine": [["mine", session, turn, "--dry-run", "--store", ".serena/memories"]],
        "history": [["history"]],
        "undo": [["undo"]],
        "watch": [["watch", "--timeout", "0.2"]],
    }
    names = {m.NAME for m in command_modules()}
    assert names <= set(runs), f"commands with no 80-column run here: {sorted(names - set(runs))}"
    # one change applied, so history and undo have something to say
    assert _run(capsys, ["refresh", "--store", ".serena/memories"])[0] == 0
    problems = []
    for name in sorted(names):
        for argv in runs[name]:
            code, lines = _run(capsys, argv)
            assert lines, f"{argv} printed nothing"
            assert code in (0, 1), (argv, code, lines[-3:])
            problems += _problems(argv, lines)
    assert not problems, "\n".join(problems[:40])


def test_the_checker_catches_what_it_must(capsys):
    """The rules above fail on the very things issue 33 saw."""
    assert _problems(["x"], ["a" * 81])
    assert _problems(["x"], ["tier       tokens   "])
    assert _problems(["x"], ["  2 of 3 sources changed · 4 records · 0", "  new findings · 2 resolved"])
    assert not _problems(["x"], ["  .serena/memories/x.md  230", "      row in memory-index.md matched tag"])
    assert not _problems(["x"], ["  2 of 3 sources changed · 4 records", "0 new findings · 2 resolved"])
