"""`curator watch`: the CLI face of the live store — each change on disk and what it did to the
findings, through the same session and watcher as the app."""

from __future__ import annotations

import json
import threading
import time

from curator.cli import main

INDEX = "| Keywords | File |\n|---|---|\n| alpha beta gamma delta epsilon | [notes/a](notes/a.md) |\n"


def _watch_while(capsys, root, write, count: int = 1) -> list[dict]:
    """`curator watch ROOT --count COUNT` while `write(i)` changes a file every 0.3 s, until the
    watcher is up and saw one; the JSON lines it printed."""
    done = threading.Event()

    def write_until_seen() -> None:
        i = 0
        while not done.is_set():
            write(i)
            i += 1
            done.wait(0.3)

    writer = threading.Thread(target=write_until_seen, daemon=True)
    writer.start()
    try:
        code = main(["watch", str(root), "--format", "json", "--count", str(count), "--timeout", "15"])
    finally:
        done.set()
        writer.join(2)
    assert code == 0
    lines = [json.loads(ln) for ln in capsys.readouterr().out.splitlines() if ln.startswith("{")]
    assert lines, "no change reported within 15 s"
    return lines


def test_watch_prints_the_change_and_the_findings_it_adds(capsys, make_store):
    root = make_store({
        "memory-index.md": "| Keywords | File |\n|---|---|\n| notes | [notes-index](notes-index.md) |\n",
        "notes-index.md": INDEX,
        "notes/a.md": "# A\nalpha\n",
    })
    lines = _watch_while(capsys, root, lambda i: (root / f"notes/new-{i}.md").write_text(f"# New\n{time.monotonic()}\n"))
    first = lines[0]
    [path] = first["paths"]
    assert path.startswith("notes/new-")
    assert any(f["check"] == "orphan.unindexed" and f["path"] == path for f in first["added"])


def test_watch_refuses_bad_numbers(capsys, make_store):
    root = make_store({"notes/a.md": "# A\n"})
    assert main(["watch", str(root), "--count", "-1"]) == 2
    assert "--count" in capsys.readouterr().err


def test_watch_follows_the_instruction_files_of_a_repository_without_memory(capsys, tmp_path):
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "AGENTS.md").write_text("# Agents\n\nRun the tests.\n")
    # CLAUDE.md grows each time
    lines = _watch_while(capsys, root, lambda i: (root / "CLAUDE.md").write_text("# Claude\n\n" + "word " * (i + 1)))
    first = lines[0]
    assert first["source"] == "instructions" and first["paths"] == ["CLAUDE.md"]
    assert first["agents"]["codex"] > 0 and first["agents"]["claude-code"] > 0
    change = next(c for c in first["startup_changes"] if c["agent"] == "claude-code")
    # CLAUDE.md among the files that changed (when the watcher began before it existed, Claude Code's
    # AGENTS.md fallback goes out as it comes in: both are listed)
    assert change["after"] == first["agents"]["claude-code"] and "CLAUDE.md" in [f["path"] for f in change["files"]]


def test_watch_counts_the_repository_as_check_does(capsys, sample_repo_copy, monkeypatch):
    """Issue 33: watch announced one store's findings (41) for a repository with 52, and an edit
    printed lines with different counts; every count is now `check`'s total."""
    monkeypatch.setenv("CURATOR_NO_REPLAY", "1")
    main(["check", str(sample_repo_copy), "--format", "json"])
    summary = json.loads(capsys.readouterr().out)["summary"]
    total = summary["errors"] + summary["warnings"] + summary["infos"]
    assert main(["watch", str(sample_repo_copy), "--timeout", "0.1"]) == 0
    head = capsys.readouterr().out
    assert f"— {total} findings —" in " ".join(head.split())
    memory = sample_repo_copy / ".claude" / "memory" / "new_topic.md"
    lines = _watch_while(capsys, sample_repo_copy,
                         lambda i: memory.write_text(f"---\nname: n\ndescription: d{i}\ntype: project\n---\nx\n"),
                         count=2)  # (the instruction files' watcher may tell of it first: MEMORY.md's folder)
    change = next(ln for ln in lines if ln["source"] == ".claude/memory")
    main(["check", str(sample_repo_copy), "--format", "json"])
    summary = json.loads(capsys.readouterr().out)["summary"]
    assert change["findings"] == summary["errors"] + summary["warnings"] + summary["infos"]  # the same total


def test_a_change_at_80_columns_wraps_under_its_words():
    """A change's lines at 80 columns: none wider, none padded, a finding's further lines indented
    under its words (not back at the margin, where they read as a change of their own)."""
    import io

    from rich.console import Console

    from curator.cli.commands.watch import _print

    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None)
    message = "start-up load is 2,764 tokens, over its 2,500 budget; 22 line(s) fall past the cap"
    change = {"paths": ["knowledge/conventions.md"], "findings": 53, "source": ".serena/memories", "tokens": 16566,
              "added": [{"check": "budget.over", "path": "knowledge/domain-model.md", "line": 14, "message": message}],
              "cleared": []}
    _print(console, "text", change, ["serena start-up +3 tokens: .serena/memories +3"])
    lines = out.getvalue().splitlines()
    assert lines[0] == "knowledge/conventions.md · 53 findings (+1 −0) · .serena/memories 16,566 tokens"
    assert lines[1] == "  serena start-up +3 tokens: .serena/memories +3"
    assert lines[2].startswith("  + budget.over knowledge/domain-model.md:14 start-up load")
    assert len(lines) > 3 and all(ln.startswith("    ") for ln in lines[3:]), lines
    assert all(len(ln) <= 80 and ln == ln.rstrip() for ln in lines), lines
    assert " ".join(" ".join(lines[2:]).split()).endswith(message)
