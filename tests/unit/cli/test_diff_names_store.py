"""A writing command's diff names the memory system it writes to, its paths the repository's
(issue 33: `fix --dry-run` printed store-relative paths with no store named)."""

from __future__ import annotations

import json

from curator.cli import main


def test_fix_dry_run_in_a_repository_names_the_store_and_repository_paths(capsys, sample_repo_copy, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.chdir(sample_repo_copy)
    assert main(["fix", "--dry-run"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "writes to .serena/memories"
    heads = [line for line in out if line.startswith(("--- a/", "+++ b/"))]
    assert heads and all(line[6:].startswith(".serena/memories/") for line in heads)
    assert max(len(line) for line in out) <= 80  # each diff line fitted, never wrapped
    assert main(["fix", "--dry-run", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["store"] == ".serena/memories" and "+++ b/" in data["diff"]  # the JSON keeps the whole diff


def test_a_store_given_alone_is_named_by_its_place_in_the_repository(capsys, sample_repo_copy):
    assert main(["refresh", "--dry-run", "--store", str(sample_repo_copy / ".claude" / "memory")]) in (0, 1)
    out = capsys.readouterr().out
    assert out.startswith("writes to .claude/memory") or out.startswith("nothing to do")
