"""The context model: what each agent loads, on demand and never, with the checks it makes."""

from __future__ import annotations

import os

import pytest

from curator.base.tokens import FakeTokenCounter
from curator.context import build_context


def repo(tmp_path, files: dict[str, str]):
    root = tmp_path / "repo"
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    root.mkdir(exist_ok=True)
    return root


def build(root, tmp_path, **kw):
    env = {"HOME": str(tmp_path / "home"), "CURATOR_MANAGED_DIR": str(tmp_path / "no-policy"), **kw.pop("env", {})}
    return build_context(root, token_counter=FakeTokenCounter(), env=env, **kw)


def ids(model):
    return sorted((f.check, f.path, f.line) for f in model.findings)


def test_claude_imports_in_order_with_via_and_broken_ones_reported(tmp_path):
    root = repo(tmp_path, {
        "CLAUDE.md": "# Project\n\n@docs/a.md\n@docs/missing.md\n`@docs/in-span.md`\n```\n@docs/in-block.md\n```\n",
        "docs/a.md": "alpha words here\n@b.md\n",
        "docs/b.md": "beta\n",
    })
    m = build(root, tmp_path)
    files = [(e.path, e.via) for e in m.agents["claude-code"].startup]
    assert files == [("CLAUDE.md", None), ("docs/a.md", "CLAUDE.md:3"), ("docs/b.md", "docs/a.md:2")]
    assert ids(m) == [("instructions.import-broken", "CLAUDE.md", 4)]
    assert m.startup_tokens("claude-code") == sum(e.tokens for e in m.agents["claude-code"].startup) > 0


def test_cycles_self_imports_depth_and_outside(tmp_path):
    files = {"CLAUDE.md": "@a.md\n@CLAUDE.md\n@~/.claude/mine.md\n@../outside.md\n", "a.md": "@b.md\n", "b.md": "@a.md\n@c1.md\n"}
    for i in range(1, 7):
        files[f"c{i}.md"] = f"@c{i + 1}.md\n"
    root = repo(tmp_path, files)
    m = build(root, tmp_path)
    checks = {f.check for f in m.findings}
    assert {"instructions.import-cycle", "instructions.import-depth", "instructions.import-outside"} <= checks
    loaded = [e.path for e in m.agents["claude-code"].startup]
    assert loaded[:3] == ["CLAUDE.md", "a.md", "b.md"] and "c7.md" not in loaded
    assert any("outside" in u.reason for u in m.agents["claude-code"].never)


def test_rules_paths_on_demand_foreign_keys_and_dead_globs(tmp_path):
    root = repo(tmp_path, {
        "CLAUDE.md": "x\n",
        "src/api/x.ts": "",
        ".claude/rules/always.md": "always\n",
        ".claude/rules/api.md": "---\npaths:\n  - \"src/api/**/*.ts\"\n---\napi rule\n",
        ".claude/rules/dead.md": "---\npaths: [\"lib/**/*.rs\"]\n---\nnever fires\n",
        ".claude/rules/cursorish.md": "---\nglobs: src/**\nalwaysApply: true\n---\nx\n",
    })
    m = build(root, tmp_path, for_paths=["src/api/x.ts"])
    claude = m.agents["claude-code"]
    assert ".claude/rules/always.md" in [e.path for e in claude.startup]
    assert [o.path for o in claude.for_path["src/api/x.ts"]] == [".claude/rules/api.md"]
    assert ("instructions.dead-glob", ".claude/rules/dead.md", None) in ids(m)
    assert ("instructions.foreign-keys", ".claude/rules/cursorish.md", 1) in ids(m)


def test_codex_chain_is_cut_at_32_kib(tmp_path):
    root = repo(tmp_path, {"AGENTS.md": "a" * 20000 + "\n", "tests/AGENTS.md": "b" * 20000 + "\n"})
    m = build(root, tmp_path)
    codex = m.agents["codex"]
    assert [e.path for e in codex.startup] == ["AGENTS.md"]
    cap = [f for f in m.findings if f.check == "instructions.cap"]
    assert len(cap) == 1 and cap[0].path == "tests/AGENTS.md"
    assert "32,768" in cap[0].message and "7,234 bytes never seen" in cap[0].message


def test_override_wins_and_other_agents_read_agents_md(tmp_path):
    root = repo(tmp_path, {"AGENTS.md": "plain\n", "AGENTS.override.md": "override\n", ".cursorrules": "c\n"})
    m = build(root, tmp_path)
    assert [e.path for e in m.agents["codex"].startup] == ["AGENTS.override.md"]
    assert [e.path for e in m.agents["cursor"].startup] == [".cursorrules", "AGENTS.md"]


