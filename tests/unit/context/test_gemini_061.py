"""Gemini CLI as read in its npm bundles up to 0.61.0: `context.fileName` adds names to GEMINI.md
(since 0.44.0) and may come from your settings; variables that make a folder untrusted (0.57.0,
0.59.0), compared exactly; an extension's bad context-file name (whole extension until 0.60.0)."""

from __future__ import annotations

import json

from .test_context_model import build, repo

TRUSTED = {"GEMINI_CLI_TRUST_WORKSPACE": "true"}


def _startup(root, tmp_path, version=None, env=None) -> list[str]:
    versions = {"gemini": version} if version else None
    model = build(root, tmp_path, agents=["gemini"], versions=versions, env=env or TRUSTED)
    return [e.path for e in model.agents["gemini"].startup]


def test_context_file_name_adds_to_gemini_md_since_0_44_and_yours_counts_where_the_workspace_is_silent(tmp_path):
    files = {"GEMINI.md": "gemini\n", "AGENTS.md": "agents\n", "NOTES.md": "notes\n"}
    root = repo(tmp_path, {**files, ".gemini/settings.json": '{"context": {"fileName": "AGENTS.md"}}'})
    assert _startup(root, tmp_path) == ["AGENTS.md", "GEMINI.md"]  # the names given first, GEMINI.md still read
    assert _startup(root, tmp_path, "0.43.0") == ["AGENTS.md"]  # before 0.44.0 the setting replaced the default
    (root / ".gemini" / "settings.json").write_text("{}")
    user = tmp_path / "home" / ".gemini"
    user.mkdir(parents=True, exist_ok=True)
    (user / "settings.json").write_text(json.dumps({"context": {"fileName": ["NOTES.md"]}}))
    assert _startup(root, tmp_path) == ["NOTES.md", "GEMINI.md"]  # yours, where the workspace sets nothing
    assert _startup(root, tmp_path, env={**TRUSTED, "CI": "1"}) == ["GEMINI.md"]  # yours are not read in CI


def test_variables_make_the_folder_untrusted_first_and_compare_exactly(tmp_path):
    root = repo(tmp_path, {"GEMINI.md": "gemini\n"})
    assert _startup(root, tmp_path, env={"GEMINI_CLI_TRUST_WORKSPACE": "false"}) == []
    assert _startup(root, tmp_path, "0.56.0", env={"GEMINI_CLI_TRUST_WORKSPACE": "false", "CI": "1"}) == ["GEMINI.md"]
    restricted = {"GEMINI_RESTRICTED_MODE": "true", "GEMINI_CLI_TRUST_WORKSPACE": "true"}
    model = build(root, tmp_path, agents=["gemini"], env=restricted)
    gem = model.agents["gemini"]
    assert gem.startup == [] and [u.rule for u in gem.never] == ["gemini/trust.env-off@0.59.0"]
    assert any("$GEMINI_RESTRICTED_MODE is true" in n for n in gem.notes)
    assert _startup(root, tmp_path, "0.58.0", env=restricted) == ["GEMINI.md"]  # no such variable before 0.59.0
    assert _startup(root, tmp_path, env={"GEMINI_RESTRICTED_MODE": "true", "CI": "1"}) == []  # a variable: CI too
    # "TRUE" is not "true": Gemini compares the value exactly, so the folder is undecided (a note, files kept)
    undecided = build(root, tmp_path, agents=["gemini"], env={"GEMINI_CLI_TRUST_WORKSPACE": "TRUE"}).agents["gemini"]
    assert any("asks whether to trust this folder" in n for n in undecided.notes)


def test_a_bad_context_file_name_skips_the_extension_until_0_60_and_only_itself_since(tmp_path):
    root = repo(tmp_path, {"GEMINI.md": "root\n"})
    ext = tmp_path / "home" / ".gemini" / "extensions" / "docs"
    ext.mkdir(parents=True)
    (ext / "gemini-extension.json").write_text(json.dumps({"name": "docs", "contextFileName":
                                                           ["DOCS.md", "sub/../DOCS.md", "%2e%2e/x.md", "../x.md", "C:/x.md"]}))
    (ext / "DOCS.md").write_text("docs\n")
    (ext / "C:").mkdir()
    (ext / "C:" / "x.md").write_text("a drive name: refused, as Gemini's path.win32.isAbsolute does\n")

    def user(version):
        gem = build(root, tmp_path, agents=["gemini"], versions={"gemini": version}, env=TRUSTED).agents["gemini"]
        return [u.path for u in gem.user], gem.notes

    assert user("0.61.0")[0] == ["~/.gemini/extensions/docs/DOCS.md"]  # `..` anywhere, also encoded: dropped
    paths, notes = user("0.59.0")
    assert paths == [] and any("skips extension docs whole" in n for n in notes)


def test_an_untrusted_folders_settings_do_not_name_your_context_files(tmp_path):
    root = repo(tmp_path, {"GEMINI.md": "g\n", ".gemini/settings.json": '{"context": {"fileName": "TEAM.md"}}'})
    user = tmp_path / "home" / ".gemini"
    user.mkdir(parents=True, exist_ok=True)
    (user / "GEMINI.md").write_text("mine\n")
    (user / "TEAM.md").write_text("team\n")

    def yours(env):
        return [u.path for u in build(root, tmp_path, agents=["gemini"], env=env).agents["gemini"].user]

    assert yours(TRUSTED) == ["~/.gemini/TEAM.md", "~/.gemini/GEMINI.md"]
    assert yours({"GEMINI_CLI_TRUST_WORKSPACE": "false"}) == ["~/.gemini/GEMINI.md"]
