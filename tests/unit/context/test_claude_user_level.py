"""Claude Code's files beside the repository: the organisation's managed CLAUDE.md, and what
`$CLAUDE_CONFIG_DIR` moves (settings, auto memory, subagent memory) and what it does not (your
CLAUDE.md and rules/ are still read from ~/.claude; since 2.1.233 the moved folder's too)."""

from __future__ import annotations

import json
import os

from hypothesis import given, settings
from hypothesis import strategies as st

from curator.context.user import moved_claude_dir, probes
from curator.model.sources import claude_slug

from .test_context_model import build, repo


def _user(model):
    return [(e.path, e.rule) for e in model.agents["claude-code"].user]


def _home(tmp_path):
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "CLAUDE.md").write_text("home prefs\n")
    return home


def test_the_managed_policy_file_loads_first_and_stays_under_managed_only(tmp_path):
    managed = tmp_path / "managed"
    managed.mkdir()
    (managed / "CLAUDE.md").write_text("company policy: never push to main\n")
    _home(tmp_path)
    root = repo(tmp_path, {"CLAUDE.md": "project\n"})
    m = build(root, tmp_path, managed_dir=str(managed))
    policy = (managed / "CLAUDE.md").as_posix()
    assert _user(m) == [(policy, "claude-code/managed.file"),
                        ("~/.claude/CLAUDE.md", "claude-code/user.files")]
    assert m.startup_tokens("claude-code") == 1  # neither is the repository's number
    (managed / "managed-settings.json").write_text(json.dumps(
        {"pluginConfigs": {"agents-md@builtin": {"options": {"instructionFiles": "managed-only"}}}}))
    m = build(root, tmp_path, managed_dir=str(managed))
    assert _user(m) == [(policy, "claude-code/managed.file")]
    assert _user(build(root, tmp_path, managed_dir=str(managed), env={"CI": "1"})) == []
    by_env = build(root, tmp_path, env={"CURATOR_MANAGED_DIR": str(managed)})  # a policy seen before it is deployed
    assert _user(by_env)[0] == (policy, "claude-code/managed.file")
    assert _user(build(root, tmp_path, managed_dir=str(tmp_path / "nowhere"))) == [
        ("~/.claude/CLAUDE.md", "claude-code/user.files")]


def test_a_moved_config_folder_adds_its_claude_md_since_2_1_233_and_home_still_loads(tmp_path):
    home = _home(tmp_path)
    alt = home / ".claude-work"
    (alt / "rules").mkdir(parents=True)
    (alt / "CLAUDE.md").write_text("work prefs\n")
    (alt / "rules" / "style.md").write_text("tabs\n")
    root = repo(tmp_path, {"CLAUDE.md": "project\n"})
    env = {"CLAUDE_CONFIG_DIR": "~/.claude-work"}
    now = build(root, tmp_path, env=env)
    assert [p for p, _ in _user(now)] == ["~/.claude-work/CLAUDE.md", "~/.claude-work/rules/style.md",
                                          "~/.claude/CLAUDE.md"]
    assert all(rule == "claude-code/user.files" for _, rule in _user(now))
    old = build(root, tmp_path, env=env, versions={"claude-code": "2.1.200"})
    assert [p for p, _ in _user(old)] == ["~/.claude/CLAUDE.md"]
    assert any("still reads your CLAUDE.md and rules/ from ~/.claude" in n for n in old.agents["claude-code"].notes)
    same = build(root, tmp_path, env={"CLAUDE_CONFIG_DIR": str(home / ".claude")})  # the default, named: once
    assert [p for p, _ in _user(same)] == ["~/.claude/CLAUDE.md"]


