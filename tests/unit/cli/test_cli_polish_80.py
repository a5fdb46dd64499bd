"""The CLI at COLUMNS=80: whole phrases, no padded lines, counts whose nouns agree, the app's
use first in the usage, and STORE help that says what happens when none is found."""

from __future__ import annotations

import pytest

from curator.cli import main


@pytest.fixture(autouse=True)
def _eighty(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("CURATOR_NO_REPLAY", "1")


def _out(capsys) -> list[str]:
    return capsys.readouterr().out.splitlines()


def test_check_lines_are_never_padded_and_totals_stay_whole(capsys, sample_repo_copy):
    main(["check", str(sample_repo_copy)])
    lines = _out(capsys)
    assert lines and not [line for line in lines if line != line.rstrip()]
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    # a source's facts and the store's totals are never cut between a number and its noun
    assert any(line.strip().startswith("96 files · ") for line in lines) or any(" 96 files · " in line for line in lines)
    assert not any(line.rstrip().endswith(("·", "records", "16,559")) for line in lines)


def test_one_of_a_thing_is_singular(capsys, sample_repo_copy):
    main(["check", str(sample_repo_copy / ".claude" / "memory"), "--only", "index.missing-target", "orphan.unindexed"])
    text = "\n".join(_out(capsys))
    assert " 1 index " in text and "1 indexes" not in text
    assert "from 2 checks." in text or "from 1 check of the 2 run." in text


def test_the_summary_says_how_many_checks_ran(capsys, sample_repo_copy):
    main(["check", str(sample_repo_copy / ".claude" / "memory")])
    last = _out(capsys)[-1]
    assert last.startswith("Found ") and " of the " in last and last.endswith(" run.")


def test_usage_puts_the_app_first_and_store_help_tells_the_truth(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert out.startswith("usage: curator [STORE]")
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "sample" not in out and "none found is an error" in out


def test_sessions_all_says_they_ran_anywhere(capsys, sample_repo_copy, tmp_path, monkeypatch):
    from curator.demo.repository import write_transcripts

    projects = tmp_path / "claude" / "projects"
    write_transcripts(sample_repo_copy, projects)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(projects.parent))
    other = tmp_path / "elsewhere"
    other.mkdir()
    main(["sessions", str(other), "--all"])
    lines = _out(capsys)
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    text = " ".join(" ".join(lines).split())
    assert "ran in" in lines[0] and "4 session(s) run anywhere (--all; 4 outside" in text


def test_check_list_wraps_summaries_under_their_id(capsys):
    main(["check", "--list"])
    lines = _out(capsys)
    assert all(len(line) <= 80 and line == line.rstrip() for line in lines)
    assert not any(line.strip() in ("[all formats]", "it [all formats]") for line in lines)  # no phrase cut at the edge


def test_drift_reads_at_80_columns(capsys, sample_repo_copy):
    main(["drift", str(sample_repo_copy)])
    lines = _out(capsys)
    assert lines[0].endswith("out of step")
    assert all(len(line) <= 80 and line == line.rstrip() for line in lines), [ln for ln in lines if ln != ln.rstrip()]
    assert any("copies diverged" in line for line in lines)  # CLAUDE.md and AGENTS.md beside the memory


def test_a_path_wider_than_the_column_never_cuts_its_message(capsys, make_store, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")  # wide enough for the message beside a 48-column path
    # the shape of elephant.ai's experience entries: a short path and 60-character dated names in
    # one group; the long one used to run into its message, which was cut at the edge
    long = "2026-03-17-anthropic-overloaded-sse-fallback-timeout-and-retry.md"
    root = make_store({
        "memory-index.md": "[Git]\n|git: [skills-git-index](skills-git-index.md)\n",
        "skills-git-index.md": "| Keywords | File |\n|---|---|\n| rebase squash fixup reflog onto | [git/a](git/a.md) |\n",
        "git/a.md": "# A\n\nSee [gone](gone.md).\n",
        f"git/{long}": "# B\n\nSee [gone too](gone-too.md).\n",
    })
    main(["check", str(root), "--only", "links.broken"])
    lines = _out(capsys)
    assert all(len(line) <= 100 for line in lines), max(lines, key=len)
    text = " ".join(" ".join(lines).split())
    assert f"git/{long}:3 link to gone-too.md reaches nothing" in text, text
    assert "git/a.md:3 link to gone.md reaches nothing" in text, text
