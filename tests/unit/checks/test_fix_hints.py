"""Every finding says how to fix it (issue 23): the command in the CLI text, a line in SARIF,
the app key of a finding (`model.hints.hint`)."""

from __future__ import annotations

import json

from curator.cli import main
from curator.model.findings import DropRow, Finding, Severity
from curator.model.hints import hint


def test_a_fixable_finding_names_its_command_and_key():
    f = Finding("index.missing-target", Severity.ERROR, "MEMORY.md", "gone.md does not exist", 3,
                fix=DropRow("MEMORY.md", 3, "gone.md", "dead"))
    assert hint(f).command == "curator fix --check index.missing-target" and hint(f).key == "x"


def test_a_collision_says_edit_the_keywords_with_e_on_its_row():
    f = Finding("keywords.collision", Severity.WARNING, "skills-a-index.md", "shares 5 of 6 keywords", 7,
                target="skills-b-index.md")
    h = hint(f)
    assert h.key == "e" and "skills-a-index.md:7" in h.text and h.command.startswith("curator keywords skills-a-index.md")


def test_cli_text_and_sarif_show_how_to_fix(sample_copy, capsys):
    main(["check", str(sample_copy)])
    out = "".join(capsys.readouterr().out.split())  # wrapped at any width
    assert "".join(f"fix: $ curator fix --store {sample_copy} --check index.missing-target".split()) in out
    main(["check", str(sample_copy), "--format", "sarif"])
    results = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    assert results and all("\nFix: " in r["message"]["text"] for r in results)