def test_a_moved_config_folder_moves_auto_memory_settings_and_subagent_memory(tmp_path):
    home = _home(tmp_path)
    root = repo(tmp_path, {"CLAUDE.md": "project\n", "AGENTS.md": "agents\n"})
    alt = tmp_path / "elsewhere" / "claude"  # outside home: shown in full
    memory = alt / "projects" / claude_slug(root) / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- [Build](build.md): how to build\n")
    (alt / "agent-memory" / "reviewer").mkdir(parents=True)
    (alt / "agent-memory" / "reviewer" / "MEMORY.md").write_text("reviewed\n")
    (alt / "settings.json").write_text(json.dumps(
        {"pluginConfigs": {"agents-md@builtin": {"options": {"instructionFiles": "claude-md-and-agents-md"}}}}))
    stale = home / ".claude" / "projects" / claude_slug(root) / "memory"  # what the agent no longer reads
    stale.mkdir(parents=True)
    (stale / "MEMORY.md").write_text("old\n")
    m = build(root, tmp_path, env={"CLAUDE_CONFIG_DIR": str(alt)})
    ctx = m.agents["claude-code"]
    assert ((memory / "MEMORY.md").as_posix(), "claude-code/memory.auto@2.1.59") in _user(m)
    assert not any(p.startswith("~/.claude/projects") for p, _ in _user(m))
    assert [f.path for f in ctx.memory_folders if f.scope == "user"] == [(alt / "agent-memory" / "reviewer").as_posix() + "/"]
    assert ctx.settings["instructionFiles"]["value"] == "claude-md-and-agents-md"
    assert [e.path for e in ctx.startup] == ["CLAUDE.md", "AGENTS.md"]
    assert ctx.settings["instructionFiles"]["from"] == "user"


def test_probes_follow_the_moved_folder_and_name_the_managed_file(tmp_path):
    home = _home(tmp_path)
    alt = tmp_path / "alt"
    (alt / "rules").mkdir(parents=True)
    (alt / "rules" / "a.md").write_text("a\n")
    got = probes(str(home), str(tmp_path / "repo"), {"CLAUDE_CONFIG_DIR": str(alt)})
    assert str(alt / "CLAUDE.md") in got and str(alt / "settings.json") in got
    assert str(alt / "rules" / "a.md") in got and str(home / ".claude" / "CLAUDE.md") in got
    assert any(p.endswith("ClaudeCode/CLAUDE.md") or p == "/etc/claude-code/CLAUDE.md" for p in got)


def test_a_session_that_loaded_the_moved_claude_md_is_matched(tmp_path):
    from curator.base.tokens import FakeTokenCounter
    from curator.proof import prove
    from curator.proof.verify import MATCHED, OUTSIDE
    from curator.transcripts import SessionIndex
    from tests.unit.proof.sessions import Session, sid

    home = _home(tmp_path)
    alt = tmp_path / "alt"
    alt.mkdir()
    (alt / "CLAUDE.md").write_text("work prefs\n")
    root = repo(tmp_path, {"CLAUDE.md": "project\n"})
    s = Session(sid(1), str(root), "2.1.300")
    s.instructions([(f"{root}/CLAUDE.md", "Project", "project\n"), (f"{alt}/CLAUDE.md", "User", "work prefs\n"),
                    (f"{home}/.claude/CLAUDE.md", "User", "home prefs\n"),
                    ("/etc/claude-code/CLAUDE.md", "Managed", "policy\n")])
    s.prompt("hi").say("hello")
    s.write(tmp_path / "projects")
    index = SessionIndex.for_repo(root, [tmp_path / "projects"], use_cache=False)
    env = {"HOME": str(home), "CI": "", "CLAUDE_CONFIG_DIR": str(alt), "CURATOR_MANAGED_DIR": str(tmp_path / "none")}
    (c,) = prove(root, index.build(), env=env, home=str(home), token_counter=FakeTokenCounter()).checks
    by = {r.path: r for r in c.rows}
    moved = (alt / "CLAUDE.md").as_posix()
    assert by[moved].status == MATCHED and by[moved].rule == "claude-code/user.files"
    assert by["~/.claude/CLAUDE.md"].status == MATCHED
    assert by["/etc/claude-code/CLAUDE.md"].status == OUTSIDE  # the model read no policy file
    assert "not on this machine" in by["/etc/claude-code/CLAUDE.md"].detail
    policy = tmp_path / "policy"
    policy.mkdir()
    (policy / "CLAUDE.md").write_text("policy\n")  # the model reads one elsewhere: matched by its kind
    (c,) = prove(root, index.build(), env={**env, "CURATOR_MANAGED_DIR": str(policy)}, home=str(home),
                 token_counter=FakeTokenCounter()).checks
    by = {r.path: r for r in c.rows}
    assert by["/etc/claude-code/CLAUDE.md"].status == MATCHED
    assert by["/etc/claude-code/CLAUDE.md"].rule == "claude-code/managed.file"


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_any_config_dir_value_gives_a_folder_or_none_and_never_raises(value):
    home = os.path.abspath("/home/someone")
    default = os.path.join(home, ".claude")
    got = moved_claude_dir(home, {"CLAUDE_CONFIG_DIR": value}, "CLAUDE_CONFIG_DIR")
    assert got is None or (os.path.isabs(got) and got == os.path.normpath(got) and got != default)
    if not value.split(",")[0].strip():
        assert got is None
    assert moved_claude_dir(home, {"CLAUDE_CONFIG_DIR": f" {default}/ ,{value}"}, "CLAUDE_CONFIG_DIR") is None


