"""Codex as the 0.171.0 binary loads (probed offline against 0.154.0; /work/research/agents/
codex18.md): fallback names trimmed and a path among them ignored since 0.156.0, an empty global
override passed over, memories v2 since 0.155.0, and the hooks whose output joins the context."""

from __future__ import annotations

import json

from .test_context_model import build, repo
from .test_more_agents_skills import _codex_config


def test_fallback_names_are_trimmed_and_a_path_among_them_is_ignored_since_0_156(tmp_path):
    root = repo(tmp_path, {"TEAM.md": "team\n", "docs/GUIDE.md": "guide\n"})
    _codex_config(tmp_path, 'project_doc_fallback_filenames = [" TEAM.md ", "docs/GUIDE.md", ".."]\n')
    codex = build(root, tmp_path, agents=["codex"]).agents["codex"]
    assert [e.path for e in codex.startup] == ["TEAM.md"]
    assert any("adds TEAM.md (docs/GUIDE.md, ..: a path, not a name, ignored)" in n for n in codex.notes)
    old = build(root, tmp_path, agents=["codex"], versions={"codex": "0.154.0"}).agents["codex"]
    assert [e.path for e in old.startup] == ["TEAM.md"] and not any("ignored" in n for n in old.notes)
    _codex_config(tmp_path, 'project_doc_fallback_filenames = ["docs/GUIDE.md", "TEAM.md"]\n')
    older = build(root, tmp_path, agents=["codex"], versions={"codex": "0.154.0"}).agents["codex"]
    assert [e.path for e in older.startup] == ["docs/GUIDE.md"]  # joined to the folder, as 0.154.0 did
    assert [e.path for e in build(root, tmp_path, agents=["codex"]).agents["codex"].startup] == ["TEAM.md"]
    _codex_config(tmp_path, 'project_doc_fallback_filenames = ["./TEAM.md"]\n')
    assert [e.path for e in build(root, tmp_path, agents=["codex"], versions={"codex": "0.154.0"}).agents["codex"]
            .startup] == ["TEAM.md"]
    assert build(root, tmp_path, agents=["codex"]).agents["codex"].startup == []  # a path since 0.156.0


def test_an_empty_global_override_is_passed_over_for_your_agents_md(tmp_path):
    folder = tmp_path / "home" / ".codex"
    folder.mkdir(parents=True)
    (folder / "AGENTS.override.md").write_text("  \n")
    (folder / "AGENTS.md").write_text("mine\n")
    codex = build(repo(tmp_path, {"AGENTS.md": "root\n"}), tmp_path, agents=["codex"]).agents["codex"]
    assert [u.path for u in codex.user] == ["~/.codex/AGENTS.md"]


def test_memories_v2_are_read_from_their_own_folder_when_your_config_asks(tmp_path):
    for name in ("memories", "memories_v2"):
        (tmp_path / "home" / ".codex" / name).mkdir(parents=True)
        (tmp_path / "home" / ".codex" / name / "memory_summary.md").write_text(f"{name}\n")
    root = repo(tmp_path, {"AGENTS.md": "root\n"})
    assert [m.path for m in build(root, tmp_path, agents=["codex"]).agents["codex"].memory_folders] == \
        ["~/.codex/memories/"]
    _codex_config(tmp_path, '[memories]\nversion = "v2"\n')
    codex = build(root, tmp_path, agents=["codex"]).agents["codex"]
    assert [(m.path, m.rule) for m in codex.memory_folders] == [("~/.codex/memories_v2/", "codex/memory.version-2@0.155.0")]
    old = build(root, tmp_path, agents=["codex"], versions={"codex": "0.154.0"}).agents["codex"]
    assert [m.path for m in old.memory_folders] == ["~/.codex/memories/"]  # the key did not exist yet


def test_a_pre_tool_use_hook_is_one_whose_output_joins_the_context(tmp_path):
    folder = tmp_path / "home" / ".codex"
    folder.mkdir(parents=True)
    hooks = {"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "cat notes.md"}]}],
                       "PreModelRequest": [{"hooks": [{"type": "command", "command": "cat other.md"}]}]}}
    (folder / "hooks.json").write_text(json.dumps(hooks))
    codex = build(repo(tmp_path, {"AGENTS.md": "root\n"}), tmp_path, agents=["codex"]).agents["codex"]
    said = [n for n in codex.notes if " hook in " in n]
    assert len(said) == 1 and said[0].startswith("a PreToolUse hook in ~/.codex/hooks.json runs `cat notes.md`")


def test_a_settings_file_that_is_not_utf8_is_refused_as_codex_refuses_it(tmp_path):
    root = repo(tmp_path, {"AGENTS.md": "root\n" * 20})
    (root / ".codex").mkdir()
    (root / ".codex" / "config.toml").write_bytes(b"# caf\xe9\nproject_doc_max_bytes = 5\n")
    (root / ".codex" / "hooks.json").write_bytes(b'{"hooks": {"SessionStart": [{"hooks": [{"type": "command", '
                                                 b'"command": "echo caf\xe9"}]}]}}')
    _codex_config(tmp_path, f'[projects."{root}"]\ntrust_level = "trusted"\n')
    m = build(root, tmp_path, agents=["codex"])
    codex = m.agents["codex"]
    assert codex.startup[0].cut is None  # the 5-byte cap of a file Codex refuses is not applied
    assert ".codex/config.toml is not UTF-8 (byte 5): Codex refuses to start with it" in codex.notes
    assert ".codex/hooks.json is not UTF-8 (byte 79): Codex loads none of its hooks" in codex.notes
    assert not [n for n in codex.notes if " hook in " in n]
    assert not [f for f in m.findings if f.path.startswith(".codex/")]


def test_codex_cuts_a_file_that_is_not_utf8_by_its_bytes_then_reads_it(tmp_path):
    """Codex cuts the raw bytes at the cap, then decodes them lossily: each bad byte is one byte of
    the cap (and one U+FFFD), not the three bytes U+FFFD takes in UTF-8 (review18 #9)."""
    root = repo(tmp_path, {})
    (root / "AGENTS.md").write_bytes(("caf\xe9 " * 10_000).encode("latin-1"))
    _codex_config(tmp_path, "project_doc_max_bytes = 1000\n")
    (entry,) = build(root, tmp_path, agents=["codex"]).agents["codex"].startup
    assert entry.cut.kept_bytes == 1000 and len(entry.text) == 1000 and entry.text.startswith("caf\ufffd caf\ufffd")
