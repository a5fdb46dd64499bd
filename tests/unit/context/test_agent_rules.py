"""The agent load rules as data: every row well-formed and sourced, one row of a key at any
version, docs/agents.md generated from them, the loaders holding no number of their own, and the
other agents as they load today (Devin Desktop, Gemini CLI, Cursor, Copilot)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from curator.agents import (
    TABLES,
    UnknownAgent,
    VersionError,
    canonical,
    label,
    parse_choice,
    rules_for,
    version_key,
)
from curator.reports.agents_report import agents_markdown

from .test_context_model import build, repo

REPO = Path(__file__).resolve().parents[3]
LOADERS = ("claude.py", "claude_items.py", "claude_memory.py", "claude_settings.py", "agents_md.py", "rules.py",
           "cline.py", "roo.py", "others.py", "presence.py")


def test_docs_agents_md_is_in_sync():
    assert (REPO / "docs" / "agents.md").read_text(encoding="utf-8") == agents_markdown(), \
        "docs/agents.md is stale: python -m curator.reports.agents_report > docs/agents.md"


@pytest.mark.parametrize("agent", sorted(TABLES))
def test_every_row_has_a_source_and_one_row_of_a_key_holds_at_any_version(agent):
    table = TABLES[agent]
    seen = set()
    for rule in table.rows:
        assert (rule.key, rule.since) not in seen, rule.key
        seen.add((rule.key, rule.since))
        assert rule.source.page.startswith("https://") and re.fullmatch(r"\d{4}-\d{2}-\d{2}", rule.source.checked)
        assert rule.when in ("start-up", "on demand", "never", "cap", "setting", "memory", "record")
        if rule.since and rule.until:
            assert version_key(rule.since) < version_key(rule.until)
    oldest = "2000-01" if table.versioning == "date" else "0.0.1"  # a date table takes no bare release number
    for version in [table.newest, oldest, *table.boundaries()]:
        table.at(version)  # raises when two rows of a key overlap
    assert version_key(table.newest) >= max((version_key(v) for v in table.boundaries()), default=(0,))


def test_versions_and_names():
    assert parse_choice("claude-code@2.1.270") == ("claude-code", "2.1.270")
    assert parse_choice("Windsurf") == ("devin", None) and canonical("windsurf") == "devin"
    assert (label("devin", "2026-05"), label("devin")) == ("Windsurf", "Devin Desktop")
    with pytest.raises(VersionError):
        parse_choice("codex@latest")
    with pytest.raises(UnknownAgent):
        parse_choice("aider")
    assert rules_for("claude-code", "2.1.276").has("agents-md.unsupported")
    assert not rules_for("claude-code", "2.1.277").has("agents-md.unsupported")
    assert rules_for("claude-code", "2.1.281").id("agents-md.providers") == ""


def test_the_loaders_hold_no_number_of_their_own():
    """Caps, depths and sizes come from the rows: no integer literal over 10 in a loader."""
    found = []
    for name in LOADERS:
        tree = ast.parse((REPO / "curator" / "context" / name).read_text(encoding="utf-8"))
        found += [(name, n.lineno, n.value) for n in ast.walk(tree)
                  if isinstance(n, ast.Constant) and type(n.value) is int and n.value > 10]
    assert found == []


def test_devin_desktop_reads_its_folder_and_windsurfs_and_windsurf_names_it(tmp_path):
    root = repo(tmp_path, {".devin/rules/a.md": "---\ntrigger: always_on\n---\n" + "d" * 13_000 + "\n",
                           ".windsurf/rules/b.md": "---\ntrigger: always_on\n---\nw\n"})
    home = tmp_path / "home" / ".config" / "devin"
    home.mkdir(parents=True)
    (home / "AGENTS.md").write_text("global\n")
    m = build(root, tmp_path, agents=["windsurf"])
    ctx = m.agents["devin"]
    assert [e.path for e in ctx.startup] == [".devin/rules/a.md", ".windsurf/rules/b.md"] and ctx.label == "Devin Desktop"
    assert ctx.startup[0].cut is not None and [u.rule for u in ctx.never] == ["devin/rules.max-chars"]
    assert [e.path for e in ctx.user] == ["~/.config/devin/AGENTS.md"]
    old = build(root, tmp_path, versions={"windsurf": "2026-05"}).agents["devin"]
    assert [e.path for e in old.startup] == [".windsurf/rules/b.md"] and old.label == "Windsurf"


def test_gemini_reads_only_context_file_name_today(tmp_path):
    root = repo(tmp_path, {".gemini/settings.json": '{"contextFileName": "AGENTS.md"}', "AGENTS.md": "a\n",
                           "GEMINI.md": "g\n"})
    today = build(root, tmp_path).agents["gemini"]
    assert [e.path for e in today.startup] == ["GEMINI.md"]
    assert any("contextFileName no longer works" in n for n in today.notes)
    old = build(root, tmp_path, versions={"gemini": "0.30.0"}).agents["gemini"]
    assert [e.path for e in old.startup] == ["AGENTS.md"] and old.startup[0].rule == "gemini/context.legacy-setting"


def test_a_plain_md_in_cursor_rules_is_never_loaded(tmp_path):
    root = repo(tmp_path, {".cursor/rules/style.md": "---\nalwaysApply: true\n---\nx\n",
                           ".cursor/rules/ok.mdc": "---\nalwaysApply: true\n---\ny\n"})
    cur = build(root, tmp_path).agents["cursor"]
    assert [e.path for e in cur.startup] == [".cursor/rules/ok.mdc"]
    [md] = cur.never
    assert md.path == ".cursor/rules/style.md" and md.rule == "cursor/rules.plain-md" and ".mdc" in md.reason


def test_copilots_code_review_limit_is_formerly_documented_and_cuts_nothing(tmp_path):
    text = "c" * 5000 + "\n"
    root = repo(tmp_path, {".github/copilot-instructions.md": text})
    cop = build(root, tmp_path).agents["copilot"]
    assert cop.startup[0].cut is None and cop.startup[0].bytes == len(text)
    assert any("formerly documented" in n for n in cop.notes)


def test_rule_folders_that_are_files_are_facts_of_the_model(tmp_path):
    root = repo(tmp_path, {".cursor/rules": "not a folder\n", "docs/.clinerules": "x\n", "AGENTS.md": "a\n"})
    m = build(root, tmp_path)
    assert [(u.path, u.rule) for u in m.misplaced] == [(".cursor/rules", "cursor/rules.folder"),
                                                       ("docs/.clinerules", "cline/rules.root")]
    # and each is a finding saying where it should go (phase 2: instructions.misplaced)
    assert [(f.check, f.path) for f in m.findings] == [("instructions.misplaced", ".cursor/rules"),
                                                       ("instructions.misplaced", "docs/.clinerules")]
    assert "at the workspace root" in m.findings[1].message and ".cursor/rules/<name>.mdc" in m.findings[0].message


def test_a_release_number_for_an_agent_kept_by_date_is_refused_not_read_as_the_oldest_rules():
    from curator.agents import VersionError, rules_for

    with pytest.raises(VersionError, match="write cursor@2026-01"):
        rules_for("cursor", "2.4")
    assert rules_for("cline", "4.1.13").has("rules.top-level")  # Cline's releases have their days