def test_a_relative_a_linked_or_a_missing_config_folder(tmp_path):
    home = _home(tmp_path)
    root = repo(tmp_path, {"CLAUDE.md": "project\n"})
    assert moved_claude_dir(str(home), {"CLAUDE_CONFIG_DIR": "work/claude"}, "CLAUDE_CONFIG_DIR") is None  # relative
    link = tmp_path / "dotfiles-claude"
    link.symlink_to(home / ".claude")
    linked = build(root, tmp_path, env={"CLAUDE_CONFIG_DIR": str(link)})
    assert [p for p, _ in _user(linked)] == ["~/.claude/CLAUDE.md"]  # ~/.claude through a link: read once
    gone = build(root, tmp_path, env={"CLAUDE_CONFIG_DIR": str(tmp_path / "nowhere")})
    assert any("$CLAUDE_CONFIG_DIR names no folder" in n for n in gone.agents["claude-code"].notes)


def test_an_unreadable_subagent_memory_folder_is_a_note(tmp_path, monkeypatch):
    home = _home(tmp_path)
    (home / ".claude" / "agent-memory").mkdir()
    root = repo(tmp_path, {"CLAUDE.md": "project\n"})
    real = os.listdir

    def refuse(path):
        if str(path).endswith("agent-memory"):
            raise PermissionError(13, "Permission denied")
        return real(path)

    monkeypatch.setattr(os, "listdir", refuse)
    m = build(root, tmp_path)
    assert any("agent-memory cannot be read (Permission denied)" in n for n in m.agents["claude-code"].notes)


def test_the_auto_memory_byte_cut_holds_since_2_1_83(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "# Project\n"})
    memory = tmp_path / "home" / ".claude" / "projects" / claude_slug(root) / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text(("- a long index line " + "x" * 280 + "\n") * 100, encoding="utf-8")  # 30 KB

    def entry(version):
        (got,) = [u for u in build(root, tmp_path, versions={"claude-code": version}).agents["claude-code"].user
                  if u.path.endswith("MEMORY.md")]
        return got

    assert entry("2.1.82").cut is None  # 100 lines, under the 200-line cap: all of it loaded then
    now = entry("2.1.83")
    assert now.cut is not None and "first 200 lines or 25 KB" in now.cut.reason and "lines 84+" in now.cut.reason
    index, warning = now.text.split("\n\n> WARNING: ")
    assert len(index) <= 25_000 and index.count("\n") == 82  # cut at the last line break before 25,000 characters
    assert now.cut.kept_bytes == len(index.encode("utf-8"))  # the file's bytes kept, the warning line apart
    assert warning.startswith("MEMORY.md is 29.4KB (limit: 24.4KB) — index entries are too long. Only part of it "
                              "was loaded: 17 of 100 lines were cut off, starting at line 84")


def test_auto_memory_loads_without_its_frontmatter_and_comments_before_the_cap(tmp_path):
    """Claude Code takes the frontmatter and block comments out before it counts 200 lines: a
    MEMORY.md of 205 lines of which 6 are those loads whole, and a cut names the file's line."""
    root = repo(tmp_path, {"CLAUDE.md": "# Project\n"})
    memory = tmp_path / "home" / ".claude" / "projects" / claude_slug(root) / "memory"
    memory.mkdir(parents=True)
    head = "---\nname: index\n---\n<!-- kept for humans\nnot for the agent -->\n"
    rows = "".join(f"- [T{i}](t{i}.md) — a note\n" for i in range(199))
    (memory / "MEMORY.md").write_text(head + "\n" + rows, encoding="utf-8")

    def entry():
        (got,) = [u for u in build(root, tmp_path).agents["claude-code"].user if u.path.endswith("MEMORY.md")]
        return got

    whole = entry()
    assert whole.cut is None and whole.text.startswith("- [T0](t0.md)") and "kept for humans" not in whole.text
    (memory / "MEMORY.md").write_text(head + rows + "- [T199](t199.md)\n- [T200](t200.md) — past the cap\n")
    cut = entry()
    assert "lines 206+" in cut.cut.reason and "T199" in cut.text and "past the cap\n" not in cut.text
