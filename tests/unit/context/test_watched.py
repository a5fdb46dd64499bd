"""What the instruction watcher follows and what it hands on: the files the context model read,
new files where agents look — never an editor's swap file or a source file — and, through
watchfiles, a nested AGENTS.md added in a folder of its own."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from curator.base.tokens import FakeTokenCounter
from curator.context import build_context
from curator.context.watched import instruction_path, touches, watch_places
from curator.live.instruction_watch import watch_instructions


@pytest.mark.parametrize("rel", ["CLAUDE.md", "src/api/AGENTS.md", "GEMINI.md", ".cursorrules", ".curator.yaml",
                                 ".claude/rules/x.md", ".claude/rules", ".claude/skills/a/SKILL.md",
                                 ".cursor/rules/style.mdc", ".github/copilot-instructions.md",
                                 ".github/instructions/py.instructions.md", ".kiro/steering/a.md",
                                 ".roo/rules-code/a.md", ".roorules-code", "memory-bank/progress.md",
                                 ".devin/rules/a.md", ".claude/settings.json", ".claude/AGENTS.md"])
def test_where_agents_look(rel):
    assert instruction_path(rel)


@pytest.mark.parametrize("rel", ["src/app.py", "README.md", "docs/guide.md", ".claude/launch.json",
                                 ".claude/rules/.x.md.swp", ".claude/rules/x.md~", ".claude/rules/4913",
                                 ".github/workflows/ci.yml", ".claude/memory/topic.md"])
def test_what_no_agent_reads(rel):
    assert not instruction_path(rel)


def _repo(tmp_path) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "src" / "deep").mkdir(parents=True)
    (root / ".claude" / "rules").mkdir(parents=True)
    (root / "CLAUDE.md").write_text("# Project\n\nSee @docs/guide.md\n")
    (root / "docs" / "guide.md").write_text("# Guide\n\nUse uv.\n")
    (root / ".claude" / "rules" / "a.md").write_text("# A\n\nBe brief.\n")
    return Path(os.path.realpath(root))


def _model(root: Path, tmp_path):
    return build_context(root, token_counter=FakeTokenCounter(), env={"HOME": str(tmp_path / "home")})


def test_the_files_read_and_new_files_where_agents_look_touch_the_model(tmp_path):
    root = _repo(tmp_path)
    model = _model(root, tmp_path)
    assert touches(model, [root / "docs" / "guide.md"])  # imported: read, whatever its name
    assert touches(model, [root / "src" / "deep" / "CLAUDE.md"])  # new, nested
    assert touches(model, [root / ".claude" / "rules" / "b.md"])
    assert not touches(model, [root / "src" / "app.py", root / "docs" / "other.md", tmp_path / "CLAUDE.md"])
    places = watch_places(model)
    assert str(root / ".claude" / "rules") in places.deep
    assert {str(root), str(root / "docs"), str(root / "src" / "deep")} <= set(places.flat)
    assert not any(p.startswith(str(root / ".claude" / "rules")) for p in places.flat)  # (followed deep)


def test_only_batches_that_touch_the_current_model_are_handed_on(tmp_path):
    root = _repo(tmp_path)
    model = _model(root, tmp_path)
    batches = [{root / "src" / "app.py"}, {root / "CLAUDE.md", root / "src" / "app.py"}, {root / "x.swp"}]
    seen, stop = [], threading.Event()

    def events(places, stop):
        assert str(root) in places.flat
        yield from batches

    watch_instructions(lambda: model, seen.append, stop, events)
    assert seen == [batches[1]]


def test_no_model_yet_watches_nothing_and_reports_no_error():
    errors, seen = [], []

    def events(places, stop):
        raise AssertionError("nothing is watched without a model")

    watch_instructions(lambda: None, seen.append, threading.Event(), events, errors.append)
    assert errors == [] and seen == []


def test_watchfiles_sees_a_nested_agents_md_added_and_a_rule_edited(tmp_path):
    root = _repo(tmp_path)
    model = _model(root, tmp_path)
    seen, stop = [], threading.Event()
    thread = threading.Thread(target=watch_instructions, args=(lambda: model, seen.append, stop), daemon=True)
    thread.start()
    try:
        time.sleep(0.5)  # the watches are set
        (root / "src" / "deep" / "AGENTS.md").write_text("# Deep\n")
        (root / "src" / "deep" / "module.py").write_text("x = 1\n")
        end = time.monotonic() + 5
        while not seen and time.monotonic() < end:
            time.sleep(0.02)
        assert seen and root / "src" / "deep" / "AGENTS.md" in set().union(*seen)
        seen.clear()
        (root / ".claude" / "rules" / "a.md").write_text("# A\n\nBe very brief.\n")
        end = time.monotonic() + 5
        while not seen and time.monotonic() < end:
            time.sleep(0.02)
        assert root / ".claude" / "rules" / "a.md" in set().union(*seen)
    finally:
        stop.set()
        thread.join(2)
    assert not thread.is_alive()
