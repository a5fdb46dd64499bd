"""Where Claude Code's auto memory is, or that it is off: CLAUDE_CODE_DISABLE_AUTO_MEMORY, simple
mode, autoMemoryEnabled (any settings file) and autoMemoryDirectory (not the project's settings)."""

from __future__ import annotations

import json

from curator.model.sources import claude_slug

from .test_context_model import build, repo


def _default_memory(tmp_path, root) -> None:
    memory = tmp_path / "home" / ".claude" / "projects" / claude_slug(root) / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- [Build](build.md): how to build\n")


def _auto(model) -> list[str]:
    return [e.path for e in model.agents["claude-code"].user if "auto memory" in e.why]


def _notes(model) -> str:
    return " | ".join(model.agents["claude-code"].notes)


def test_auto_memory_is_off_by_the_variable_by_simple_mode_or_by_any_settings_file(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "project\n"})
    _default_memory(tmp_path, root)
    slugged = f"~/.claude/projects/{claude_slug(root)}/memory/MEMORY.md"
    assert _auto(build(root, tmp_path)) == [slugged]
    off = build(root, tmp_path, env={"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"})
    assert _auto(off) == [] and "auto memory is off: CLAUDE_CODE_DISABLE_AUTO_MEMORY is 1" in _notes(off)
    simple = build(root, tmp_path, env={"CLAUDE_CODE_SIMPLE": "true"})
    assert _auto(simple) == [] and "CLAUDE_CODE_SIMPLE is set" in _notes(simple)
    (root / ".claude").mkdir()
    (root / ".claude" / "settings.json").write_text(json.dumps({"autoMemoryEnabled": False}))
    project_off = build(root, tmp_path)  # the project may turn it off
    assert _auto(project_off) == []
    assert "auto memory is off: autoMemoryEnabled is false in .claude/settings.json" in _notes(project_off)
    forced = build(root, tmp_path, env={"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"})  # the variable decides first
    assert _auto(forced) == [slugged]
    before = build(root, tmp_path, versions={"claude-code": "2.1.50"})  # no auto memory before 2.1.59
    assert _auto(before) == [] and "auto memory" not in _notes(before)


def test_a_project_cannot_move_auto_memory_but_your_local_settings_can_into_the_repository(tmp_path):
    index = "".join(f"- [Topic {i}](topic_{i}.md): a note\n" for i in range(210))
    root = repo(tmp_path, {"CLAUDE.md": "project\n", ".claude/memory/MEMORY.md": index,
                           ".claude/memory/topic_1.md": "# Topic 1\n"})
    _default_memory(tmp_path, root)
    (root / ".claude" / "settings.json").write_text(json.dumps({"autoMemoryDirectory": str(root / ".claude/memory")}))
    ignored = build(root, tmp_path)
    ctx = ignored.agents["claude-code"]
    assert ".claude/settings.json sets autoMemoryDirectory, but Claude Code ignores it in project settings" in _notes(ignored)
    assert _auto(ignored) == [f"~/.claude/projects/{claude_slug(root)}/memory/MEMORY.md"]
    assert ".claude/memory/MEMORY.md" not in [e.path for e in ctx.startup]
    (root / ".claude" / "settings.local.json").write_text(json.dumps({"autoMemoryDirectory": str(root / ".claude/memory")}))
    moved = build(root, tmp_path)
    ctx = moved.agents["claude-code"]
    (entry,) = [e for e in ctx.startup if e.path == ".claude/memory/MEMORY.md"]
    assert entry.rule == "claude-code/memory.auto@2.1.59" and "autoMemoryDirectory in .claude/settings.local.json" in entry.why
    index, warning = entry.text.split("\n\n> WARNING: ")  # the auto-memory cap, not the whole file
    assert entry.cut is not None and index.count("\n") == 199 and "starting at line 201" in warning
    assert any(u.path == ".claude/memory/MEMORY.md" and "past the auto-memory cap" in u.reason for u in ctx.never)
    assert [o.path for o in ctx.on_demand if "topic file" in o.when] == [".claude/memory/topic_1.md"]
    assert _auto(moved) == []  # the default folder is not read any more
    assert not any("never by itself" in o.when for o in ctx.on_demand)


