"""Issue 29: names, import targets and journal titles from a repository are printed escaped.
A terminal escape sequence (clipboard write, screen clear, colours) never reaches the terminal;
a file name holding a newline never starts a line — in text output, never a GitHub workflow
command (`--format github` escapes `%`, CR, LF and, in properties, `:` and `,`); SARIF and
JSON keep the exact bytes."""

from __future__ import annotations

import json
import re

import pytest

from curator.cli import main

ESC_IMPORT = "docs/\x1b]52;c;ZXZpbA==\x07x\x1b[2J.md"
NEWLINE_RULE = "x\n::error file=a::pwned.md"
RED_RULE = "\x1b[31mred.md"
COMMAND_RULE = "::warning file=b::plain.md"  # no control character: a name alone on its line would be a command
RULE = '---\npaths: ["nothing/**"]\n---\n# r\n'
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@pytest.fixture
def hostile(tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / ".claude" / "rules").mkdir(parents=True)
    (repo / "CLAUDE.md").write_text(f"# P\n\nSee @{ESC_IMPORT}\n")
    (repo / "src").mkdir()  # source the rules' globs miss (a kit without source has no dead globs)
    (repo / "src" / "app.py").write_text("x = 1\n")
    for name in (NEWLINE_RULE, RED_RULE, COMMAND_RULE):
        (repo / ".claude" / "rules" / name).write_text(RULE)
    monkeypatch.setenv("CURATOR_NO_REPLAY", "1")
    return repo


def out_of(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv", [["check"], ["context"], ["tokens"]])
def test_text_output_shows_control_characters_visibly(hostile, capsys, argv):
    code, out, err = out_of(capsys, *argv, str(hostile))
    assert not CONTROL.search(out) and not CONTROL.search(err), repr(out)
    assert not any(line.lstrip(" \t").startswith(("::", "##[")) for line in out.splitlines())  # the runner trims
    if argv == ["check"]:
        assert "red.md" in out and "pwned.md" in out  # still named, only made visible


def test_github_annotations_escape_what_the_format_requires(hostile, capsys):
    code, out, _ = out_of(capsys, "check", str(hostile), "--format", "github")
    lines = out.splitlines()
    assert len(lines) == 4 and all(re.match(r"::(error|warning|notice) file=", ln) for ln in lines), lines
    assert not CONTROL.search(out.replace("\n", ""))
    pwned = next(ln for ln in lines if "pwned" in ln)
    props = pwned.split(" ", 1)[1].split("::", 1)[0]
    assert props.count("::") == 0 and "file=.claude/rules/x%0A%3A%3Aerror file=a%3A%3Apwned.md" in props


def test_json_and_sarif_keep_the_exact_names(hostile, capsys):
    _, out, _ = out_of(capsys, "check", str(hostile), "--format", "json")
    paths = {f["path"] for f in json.loads(out)["findings"]}
    assert f".claude/rules/{NEWLINE_RULE}" in paths and f".claude/rules/{RED_RULE}" in paths
    _, out, _ = out_of(capsys, "check", str(hostile), "--format", "sarif")
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"]
            for r in json.loads(out)["runs"][0]["results"] for loc in r["locations"]}
    assert f".claude/rules/{NEWLINE_RULE}" in uris


def test_a_journal_title_is_printed_visibly(hostile, capsys):
    import hashlib

    entry = hostile / ".curator" / "journal" / "00001-fix"
    (entry / "blobs").mkdir(parents=True)
    data = (hostile / "CLAUDE.md").read_bytes()
    (entry / "blobs" / hashlib.sha256(data).hexdigest()).write_bytes(data)
    d = hashlib.sha256(data).hexdigest()
    (entry / "meta.json").write_text(json.dumps({
        "id": "00001-fix", "operation": "fix", "title": "fix\x1b[2J\x1b]0;owned\x07\nforged line", "created": "2026-11-19",
        "state": "applied", "files": [{"path": "CLAUDE.md", "before": d, "after": d}]}))
    code, out, err = out_of(capsys, "history", "--repository", str(hostile))
    assert not CONTROL.search(out) and not CONTROL.search(err), repr(out)
    code, out, err = out_of(capsys, "undo", "--repository", str(hostile))
    assert not CONTROL.search(out) and not CONTROL.search(err), repr(err)
