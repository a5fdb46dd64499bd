"""One start-up number for MEMORY.md (issue 33): a MEMORY.md that CLAUDE.md imports loads whole
(no 200-line cap, no past-cap finding), as the context model says; one nobody imports is auto
memory's, capped — and the cap says whose it is."""

from __future__ import annotations

import json
import shutil

import pytest

from curator.base.tokens import FakeTokenCounter
from curator.budgets.startup import startup_of
from curator.checks import run_checks
from curator.cli import main
from curator.context.build import build_context
from curator.demo.repository import build_history
from curator.live.drift import startup_history
from curator.live.workbench import open_workbench
from curator.model import load_store
from curator.model.discovery import locate_store
from curator.model.imports import claude_import_of
from curator.model.loader import LoadOptions
from curator.model.sources import discover

LONG = "# Memory\n\n" + "".join(f"- [Topic {i}](topic_{i}.md) — what topic {i} holds\n" for i in range(240))


def _repo(make_store, claude_md: str | None, extra: dict | None = None):
    files = {".claude/memory/MEMORY.md": LONG, ".git/HEAD": "ref: refs/heads/main\n", **(extra or {})}
    files.update({f".claude/memory/topic_{i}.md": f"---\nname: t{i}\ndescription: d\ntype: project\n---\nx\n"
                  for i in range(240)})
    if claude_md is not None:
        files["CLAUDE.md"] = claude_md
    return make_store(files, name="repo")


def _claude_store(root):
    return load_store(root / ".claude" / "memory", token_counter=FakeTokenCounter(), repo_root=root)


def test_an_imported_memory_md_loads_whole_with_no_cap(make_store):
    root = _repo(make_store, "# Project\n\n@.claude/memory/MEMORY.md\n")
    store = _claude_store(root)
    st = startup_of(store)
    whole = store.records["MEMORY.md"].tokens
    assert st.tokens == whole and not st.past_cap and not st.over and st.cap_tokens is None
    assert "CLAUDE.md:3" in st.what and "whole" in st.what  # which agent's import, from where
    assert not [f for f in run_checks(store) if f.check == "budget.past-cap"]
    model = build_context(root, token_counter=FakeTokenCounter())
    entry = next(e for e in model.agents["claude-code"].startup if e.path == ".claude/memory/MEMORY.md")
    assert entry.tokens == st.tokens and entry.via == "CLAUDE.md:3"  # the context model's number, exactly


def _linked(root, home):
    """Your auto-memory folder for `root` made a link to its committed `.claude/memory`."""
    from curator.model.auto_memory import claude_roots, claude_slug

    auto = claude_roots(home=home)[0] / "projects" / claude_slug(root.resolve()) / "memory"  # (the tests' config dir)
    auto.parent.mkdir(parents=True, exist_ok=True)
    auto.symlink_to(root / ".claude" / "memory")


def test_a_memory_md_nobody_imports_is_auto_memory_capped_and_says_whose_cap(make_store, tmp_path, monkeypatch):
    root = _repo(make_store, "# Project\n\nRead `@.claude/memory/MEMORY.md` yourself.\n")  # (in code: no import)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    _linked(root, tmp_path / "home")  # the folder is your auto memory through a link
    store = _claude_store(root)
    st = startup_of(store)
    assert st.past_cap and st.tokens < store.records["MEMORY.md"].tokens
    assert "Claude Code's auto memory" in st.cap_label and "MEMORY.md" in st.cap_label
    past = [f for f in run_checks(store) if f.check == "budget.past-cap"]
    assert past and "Claude Code's auto-memory cap" in past[0].message and "MEMORY.md" in past[0].message


