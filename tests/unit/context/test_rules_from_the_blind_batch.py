"""Rules measured on repositories curator had not seen (issue 30's blind batch): a path given
as an example or as one that may be absent is no stale reference; a plain `.md` Cursor rule's
globs are checked as its `.mdc` would be, whole lists only; Devin's own folder says it is used."""

from __future__ import annotations

import pytest

from .test_context_model import build, repo


def found(model, check):
    return [(f.path, f.line) for f in model.findings if f.check == check]


@pytest.mark.parametrize("line", [
    # grid-sight (spec-kit template): an example, in a clause that says "if present"
    "Read any runtime guidance docs (e.g., `README.md`, `docs/quickstart.md`, or guides if present).",
    "Point it at a guide, e.g. `docs/quickstart.md`.",
    "Also read `docs/quickstart.md` if present.",
    "Update `docs/quickstart.md` if it exists.",
    "Read `docs/quickstart.md` if one exists.",
])
def test_a_path_given_as_an_example_or_maybe_absent_is_not_missing(tmp_path, line):
    root = repo(tmp_path, {"AGENTS.md": f"# Guide\n\n{line}\n", "docs/walkthrough.md": "w\n"})
    assert found(build(root, tmp_path), "instructions.missing-path") == []


@pytest.mark.parametrize("line", [
    "Read `docs/quickstart.md` before you start.",
    # "i.e." restates, it does not give an example: the file is claimed to be there
    "The guide (i.e. `docs/quickstart.md`) is required.",
    # a word that merely ends in "eg." is no "e.g."
    "Run the peg. `docs/quickstart.md` holds the steps.",
])
def test_a_path_said_to_be_there_is_still_missing(tmp_path, line):
    root = repo(tmp_path, {"AGENTS.md": f"# Guide\n\n{line}\n", "docs/walkthrough.md": "w\n"})
    assert found(build(root, tmp_path), "instructions.missing-path") == [("AGENTS.md", 3)]


def _cursor_md(tmp_path, meta: str):
    return repo(tmp_path, {".cursor/rules/ui.md": f"---\n{meta}\n---\nUse the kit.\n",
                           "app/frontend/App.jsx": "x\n", "app/server.py": "x\n"})


def test_a_plain_md_rules_dead_globs_are_said_with_what_the_rename_leaves(tmp_path):
    m = build(_cursor_md(tmp_path, 'globs: ["frontend/**/*.jsx", "frontend/**/*.css"]'), tmp_path)
    (msg,) = [f.message for f in m.findings if f.check == "instructions.dead-glob"]
    assert msg.endswith("renamed to .mdc, the rule would still never load")
    assert found(m, "instructions.cursor-md") == [(".cursor/rules/ui.md", None)]


@pytest.mark.parametrize("meta", [
    'globs: ["app/**/*.jsx", "frontend/**/*.css"]',  # live list: its dead half can wait (no info)
    'globs: ["frontend/**/*.jsx"]\nalwaysApply: true',  # always applied once renamed: globs do not matter
    "description: UI kit",  # no globs at all
])
def test_a_plain_md_rule_that_would_load_once_renamed_has_no_glob_finding(tmp_path, meta):
    m = build(_cursor_md(tmp_path, meta), tmp_path)
    assert found(m, "instructions.dead-glob") == found(m, "instructions.dead-glob-part") == []


@pytest.mark.parametrize("files", [
    # deephaven: Devin skills and workflows, and a `.devin/rules` that is a file, not a folder
    {".devin/skills/research/SKILL.md": "---\nname: research\ndescription: d\n---\nx\n",
     ".devin/workflows/check.md": "steps\n", ".devin/rules": "style guide\n"},
    {".windsurf/workflows/release.md": "steps\n"},
])
def test_the_agents_own_folder_says_devin_is_used_and_reads_agents_md(tmp_path, files):
    m = build(repo(tmp_path, {"AGENTS.md": "# Repo\n", **files}), tmp_path)
    assert [e.path for e in m.agents["devin"].startup] == ["AGENTS.md"]


def test_an_agents_md_alone_does_not_make_devin_used(tmp_path):
    assert "devin" not in build(repo(tmp_path, {"AGENTS.md": "# Repo\n"}), tmp_path).agents