def test_your_settings_move_auto_memory_out_of_home_and_a_relative_path_is_not_taken(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "project\n"})
    _default_memory(tmp_path, root)
    notes = tmp_path / "home" / "notes" / "mem"
    notes.mkdir(parents=True)
    (notes / "MEMORY.md").write_text("- synced memory\n")
    settings = tmp_path / "home" / ".claude" / "settings.json"
    settings.write_text(json.dumps({"autoMemoryDirectory": "~/notes/mem"}))
    assert _auto(build(root, tmp_path)) == ["~/notes/mem/MEMORY.md"]
    settings.write_text(json.dumps({"autoMemoryDirectory": "notes/mem"}))
    relative = build(root, tmp_path)
    assert _auto(relative) == [f"~/.claude/projects/{claude_slug(root)}/memory/MEMORY.md"]
    assert "autoMemoryDirectory 'notes/mem' is not an absolute path" in _notes(relative)


def test_a_worktree_reads_its_main_checkouts_auto_memory_and_a_forged_git_file_is_not_followed(tmp_path):
    import subprocess

    from curator.base.worktree import main_checkout

    main = repo(tmp_path, {"CLAUDE.md": "project\n"})
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(main)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "c"], check=True)
    tree = tmp_path / "wt"
    subprocess.run([*git, "worktree", "add", "-q", str(tree)], check=True)
    assert main_checkout(tree) == main.resolve() and main_checkout(main) == main
    _default_memory(tmp_path, main.resolve())
    assert _auto(build(tree, tmp_path)) == [f"~/.claude/projects/{claude_slug(main.resolve())}/memory/MEMORY.md"]
    assert _auto(build(tree, tmp_path, versions={"claude-code": "2.1.62"})) == []  # its own folder before 2.1.63
    forged = tmp_path / "forged"
    forged.mkdir()  # names the main checkout's worktree folder, which does not name it back
    (forged / ".git").write_text(f"gitdir: {main / '.git' / 'worktrees' / 'wt'}\n")
    assert main_checkout(forged) == forged


def test_a_kept_context_depends_on_the_files_a_setting_or_a_variable_names(tmp_path):
    from curator.context.user import probes

    root = repo(tmp_path, {"CLAUDE.md": "project\n"})
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    (home / ".claude" / "settings.json").write_text(json.dumps({"autoMemoryDirectory": "~/sync/mem"}))
    got = probes(str(home), str(root), {"HOME": str(home), "GEMINI_SYSTEM_MD": "~/sys.md"})
    assert str(home / "sync" / "mem" / "MEMORY.md") in got and str(home / "sys.md") in got


def test_a_worktree_git_links_with_relative_paths_still_finds_its_main_checkout(tmp_path):
    import os

    from curator.base.worktree import main_checkout

    main, tree = tmp_path / "main", tmp_path / "wt"
    (main / ".git" / "worktrees" / "wt").mkdir(parents=True)
    tree.mkdir()
    # as git ≥ 2.48 writes them with worktree.useRelativePaths
    (tree / ".git").write_text("gitdir: ../main/.git/worktrees/wt\n")
    (main / ".git" / "worktrees" / "wt" / "commondir").write_text("../..\n")
    (main / ".git" / "worktrees" / "wt" / "gitdir").write_text(os.path.relpath(tree / ".git", main / ".git" / "worktrees" / "wt") + "\n")
    assert main_checkout(tree) == main.resolve()


def test_auto_memory_named_through_a_link_to_the_repository_is_the_repository_folder(tmp_path):
    """A path that reaches the repository through a symbolic link is the repository's folder: shown
    once, at start-up, not also as outside the repository and as "never by itself"."""
    root = repo(tmp_path, {"CLAUDE.md": "project\n", ".claude/memory/MEMORY.md": "- [T](t.md): a note\n",
                           ".claude/memory/t.md": "# T\n"})
    link = tmp_path / "linked"
    link.symlink_to(root)
    (root / ".claude" / "settings.local.json").write_text(json.dumps({"autoMemoryDirectory": str(link / ".claude/memory")}))
    ctx = build(root, tmp_path).agents["claude-code"]
    assert [e.path for e in ctx.startup if e.path.endswith("MEMORY.md")] == [".claude/memory/MEMORY.md"]
    assert not [e for e in ctx.user if e.path.endswith("MEMORY.md")]
    assert not any("never by itself" in o.when for o in ctx.on_demand)