def test_cursor_modes_and_string_bool(tmp_path):
    root = repo(tmp_path, {
        "src/a.ts": "",
        ".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\nA\n",
        ".cursor/rules/string.mdc": "---\nalwaysApply: \"true\"\n---\nS\n",
        ".cursor/rules/globbed.mdc": "---\nglobs: src/**/*.ts, **/*.tsx\nalwaysApply: false\n---\nG\n",
        ".cursor/rules/asked.mdc": "---\ndescription: Use when writing database migrations\n---\nD\n",
    })
    m = build(root, tmp_path, for_paths=["src/a.ts"])
    cur = m.agents["cursor"]
    assert [e.path for e in cur.startup] == [".cursor/rules/always.mdc", ".cursor/rules/asked.mdc"]
    assert cur.startup[1].text == "- asked: Use when writing database migrations"  # the agent sees the description
    assert cur.startup[1].loaded_bytes == len(cur.startup[1].text)
    assert {o.path: o.trigger for o in cur.on_demand} == {
        ".cursor/rules/asked.mdc": "description", ".cursor/rules/globbed.mdc": "path", ".cursor/rules/string.mdc": "manual"}
    assert [o.path for o in cur.for_path["src/a.ts"]] == [".cursor/rules/globbed.mdc"]
    assert ("instructions.string-bool", ".cursor/rules/string.mdc", 1) in ids(m)
    assert not [f for f in m.findings if f.check == "instructions.frontmatter"]  # unquoted globs are fine


def test_skills_listing_lengths_and_collisions(tmp_path):
    long_name = "n" * 70
    root = repo(tmp_path, {
        ".claude/skills/a/SKILL.md": "---\nname: release-notes\ndescription: Write release notes for a tagged version from merged pull requests\n---\nbody a\n",
        ".claude/skills/b/SKILL.md": "---\nname: changelog\ndescription: Write the changelog for a tagged version from merged pull requests\n---\nbody b\n",
        ".claude/skills/c/SKILL.md": f"---\nname: {long_name}\ndescription: {'word ' * 300}\n---\nc\n",
    })
    m = build(root, tmp_path)
    found = ids(m)
    assert ("skills.name-length", ".claude/skills/c/SKILL.md", 1) in found
    assert ("skills.description-length", ".claude/skills/c/SKILL.md", 1) in found
    assert [f for f in m.findings if f.check == "instructions.description-collision"][0].target == ".claude/skills/b/SKILL.md"
    listing = [e for e in m.agents["claude-code"].startup if e.path == ".claude/skills/a/SKILL.md"][0]
    assert listing.cut is not None and listing.text.startswith("- a: Write")  # listed by its folder's name


def test_drifted_copy_but_not_a_symlink_or_an_extension(tmp_path):
    common = "".join(f"- rule number {i} about the code base\n" for i in range(12))
    root = repo(tmp_path, {"CLAUDE.md": common + "- only in claude\n", "AGENTS.md": common + "- only in agents\n",
                           "pkg/CLAUDE.md": common, "pkg/AGENTS.md": common + "- an extension only\n"})
    os.symlink("AGENTS.md", root / "GEMINI.md")
    m = build(root, tmp_path)
    drift = [(f.path, f.target) for f in m.findings if f.check == "instructions.drifted-copy"]
    assert drift == [("AGENTS.md", "CLAUDE.md")]


def test_missing_paths_only_when_certain(tmp_path):
    root = repo(tmp_path, {
        "CLAUDE.md": "- Config lives in `src/config.py`.\n- Old: `src/gone.py`.\n- Create `src/new.py` when needed.\n"
                     "- Vendor: `other/x.py`.\n- See [guide](docs/guide.md).\n",
        "src/config.py": "", "docs/index.md": "",
    })
    m = build(root, tmp_path)
    assert [(f.check, f.line, f.target) for f in m.findings] == [
        ("instructions.missing-path", 2, "src/gone.py"), ("instructions.missing-path", 5, "docs/guide.md")]


def test_user_files_apart_and_off_in_ci(tmp_path):
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "CLAUDE.md").write_text("my own prefs\n")
    root = repo(tmp_path, {"CLAUDE.md": "project\n"})
    m = build(root, tmp_path)
    assert [e.path for e in m.agents["claude-code"].user] == ["~/.claude/CLAUDE.md"]
    assert m.startup_tokens("claude-code") == 1  # the user's file is not the repository's number
    m = build(root, tmp_path, env={"CI": "true"})
    assert m.agents["claude-code"].user == []


