"""Fixes of instruction files (issue 23): a broken import re-pointed to its one candidate,
`alwaysApply: "true"` as a boolean, Cursor's `globs:` as Claude Code's `paths:` — each planned,
gated (no new finding), applied through the journal at the repository root and undone
byte-identically; nothing is written through a symbolic link."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from curator.context import build_context
from curator.curation import NothingToDo, apply_plan, undo
from curator.curation.instruction_fixes import FIXABLE, plan_instruction_fixes
from curator.model.hints import hint


def repo(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "repo"
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return root


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".curator" not in p.parts}


def findings(root, home, check=None):
    model = build_context(root, count=False, env={"CI": "1", "HOME": str(home)}, home=str(home))
    return [f for f in model.findings if check is None or f.check == check]


def plan(root, home, *checks):
    return plan_instruction_fixes(root, set(checks or FIXABLE), env={"CI": "1", "HOME": str(home)}, home=str(home))


@pytest.fixture
def home(tmp_path):
    h = tmp_path / "home"
    h.mkdir()
    return h


def test_a_broken_import_is_re_pointed_to_the_one_file_of_its_name_and_undone_byte_identically(tmp_path, home):
    root = repo(tmp_path, {"CLAUDE.md": "# P\n\nSee @docs/guide.md.\n",
                           "guides/guide.md": "# Guide\n"})
    before = snapshot(root)
    [f] = findings(root, home, "instructions.import-broken")
    assert "the one guide.md in the repository is guides/guide.md" in f.message
    assert hint(f).command == "curator fix --check instructions.import-broken"
    p = plan(root, home, "instructions.import-broken")
    assert "-See @docs/guide.md.\n+See @guides/guide.md.\n" in p.diff()  # the full stop kept
    apply_plan(root, p)
    assert findings(root, home) == []
    assert [e.path for e in build_context(root, count=False, env={"CI": "1"}, home=str(home))
            .agents["claude-code"].startup] == ["CLAUDE.md", "guides/guide.md"]
    undo(root)
    assert snapshot(root) == before


def test_an_import_with_several_candidates_stays_a_finding_naming_them(tmp_path, home):
    root = repo(tmp_path, {"CLAUDE.md": "@docs/setup.md\n", "a/setup.md": "a\n", "b/setup.md": "b\n"})
    [f] = findings(root, home, "instructions.import-broken")
    assert f.fix is None and "candidates: a/setup.md, b/setup.md" in f.message
    with pytest.raises(NothingToDo, match="no instruction finding"):
        plan(root, home, "instructions.import-broken")


def test_a_fix_that_would_add_a_finding_is_dropped_with_a_note(tmp_path, home):
    # the one a.md imports CLAUDE.md back: re-pointing would close a cycle
    root = repo(tmp_path, {"CLAUDE.md": "@docs/a.md\n", "notes/a.md": "@../CLAUDE.md\n",
                           ".cursor/rules/x.mdc": '---\nalwaysApply: "true"\n---\nx\n'})
    p = plan(root, home)
    assert [e.path for e in p.edits] == [".cursor/rules/x.mdc"]
    assert any("dropped the fix of CLAUDE.md: it would add instructions.import-cycle" in n for n in p.notes)


def test_string_bool_becomes_a_boolean_and_the_rule_is_always_applied(tmp_path, home):
    root = repo(tmp_path, {".cursor/rules/style.mdc": "---\r\ndescription: House style\r\nalwaysApply: 'true'\r\n---\r\nx\r\n"})
    apply_plan(root, plan(root, home, "instructions.string-bool"))
    assert (root / ".cursor/rules/style.mdc").read_bytes() == b"---\r\ndescription: House style\r\nalwaysApply: true\r\n---\r\nx\r\n"
    model = build_context(root, count=False, env={"CI": "1"}, home=str(home))
    assert [e.path for e in model.agents["cursor"].startup] == [".cursor/rules/style.mdc"]


@pytest.mark.parametrize(("front", "after"), [
    ("globs: src/**/*.tsx, lib/*.ts\nalwaysApply: false\n", 'paths:\n  - "src/**/*.tsx"\n  - "lib/*.ts"\n'),
    ("globs:\n  - src/**/*.tsx\n", 'paths:\n  - "src/**/*.tsx"\n'),
    ("description: x\nalwaysApply: true\nglobs: src/**\n", "description: x\n"),  # always: both keys go
])
def test_cursor_keys_in_claude_rules_become_paths(tmp_path, home, front, after):
    root = repo(tmp_path, {".claude/rules/react.md": f"---\n{front}---\n# React\n", "src/app.tsx": "",
                           "lib/a.ts": ""})
    apply_plan(root, plan(root, home, "instructions.foreign-keys"))
    assert (root / ".claude/rules/react.md").read_text() == f"---\n{after}---\n# React\n"
    assert findings(root, home) == []


def test_a_rule_read_through_a_symbolic_link_is_never_written(tmp_path, home):
    root = repo(tmp_path, {"shared/style.mdc": '---\nalwaysApply: "true"\n---\nx\n'})
    (root / ".cursor/rules").mkdir(parents=True)
    (root / ".cursor/rules/style.mdc").symlink_to("../../shared/style.mdc")
    [f] = findings(root, home, "instructions.string-bool")
    assert f.fix is None  # no fix is offered for a link; the file it names is not a rule
    with pytest.raises(NothingToDo):
        plan(root, home, "instructions.string-bool")


def _cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "curator", *args], capture_output=True, text=True, cwd=cwd,
                          env={**__import__("os").environ, "CI": "1"})


def test_cli_fix_dry_run_apply_and_undo_repository(tmp_path, home):
    root = repo(tmp_path, {".cursor/rules/style.mdc": '---\nalwaysApply: "true"\n---\nx\n'})
    before = snapshot(root)
    dry = _cli("fix", str(root), "--check", "instructions.string-bool", "--dry-run", cwd=tmp_path)
    assert dry.returncode == 0 and "+alwaysApply: true" in dry.stdout and snapshot(root) == before
    done = _cli("fix", str(root), "--check", "instructions.string-bool", cwd=tmp_path)
    assert done.returncode == 0 and "curator undo --repository" in done.stdout, done.stderr
    assert snapshot(root) != before
    back = _cli("undo", str(root), "--repository", cwd=tmp_path)
    assert back.returncode == 0 and snapshot(root) == before, back.stderr
    listed = _cli("history", str(root), "--repository", "--format", "json", cwd=tmp_path)  # as the app's history
    import json

    assert [(o["title"], o["state"]) for o in json.loads(listed.stdout)["operations"]] == [
        ("fix 1 instruction finding(s)", "undone")], listed.stderr
    mixed = _cli("fix", str(root), "--check", "instructions.string-bool", "links.broken", cwd=tmp_path)
    assert mixed.returncode == 2 and "separate runs" in mixed.stderr
    none = _cli("fix", str(root), "--check", "instructions.cap", cwd=tmp_path)
    assert none.returncode == 2 and "no automatic fix for instructions.cap" in none.stderr


def test_a_store_plan_never_takes_an_instruction_fix(tmp_path, home, make_store):
    from curator.base.tokens import FakeTokenCounter
    from curator.curation import plan_fixes
    from curator.model import load_store

    root = repo(tmp_path, {".cursor/rules/style.mdc": '---\nalwaysApply: "true"\n---\nx\n'})
    [f] = findings(root, home, "instructions.string-bool")
    store = load_store(make_store({"a.md": "# A\n"}), token_counter=FakeTokenCounter())
    with pytest.raises(NothingToDo, match="curator fix --check instructions.string-bool"):
        plan_fixes(store, [f], {"instructions.string-bool"})
