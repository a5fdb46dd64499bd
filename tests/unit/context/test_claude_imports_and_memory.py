"""Claude Code's imports by version (five hops, then four), imports in nested files (resolved from
their own folder, loaded with them on demand, recorded for the checks), the 4 MiB skip, rules
before 2.0.64, and the memory folders agents write."""

from __future__ import annotations

from .test_context_model import build, repo


def claude(model):
    return model.agents["claude-code"]


def chain(n: int) -> dict[str, str]:
    files = {"CLAUDE.md": "@h1.md\n"}
    for i in range(1, n + 1):
        files[f"h{i}.md"] = f"@h{i + 1}.md\n" if i < n else "end\n"
    return files


def test_imports_go_four_hops_today_and_five_before_2_1_210(tmp_path):
    root = repo(tmp_path, chain(5))
    today = claude(build(root, tmp_path))
    assert [e.path for e in today.startup] == ["CLAUDE.md", "h1.md", "h2.md", "h3.md", "h4.md"]
    [deep] = [u for u in today.never if u.path == "h5.md"]
    assert deep.rule == "claude-code/imports.max-hops@2.1.210" and "deeper than 4 hops" in deep.reason
    old = claude(build(root, tmp_path, versions={"claude-code": "2.1.200"}))
    assert [e.path for e in old.startup][-1] == "h5.md" and not old.never
    depth = [f for f in build(root, tmp_path).findings if f.check == "instructions.import-depth"]
    assert [(f.path, f.line) for f in depth] == [("h4.md", 1)]


def test_a_claude_md_over_4_mib_is_skipped(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "x" * (4 * 1024 * 1024 + 1), "AGENTS.md": "a\n"})
    ctx = claude(build(root, tmp_path))
    assert ctx.startup == []
    [skipped] = [u for u in ctx.never if u.path == "CLAUDE.md"]
    assert skipped.rule == "claude-code/project.max-bytes" and "4 MiB" in skipped.reason
    at_limit = repo(tmp_path / "b", {"CLAUDE.md": "y" * (4 * 1024 * 1024)})
    assert [e.path for e in claude(build(at_limit, tmp_path)).startup] == ["CLAUDE.md"]


def test_imports_in_nested_files_resolve_from_their_folder_and_load_with_them(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "root\n", "templates/api/CLAUDE.md": "@.claude/rules/api.md\n@notes.md\n",
                           "templates/api/notes.md": "notes\n@../../shared.md\n", "shared.md": "shared\n",
                           ".claude/rules/api.md": "api rule\n", "templates/api/x.py": ""})
    m = build(root, tmp_path, for_paths=["templates/api/x.py"])
    ctx = claude(m)
    loads = [(o.path, o.via) for o in ctx.for_path["templates/api/x.py"]]
    assert loads == [("templates/api/CLAUDE.md", None), ("templates/api/notes.md", "templates/api/CLAUDE.md:2"),
                     ("shared.md", "templates/api/notes.md:2")]
    edges = [(i.importer, i.written, i.target, i.status, i.when) for i in ctx.imports]
    assert ("templates/api/CLAUDE.md", "@.claude/rules/api.md", "templates/api/.claude/rules/api.md", "missing",
            "on demand") in edges
    # checked like a root file's: on the nested file and its line, saying where it resolves from
    [broken] = [f for f in m.findings if f.check.startswith("instructions.import")]
    assert (broken.check, broken.path, broken.line) == ("instructions.import-broken", "templates/api/CLAUDE.md", 1)
    assert "templates/api/.claude/rules/api.md does not exist" in broken.message
    assert "write @../../.claude/rules/api.md" in broken.message
    assert all(o.rule == "claude-code/imports.nested" for o in ctx.on_demand if o.via)


def test_a_nested_import_of_a_start_up_file_is_not_loaded_again(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "@docs/style.md\n", "docs/style.md": "s\n", "pkg/CLAUDE.md": "@../docs/style.md\n"})
    ctx = claude(build(root, tmp_path))
    assert [o.path for o in ctx.on_demand] == ["pkg/CLAUDE.md"]
    assert [i.status for i in ctx.imports if i.importer == "pkg/CLAUDE.md"] == ["already"]


def test_rules_folder_exists_from_2_0_64(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "c\n", ".claude/rules/a.md": "always\n"})
    assert [e.path for e in claude(build(root, tmp_path)).startup] == ["CLAUDE.md", ".claude/rules/a.md"]
    assert [e.path for e in claude(build(root, tmp_path, versions={"claude-code": "2.0.50"})).startup] == ["CLAUDE.md"]


def test_subagent_memory_folders_are_shown_where_they_are(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "c\n", ".claude/agent-memory/reviewer/MEMORY.md": "- [a](a.md)\n",
                           ".claude/agent-memory/reviewer/a.md": "a\n", ".claude/agent-memory-local/mine/MEMORY.md": "m\n"})
    user = tmp_path / "home" / ".claude" / "agent-memory" / "planner"
    user.mkdir(parents=True)
    (user / "MEMORY.md").write_text("mine\n")
    ctx = claude(build(root, tmp_path))
    folders = [(m.path, m.scope, m.files, m.writable) for m in ctx.memory_folders]
    assert folders == [(".claude/agent-memory/reviewer/", "project", 2, True),
                       (".claude/agent-memory-local/mine/", "local", 1, True),
                       ("~/.claude/agent-memory/planner/", "user", 1, False)]
    assert [o.path for o in ctx.on_demand if o.trigger == "invoked"] == [
        ".claude/agent-memory/reviewer/MEMORY.md", ".claude/agent-memory-local/mine/MEMORY.md"]
    assert ctx.startup_tokens == claude(build(repo(tmp_path / "b", {"CLAUDE.md": "c\n"}), tmp_path)).startup_tokens
    ci = claude(build(root, tmp_path, env={"CI": "1"}))
    assert [m.scope for m in ci.memory_folders] == ["project", "local"]


def test_codex_memories_are_the_users_own(tmp_path):
    root = repo(tmp_path, {"AGENTS.md": "a\n"})
    mem = tmp_path / "home" / ".codex" / "memories"
    mem.mkdir(parents=True)
    (mem / "memory_summary.md").write_text("summary\n")
    codex = build(root, tmp_path).agents["codex"]
    assert [(m.path, m.scope, m.files, m.writable) for m in codex.memory_folders] == [
        ("~/.codex/memories/", "user", 1, False)]
    assert build(root, tmp_path, env={"CI": "1"}).agents["codex"].memory_folders == []