@pytest.mark.parametrize("kind", ["binary", "latin1", "symlink-out", "huge-lines", "bad-yaml"])
def test_bad_input_is_one_finding_never_a_traceback(tmp_path, kind):
    root = repo(tmp_path, {"CLAUDE.md": "@docs/x.md\n"})
    target = root / "docs" / "x.md"
    target.parent.mkdir()
    if kind == "binary":
        target.write_bytes(b"\x00\x01\x02binary")
    elif kind == "latin1":
        target.write_bytes("caf\xe9".encode("latin-1"))
    elif kind == "symlink-out":
        secret = tmp_path / "secret.md"
        secret.write_text("secret\n")
        os.symlink(secret, target)
    elif kind == "huge-lines":
        target.write_text("line\n" * 10_000)
    else:
        target.write_text("fine\n")
        (root / ".claude" / "rules").mkdir(parents=True)
        (root / ".claude" / "rules" / "r.md").write_text("---\npaths:\n  - a/**\n - b/**\n---\nbody\n")
    m = build(root, tmp_path)
    found = [f.check for f in m.findings]
    expected = {"binary": ["instructions.unreadable"], "latin1": ["instructions.unreadable"],
                "symlink-out": ["instructions.symlink-outside"],
                "huge-lines": ["instructions.startup-budget"],  # 50 KB at every start: read, and over the budget
                "bad-yaml": ["instructions.frontmatter"]}[kind]
    assert found == expected
    if kind == "symlink-out":
        assert all("secret" not in e.text for e in m.agents["claude-code"].startup)
    if kind == "latin1":  # every agent decodes on with U+FFFD (Node's utf-8 readFile, Codex's from_utf8_lossy)
        (entry,) = [e for e in m.agents["claude-code"].startup if e.path == "docs/x.md"]
        assert entry.text == "caf\ufffd" and "agents read it with" in m.findings[0].message


def test_text_fits_80_columns_and_every_format_renders(tmp_path):
    from curator.reports.context_report import context_json, render_markdown, render_text

    deep = "packages/" + "very-long-folder-name/" * 5
    root = repo(tmp_path, {"CLAUDE.md": f"@{deep}notes.md\n@{deep}gone-and-long-name.md\n", f"{deep}notes.md": "n\n",
                           f"{deep}CLAUDE.md": "nested\n", "AGENTS.md": "a\n"})
    m = build(root, tmp_path, for_paths=[f"{deep}x.ts"])
    text = render_text(m)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "claude-code (Claude Code): start-up" in text and "x.ts: +" in text
    assert f"`{deep}notes.md`" in render_markdown(m)
    data = context_json(m)
    agent = data["agents"][0]
    assert set(agent) >= {"agent", "startup", "on_demand"} and set(agent["startup"]) >= {"tokens", "bytes", "files"}
    assert set(agent["startup"]["files"][0]) >= {"path", "bytes", "tokens", "why", "via", "cut"}
    assert set(agent["on_demand"][0]) >= {"path", "when", "tokens"}


def test_a_root_relative_import_in_a_nested_file_says_how_to_write_it(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "@.agents/main.md\n", ".agents/main.md": "@.agents/rules/a.md\n",
                           ".agents/rules/a.md": "a\n"})
    m = build(root, tmp_path)
    [f] = m.findings
    assert f.check == "instructions.import-broken" and f.target == ".agents/.agents/rules/a.md"
    assert "write @rules/a.md" in f.message


def test_gemini_reads_the_context_files_its_settings_name(tmp_path):
    root = repo(tmp_path, {".gemini/settings.json": '{"context": {"fileName": ["AGENTS.md", "GEMINI.md"]}}',
                           "AGENTS.md": "agents\n", "pkg/AGENTS.md": "nested\n", ".gemini/GEMINI.md": "misplaced\n"})
    m = build(root, tmp_path)
    gem = m.agents["gemini"]
    assert [e.path for e in gem.startup] == ["AGENTS.md"]
    assert [o.path for o in gem.on_demand] == ["pkg/AGENTS.md"]
    assert [u.path for u in gem.never] == [".gemini/GEMINI.md"]


def test_special_files_and_link_loops_are_never_opened(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "@docs/pipe.md\n@docs/loop.md\n", "docs/ok.md": "ok\n"})
    os.mkfifo(root / "docs" / "pipe.md")  # opening it for reading would block forever
    os.symlink("loop.md", root / "docs" / "loop.md")
    os.symlink("..", root / "docs" / "up")  # a folder link back up: listed, never walked
    rules = root / ".claude" / "rules"
    rules.mkdir(parents=True)
    os.mkfifo(rules / "fifo.md")
    m = build(root, tmp_path)
    assert [e.path for e in m.agents["claude-code"].startup] == ["CLAUDE.md"]
    assert sorted((f.check, f.path) for f in m.findings) == [
        ("instructions.unreadable", ".claude/rules/fifo.md"), ("instructions.unreadable", "docs/loop.md"),
        ("instructions.unreadable", "docs/pipe.md")]


def test_build_caches_are_not_walked(tmp_path):
    files = {"AGENTS.md": "a\n", "target/CACHEDIR.TAG": "Signature: 8a477f597d28d172789f06886806bc55\n"}
    files.update({f"target/debug/f{i}.rs": "" for i in range(50)})
    root = repo(tmp_path, files)
    m = build(root, tmp_path)
    assert not any(f.startswith("target/debug") for f in m.fs.files)