def test_a_committed_memory_md_nobody_imports_loads_nothing_here(make_store, tmp_path, monkeypatch):
    # 4444J99/portfolio: the repository's copy of the user's auto memory; the context view says
    # "never by itself", and the store's start-up is nothing (the auto-memory figure in words)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    root = _repo(make_store, "# Project\n")
    store = _claude_store(root)
    st = startup_of(store)
    assert st.tokens == 0 and not st.files and not st.past_cap and not st.over
    assert st.what.startswith("nothing: MEMORY.md is committed in the repository") and "lines past its cap" in st.what
    said = "here it is a committed folder, which loads only when a loaded file imports it"
    past = [f for f in run_checks(store) if f.check == "budget.past-cap"]
    assert past and said in past[0].message and past[0].message.startswith("lines 201–")
    _linked(root, tmp_path / "home")  # your auto-memory folder a link to it: auto memory, capped
    linked = startup_of(_claude_store(root))
    assert linked.tokens > 0 and linked.past_cap and "committed" not in linked.what
    said = "committed"
    auto = tmp_path / "home" / ".claude" / "projects" / "-work-app" / "memory"  # the user's own: capped, no clause
    auto.mkdir(parents=True)
    (auto / "MEMORY.md").write_text(LONG)
    mine = load_store(auto, token_counter=FakeTokenCounter())
    assert said not in startup_of(mine).what
    assert [f for f in run_checks(mine) if f.check == "budget.past-cap" and said not in f.message]


@pytest.mark.parametrize(("files", "via"), [
    ({"CLAUDE.md": "@docs/agents.md\n", "docs/agents.md": "x\n@../.claude/memory/MEMORY.md\n"}, "docs/agents.md:2"),
    ({".claude/CLAUDE.md": "@memory/MEMORY.md\n"}, ".claude/CLAUDE.md:1"),
    ({"CLAUDE.local.md": "see @.claude/memory/MEMORY.md, then work\n"}, "CLAUDE.local.md:1"),
    ({"CLAUDE.md": "```\n@.claude/memory/MEMORY.md\n```\n"}, None),  # in a code block: not an import
    ({"CLAUDE.md": "@a.md\n", "a.md": "@b.md\n", "b.md": "@c.md\n", "c.md": "@.claude/memory/MEMORY.md\n"},
     "c.md:1"),  # four hops: as deep as Claude Code follows today
    ({"CLAUDE.md": "@a.md\n", "a.md": "@b.md\n", "b.md": "@c.md\n", "c.md": "@d.md\n",
      "d.md": "@.claude/memory/MEMORY.md\n"}, None),  # five: one deeper than it follows
    ({"AGENTS.md": "@.claude/memory/MEMORY.md\n"}, "AGENTS.md:1"),  # no CLAUDE.md: AGENTS.md is read instead
    ({"CLAUDE.md": "# x\n", "AGENTS.md": "@.claude/memory/MEMORY.md\n"}, None),  # a CLAUDE.md: AGENTS.md unread
])
def test_the_import_is_found_as_claude_code_follows_it(make_store, files, via):
    root = make_store({".claude/memory/MEMORY.md": "# M\n", **files}, name="r")
    assert claude_import_of(root, root / ".claude" / "memory" / "MEMORY.md") == via
    model = build_context(root, count=False)
    entry = next((e for e in model.agents.get("claude-code", type("C", (), {"startup": []})).startup
                  if e.path == ".claude/memory/MEMORY.md"), None)
    assert (entry.via if entry is not None else None) == via  # the same answer as the context model


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_the_demo_shows_one_start_up_number_for_memory_md_everywhere(capsys, sample_repo_copy, monkeypatch):
    monkeypatch.setenv("CURATOR_NO_REPLAY", "1")
    build_history(sample_repo_copy)
    session = open_workbench(discover(sample_repo_copy), LoadOptions(token_counter=FakeTokenCounter()))
    claude = next(s for _, s in session.loaded() if s.name == ".claude/memory")
    number = startup_of(claude.workspace.store).tokens
    model = build_context(sample_repo_copy, token_counter=FakeTokenCounter())
    assert [e.tokens for e in model.agents["claude-code"].startup if e.path.endswith("MEMORY.md")] == [number]
    assert startup_history(claude.workspace.store).points[-1].approx_tokens == number  # the drift chart ends on it
    assert main(["check", str(sample_repo_copy), "--format", "json"]) in (0, 1)
    data = json.loads(capsys.readouterr().out)
    assert "budget.past-cap" not in {f["check"] for f in data["findings"]}
    assert locate_store(str(sample_repo_copy)).layout is not None
