"""Serena's ignored_memory_patterns and read_only_memory_patterns (project .serena/project.yml and
the user's ~/.serena/serena_config.yml): an ignored memory is not loaded, counted or fixed; a
read-only one is never written, whoever plans it."""

from __future__ import annotations

import pytest

from curator.curation.apply import apply_plan
from curator.curation.draft import Draft
from curator.curation.plan import CurationError, FileEdit, Plan
from curator.model import load_store
from curator.model.serena_patterns import read_patterns


def serena(tmp_path, project_yml: str | None, memories: dict[str, str]):
    root = tmp_path / "repo" / ".serena" / "memories"
    for rel, text in memories.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    if project_yml is not None:
        (root.parent / "project.yml").write_text(project_yml)
    return root


MEMORIES = {"core.md": "# core\n", "_session/current.md": "# now\n", "global_rules.md": "# rules\n",
            "notes/x.sync-conflict-1.md": "# dup\n"}


def test_ignored_memories_are_not_loaded_and_read_only_ones_are_marked(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    root = serena(tmp_path, "ignored_memory_patterns:\n  - _session/.*\n  - '.*[.]sync-conflict-.*'\n"
                            "read_only_memory_patterns: [global_rules]\n", MEMORIES)
    store = load_store(root)
    assert sorted(store.records) == ["core.md", "global_rules.md"]
    patterns = store.memory_patterns
    assert sorted(patterns.hidden) == ["_session/current.md", "notes/x.sync-conflict-1.md"]
    assert patterns.is_read_only("global_rules.md") and not patterns.is_read_only("core.md")
    assert not store.reads_path("_session/current.md")  # the watcher's next snapshot agrees


def test_the_users_global_config_adds_up_and_is_not_read_in_ci(tmp_path):
    root = serena(tmp_path, "read_only_memory_patterns: [core]\n", MEMORIES)
    home = tmp_path / "home" / ".serena"
    home.mkdir(parents=True)
    (home / "serena_config.yml").write_text("ignored_memory_patterns: ['_session/.*']\n")
    both = read_patterns(root, {"HOME": str(tmp_path / "home")})
    assert both.ignored == ("_session/.*",) and both.read_only == ("core",)
    ci = read_patterns(root, {"HOME": str(tmp_path / "home"), "CI": "true"})
    assert ci.ignored == () and ci.read_only == ("core",)
    assert read_patterns(tmp_path / "repo", {}) is None  # not a Serena store


def test_a_bad_pattern_or_file_is_a_finding_never_a_crash(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    root = serena(tmp_path, "ignored_memory_patterns: ['(unclosed']\n", MEMORIES)
    store = load_store(root)
    assert len(store.records) == 4
    assert any("not a regular expression" in f.message for f in store.load_findings)
    (root.parent / "project.yml").write_text("ignored_memory_patterns: [: : :\n")
    assert any("not valid YAML" in f.message for f in load_store(root).load_findings)


def test_read_only_memories_are_never_written(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    root = serena(tmp_path, "read_only_memory_patterns: [global_rules, 'archive/.*']\n", MEMORIES)
    store = load_store(root)
    draft = Draft(root, "fix", "t", store)
    draft.replace_line("global_rules.md", 1, "# changed")
    draft.replace_line("core.md", 1, "# core, changed")
    draft.move("global_rules.md", "archive/global_rules.md")
    plan = draft.plan()
    assert [e.path for e in plan.edits] == ["core.md"]
    assert any("left global_rules.md alone" in n for n in plan.notes)
    before = (root / "global_rules.md").read_bytes()
    with pytest.raises(CurationError, match="read-only for Serena"):
        apply_plan(root, Plan("fix", "t", [FileEdit("global_rules.md", before, b"# overwritten\n")]))
    assert (root / "global_rules.md").read_bytes() == before
    apply_plan(root, plan)
    assert (root / "core.md").read_text() == "# core, changed\n"


def test_serenas_agent_entry_lists_only_what_serena_lists(tmp_path):
    from curator.base.tokens import FakeTokenCounter
    from curator.context import build_context

    root = serena(tmp_path, "ignored_memory_patterns: ['_session/.*']\n", MEMORIES)
    (tmp_path / "repo" / ".git").mkdir()
    model = build_context(tmp_path / "repo", token_counter=FakeTokenCounter(), env={"HOME": str(tmp_path / "home")})
    ctx = model.agents["serena"]
    assert "3 memory bodies" in ctx.on_demand[0].when
    assert ctx.settings["memory_patterns"]["hidden"] == ["_session/current.md"]
    assert any("ignored_memory_patterns" in n for n in ctx.notes)
    assert root.exists()


def test_a_pattern_that_could_backtrack_for_ever_is_not_applied_and_said(tmp_path, monkeypatch):
    """The patterns come with the repository (`.serena/project.yml`): `(a+)+$`-style patterns
    against a long memory name would hang every load; they are left out with a note."""
    import time

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    name = "a" * 120 + "!"
    root = serena(tmp_path, "ignored_memory_patterns:\n  - '(a+)+b'\n  - 'a*a*a*a*a*a*a*b'\n  - '(x|xy)*z'\n"
                            "read_only_memory_patterns: ['archive/.*']\n", {f"{name}.md": "# x\n", "core.md": "# c\n"})
    start = time.process_time()
    patterns = read_patterns(root)
    store = load_store(root)
    assert time.process_time() - start < 5
    assert sorted(store.records) == sorted(["core.md", f"{name}.md"])
    assert patterns.read_only == ("archive/.*",) and patterns.is_read_only("archive/old.md")
    notes = " ".join(patterns.notes)
    assert notes.count("is not applied") == 3 and "run for ever" in notes
