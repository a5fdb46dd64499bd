"""Gemini CLI's GEMINI_SYSTEM_MD: `.gemini/system.md` (or the file it names) replaces the whole
system prompt, trusted folder or not; unset, a committed system.md loads only for those who set it."""

from __future__ import annotations

from .test_context_model import build, repo
from .test_more_agents_skills import _trust


def test_the_system_prompt_file_loads_only_with_the_variable_and_whatever_the_trust(tmp_path):
    root = repo(tmp_path, {"GEMINI.md": "root\n", ".gemini/system.md": "You are a careful engineer.\n"})
    unset = build(root, tmp_path, agents=["gemini"]).agents["gemini"]
    assert [o.path for o in unset.on_demand if "GEMINI_SYSTEM_MD=1" in o.when] == [".gemini/system.md"]
    assert ".gemini/system.md" not in [e.path for e in unset.startup]
    on = build(root, tmp_path, agents=["gemini"], env={"GEMINI_SYSTEM_MD": "TRUE"}).agents["gemini"]
    assert on.startup[0].path == ".gemini/system.md" and on.startup[0].rule == "gemini/system.file"
    _trust(tmp_path, {str(root): "DO_NOT_TRUST"})
    untrusted = build(root, tmp_path, agents=["gemini"], env={"GEMINI_SYSTEM_MD": "1"}).agents["gemini"]
    assert [e.path for e in untrusted.startup] == [".gemini/system.md"]  # GEMINI.md is not read; system.md is
    off = build(root, tmp_path, agents=["gemini"], env={"GEMINI_SYSTEM_MD": "0"}).agents["gemini"]
    assert ".gemini/system.md" not in [e.path for e in off.startup]


def test_a_named_file_is_read_where_it_is_and_a_missing_one_stops_gemini(tmp_path):
    root = repo(tmp_path, {"GEMINI.md": "root\n", "prompts/sys.md": "system\n"})
    named = build(root, tmp_path, agents=["gemini"], env={"GEMINI_SYSTEM_MD": "prompts/sys.md"}).agents["gemini"]
    assert named.startup[0].path == "prompts/sys.md"
    mine = tmp_path / "home" / "my-system.md"
    mine.parent.mkdir(parents=True, exist_ok=True)
    mine.write_text("mine\n")
    yours = build(root, tmp_path, agents=["gemini"], env={"GEMINI_SYSTEM_MD": "~/my-system.md"}).agents["gemini"]
    assert [u.path for u in yours.user if u.rule == "gemini/system.file"] == ["~/my-system.md"]
    missing = build(root, tmp_path, agents=["gemini"], env={"GEMINI_SYSTEM_MD": "1"}).agents["gemini"]
    assert any("Gemini CLI refuses to start" in n and ".gemini/system.md" in n for n in missing.notes)


def test_a_system_md_linked_out_of_the_repository_is_read_where_it_leads(tmp_path):
    import os

    root = repo(tmp_path, {"GEMINI.md": "root\n"})
    outside = tmp_path / "shared" / "system.md"
    outside.parent.mkdir()
    outside.write_text("the team's system prompt\n")
    (root / ".gemini").mkdir(exist_ok=True)
    os.symlink(outside, root / ".gemini" / "system.md")
    ctx = build(root, tmp_path, agents=["gemini"], env={"GEMINI_SYSTEM_MD": "1"}).agents["gemini"]
    (yours,) = [u for u in ctx.user if u.rule == "gemini/system.file"]  # shown apart, by the link's path
    assert yours.path == str(root / ".gemini" / "system.md") and yours.text == "the team's system prompt\n"
    assert not any("refuses to start" in n for n in ctx.notes)


def test_a_trusted_folders_env_file_can_set_the_variable_and_an_untrusted_ones_cannot(tmp_path):
    root = repo(tmp_path, {"GEMINI.md": "root\n", ".gemini/system.md": "system\n",
                           ".gemini/.env": "# ours\nexport GEMINI_SYSTEM_MD='true'  \n", ".env": "GEMINI_SYSTEM_MD=0\n"})
    trusted = build(root, tmp_path, agents=["gemini"], env={"GEMINI_CLI_TRUST_WORKSPACE": "true"}).agents["gemini"]
    assert trusted.startup[0].path == ".gemini/system.md" and "in .gemini/.env" in trusted.startup[0].why
    _trust(tmp_path, {str(root): "DO_NOT_TRUST"})
    untrusted = build(root, tmp_path, agents=["gemini"]).agents["gemini"]
    assert ".gemini/system.md" not in [e.path for e in untrusted.startup]
    shell = build(root, tmp_path, agents=["gemini"], env={"GEMINI_CLI_TRUST_WORKSPACE": "true",
                                                          "GEMINI_SYSTEM_MD": "false"}).agents["gemini"]
    assert ".gemini/system.md" not in [e.path for e in shell.startup]  # your shell's value wins
