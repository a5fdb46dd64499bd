"""Discovery of a repository's memory systems and detection of each folder's format."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from curator.base.paths import memory_repository
from curator.model import formats as fmts
from curator.model import load_store
from curator.model.discovery import locate_store
from curator.model.list_index import name_resolver, parse_list_index
from curator.model.sources import claude_slug, discover

CLAUDE_MEMORY = (
    "# Memory\n\n"
    "See [project instructions](../../CLAUDE.md).\n\n"
    "## Feedback\n"
    "- [Use nix-shell](feedback_nix.md) — every Python command runs inside nix-shell\n"
    "- [TDD](feedback_tdd.md) — tests first, then the implementation\n"
)


def topic(name: str, kind: str = "feedback", nested: bool = False) -> str:
    if nested:
        return f"---\nname: {name}\ndescription: about {name}\nmetadata:\n  type: {kind}\n---\n\nBody of {name}.\n"
    return f"---\nname: {name}\ndescription: about {name}\ntype: {kind}\n---\n\nBody of {name}.\n"


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return root


def test_detects_each_format(tmp_path):
    tiered = write(tmp_path / "t", {"memory-index.md": "| Keywords | File |\n|---|---|\n", "a.md": "# A\n"})
    evolved = write(tmp_path / "e", {"memory-index.md": "[Git]\n|git: [x](x-index.md) (3)\n"})
    bullets = write(tmp_path / "b", {"memory-index.md": "# Index\n\n## P\n- **overview** — what it is\n"})
    plain = write(tmp_path / "p", {"project_overview.md": "# O\n", "kb/notes.md": "# N\n"})
    claude = write(tmp_path / "c", {"MEMORY.md": CLAUDE_MEMORY, "feedback_tdd.md": topic("tdd")})
    exp = write(tmp_path / "docs", {"error-experience/entries/2026-01-01-x.md": "Error: x\n"})
    assert fmts.detect_format(tiered) == fmts.SERENA_TIERED
    assert fmts.detect_format(evolved) == fmts.SERENA_TIERED
    assert fmts.detect_format(bullets) == fmts.SERENA
    assert fmts.detect_format(plain) == fmts.SERENA
    assert fmts.detect_format(claude) == fmts.CLAUDE
    assert fmts.detect_format(exp) == fmts.EXPERIENCE
    assert fmts.detect_format(tmp_path / "missing") == fmts.SERENA  # never raises


def test_repository_with_every_system(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    repo = write(
        tmp_path / "repo",
        {
            "README.md": "# repo\n",
            ".serena/memories/project_overview.md": "# O\n",
            ".claude/memory/MEMORY.md": CLAUDE_MEMORY,
            ".claude/memory/feedback_tdd.md": topic("tdd"),
            "docs/good-experience/entries/2026-01-02-y.md": "Practice: y\n",
        },
    )
    layout = discover(repo)
    assert not layout.single
    assert [(s.kind, s.rel, s.fmt) for s in layout.sources] == [
        ("serena", ".serena/memories", fmts.SERENA),
        ("claude", ".claude/memory", fmts.CLAUDE),
        ("experience", "docs", fmts.EXPERIENCE),
    ]
    # from a subfolder, the repository is found upward
    (repo / "src" / "pkg").mkdir(parents=True)
    assert memory_repository(repo / "src" / "pkg") == repo.resolve()


def test_user_claude_memory_and_global_serena(tmp_path, monkeypatch):
    home = tmp_path / "home"
    repo = write(tmp_path / "my repo", {".serena/memories/a.md": "# A\n"})
    slug = claude_slug(repo.resolve())
    assert "/" not in slug and " " not in slug and slug.startswith("-")
    config = tmp_path / "cfg"
    write(config / "projects" / slug / "memory", {"MEMORY.md": CLAUDE_MEMORY})
    write(config / "projects" / slug, {"0a1b.jsonl": '{"type":"user"}\n'})
    write(home / ".serena" / "memories" / "global", {"style.md": "# Style\n"})
    layout = discover(repo, env={"HOME": str(home), "CLAUDE_CONFIG_DIR": f" {config} ,{tmp_path / 'none'}"})
    kinds = [(s.kind, s.origin, s.read_only) for s in layout.sources]
    assert ("claude", "user", False) in kinds
    assert ("sessions", "user", True) in kinds
    assert ("serena", "global", True) in kinds


def test_a_memory_folder_given_directly_is_one_source(tmp_path):
    store = write(tmp_path / "memory", {"MEMORY.md": CLAUDE_MEMORY})
    layout = discover(store)
    assert layout.single and layout.sources[0].fmt == fmts.CLAUDE


def test_a_repository_copied_without_git_is_a_repository_not_a_store(tmp_path):
    # an export of a checkout: AGENTS.md and CLAUDE.md at the top, sources beside, no .git
    repo = write(tmp_path / "export", {
        "AGENTS.md": "# Project\n\nRun `make test`.\n", "CLAUDE.md": "@AGENTS.md\n",
        "CONTRIBUTING.md": "# Contributing\n", "src/app.py": "print(1)\n", "setup.cfg": "[metadata]\n",
        ".serena/memories/overview.md": "# Overview\n",
    })
    layout = discover(repo, user_sources=False)
    assert not layout.single
    assert [(s.kind, s.rel) for s in layout.sources] == [("serena", ".serena/memories")]
    # only instruction files and a build file: a repository still (no memory in it at all)
    bare = write(tmp_path / "bare", {"CLAUDE.md": "# Rules\n", "package.json": "{}\n"})
    assert discover(bare, user_sources=False).sources == ()
    assert discover(write(tmp_path / "only", {"GEMINI.md": "# G\n"}), user_sources=False).sources == ()


def test_a_store_keeping_a_claude_md_among_its_memories_stays_a_store(tmp_path):
    store = write(tmp_path / "notes", {"CLAUDE.md": "# How I work\n", "overview.md": "# O\n",
                                       "session_log.txt": "x\n", "kb/2026-01-02-a.md": "# A\n"})
    layout = discover(store, user_sources=False)
    assert layout.single and layout.sources[0].root == store


def test_locate_picks_the_repository_and_its_first_writable_store(tmp_path):
    repo = write(tmp_path / "r", {".claude/memory/MEMORY.md": CLAUDE_MEMORY, ".serena/memories/a.md": "# A\n"})
    located = locate_store(str(repo))
    assert located.repo == repo and located.root == repo / ".serena" / "memories"


def test_symlinked_memory_folder_is_read(tmp_path):
    real = write(tmp_path / "elsewhere", {"MEMORY.md": CLAUDE_MEMORY, "feedback_tdd.md": topic("tdd")})
    repo = tmp_path / "repo"
    (repo / ".claude").mkdir(parents=True)
    os.symlink(real, repo / ".claude" / "memory")
    layout = discover(repo)
    assert [s.kind for s in layout.sources] == ["claude"]
    store = load_store(layout.sources[0].root, fmt=fmts.CLAUDE)
    assert "feedback_tdd.md" in store.records


# ------------------------------------------------------------------ list indexes


def test_memory_md_rows_links_hooks_and_outside_links():
    idx = parse_list_index("MEMORY.md", CLAUDE_MEMORY, name_resolver([]), dialect="memory-md")
    assert [lk.target for row in idx.rows for lk in row.links] == ["feedback_nix.md", "feedback_tdd.md"]
    assert "nix-shell" in idx.rows[0].keywords and "python" in idx.rows[0].keywords
    assert idx.rows[0].section == "Feedback"
    assert idx.external == [(3, "../../CLAUDE.md")]


def test_serena_name_dialects():
    paths = ["project_overview.md", "kb/style_guide.md", "hook_registry.md", "Codebase.md"]
    text = (
        "# Index\n\n## Core\n"
        "- **project_overview** — what it is\n"
        "- **\\_continue_here** - handoff\n"  # escaped name of a file that is gone
        "- **Codebase Map** - see `.planning/`\n"  # a label, not a name
        "- style_guide — how we write\n"
        "| Memory | When |\n|---|---|\n| `hook_registry` | adding a hook |\n"
        "1. **2025-11-03**: project_overview\n"
        "Prose naming `hook_registry` outside a list is not a row.\n"
    )
    idx = parse_list_index("memory_index.md", text, name_resolver(paths), dialect="names")
    targets = [lk.target for row in idx.rows for lk in row.links]
    assert targets == [
        "project_overview.md",
        "_continue_here.md",
        "kb/style_guide.md",
        "hook_registry.md",
        "project_overview.md",
    ]


def test_code_fences_are_not_rows():
    text = "```\n- [x](x.md) — not a row\n```\n- [y](y.md) — a row\n"
    idx = parse_list_index("MEMORY.md", text, name_resolver([]), dialect="memory-md")
    assert [lk.target for row in idx.rows for lk in row.links] == ["y.md"]


def test_hundred_thousand_line_memory_md_is_fast_and_reported(tmp_path):
    lines = ["# Memory"] + [f"- [Note {i}](note_{i % 50}.md) — hook {i}" for i in range(100_000)]
    files = {"MEMORY.md": "\n".join(lines) + "\n"}
    files.update({f"note_{i}.md": topic(f"note {i}") for i in range(50)})
    root = write(tmp_path / "memory", files)
    from curator.checks import run_checks

    store = load_store(root)
    found = run_checks(store, {"budget.past-cap", "parse.error"})
    # 4 MB is over the read limit: reported, never a traceback
    assert [(f.check, f.path) for f in found] == [("parse.error", "MEMORY.md")]
    (root / "MEMORY.md").write_text("# Memory\n" + "- [n](note_1.md) — x\n" + "x\n" * 99_999, encoding="utf-8")
    found = run_checks(load_store(root), {"budget.past-cap"})
    assert len(found) == 1 and found[0].line == 201 and "lines 201–100001" in found[0].message


NAME = st.from_regex(r"[a-z][a-z0-9_]{0,20}", fullmatch=True)
HOOK = st.text(st.characters(whitelist_categories=("L", "N", "Zs"), max_codepoint=0x2FF), max_size=60)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(NAME, HOOK), min_size=1, max_size=12, unique_by=lambda t: t[0]))
def test_memory_md_round_trip(entries):
    text = "# Memory\n\n" + "".join(f"- [{n}]({n}.md) — {h.strip() or 'x'}\n" for n, h in entries)
    idx = parse_list_index("MEMORY.md", text, name_resolver([]), dialect="memory-md")
    assert [lk.target for row in idx.rows for lk in row.links] == [f"{n}.md" for n, _ in entries]
    again = "# Memory\n\n" + "".join(row.raw + "\n" for row in idx.rows)
    assert again == text
    idx2 = parse_list_index("MEMORY.md", again, name_resolver([]), dialect="memory-md")
    assert [(r.line, r.keywords) for r in idx2.rows] == [(r.line, r.keywords) for r in idx.rows]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400), st.sampled_from(["memory-md", "names", "links"]))
def test_list_index_never_raises(text, dialect):
    idx = parse_list_index("MEMORY.md", text, name_resolver(["a.md", "b/c.md"]), dialect=dialect)
    for row in idx.rows:
        assert row.links and row.line >= 1


def test_the_folder_your_auto_memory_directory_names_is_found_and_the_projects_setting_is_not_followed(tmp_path):
    import json

    home = tmp_path / "home"
    repo = write(tmp_path / "repo", {".serena/memories/a.md": "# A\n", "notes/memory/MEMORY.md": CLAUDE_MEMORY})
    write(home / "sync" / "mem", {"MEMORY.md": CLAUDE_MEMORY})
    env = {"HOME": str(home)}

    def claude_sources():
        return [(s.rel, s.origin) for s in discover(repo, env=env, home=home).sources if s.kind == "claude"]

    write(repo, {".claude/settings.json": json.dumps({"autoMemoryDirectory": str(repo / "notes/memory")})})
    assert claude_sources() == []  # a project cannot move auto memory: not Claude Code's memory
    write(home, {".claude/settings.json": json.dumps({"autoMemoryDirectory": "~/sync/mem"})})
    assert claude_sources() == [("~/sync/mem", "user")]
    write(repo, {".claude/settings.local.json": json.dumps({"autoMemoryDirectory": str(repo / "notes/memory")})})
    assert claude_sources() == [("notes/memory", "repo")]  # the local settings win over yours
    write(repo, {".claude/settings.local.json": json.dumps({"autoMemoryDirectory": "notes/memory"})})
    assert claude_sources() == []  # a relative path is not taken (nor yours, the local one being set)


def test_a_committed_local_settings_file_cannot_make_a_writable_store_of_your_home_or_a_folder_outside(tmp_path):
    import json

    home = tmp_path / "home"
    repo = write(tmp_path / "repo", {".serena/memories/a.md": "# A\n"})
    write(home, {"MEMORY.md": CLAUDE_MEMORY, "notes.md": "# private\n"})
    write(tmp_path / "elsewhere", {"MEMORY.md": CLAUDE_MEMORY})

    def claude_sources(env):
        return [(s.rel, s.origin, s.read_only) for s in discover(repo, env=env, home=home).sources if s.kind == "claude"]

    for value in ("~", "/", str(repo), str(repo.parent)):  # your home, the root, the repository, above it
        write(repo, {".claude/settings.local.json": json.dumps({"autoMemoryDirectory": value})})
        assert claude_sources({"HOME": str(home)}) == [], value
    write(repo, {".claude/settings.local.json": json.dumps({"autoMemoryDirectory": str(tmp_path / "elsewhere")})})
    (shown, origin, read_only), = claude_sources({"HOME": str(home)})
    assert read_only and origin == "user"  # shown, never written unless you name it
    assert claude_sources({"HOME": str(home), "CI": "true"}) == []  # and never read in CI
    write(repo, {".claude/settings.local.json": json.dumps({"autoMemoryDirectory": "/tmp/\x00x"})})
    assert claude_sources({"HOME": str(home)}) == []  # a NUL: no folder, no traceback
