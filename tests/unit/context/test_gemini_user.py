"""Gemini CLI beside the repository: your `~/.gemini/GEMINI.md`, and since 0.37.0 your private
project memory `~/.gemini/tmp/<project>/memory/MEMORY.md`, the project found in
`~/.gemini/projects.json` (its code: `getUserProjectMemoryPaths`)."""

from __future__ import annotations

import json
import os

from .test_context_model import build, repo


def test_your_global_file_and_the_projects_private_memory_are_shown_apart(tmp_path):
    root = repo(tmp_path, {"GEMINI.md": "project\n"})
    home = tmp_path / "home"
    (home / ".gemini" / "tmp" / "my-app" / "memory").mkdir(parents=True)
    (home / ".gemini" / "GEMINI.md").write_text("mine everywhere\n")
    (home / ".gemini" / "tmp" / "my-app" / "memory" / "MEMORY.md").write_text("- learned: use pnpm\n")
    (home / ".gemini" / "projects.json").write_text(json.dumps({"projects": {os.path.abspath(root): "my-app"}}))
    m = build(root, tmp_path, agents=["gemini"])
    user = [(u.path, u.rule) for u in m.agents["gemini"].user]
    assert user == [("~/.gemini/GEMINI.md", "gemini/user.folder"),
                    ("~/.gemini/tmp/my-app/memory/MEMORY.md", "gemini/memory.project@0.37.0")]
    assert m.startup_tokens("gemini") == build(root, tmp_path, agents=["gemini"], env={"CI": "1"}).startup_tokens("gemini")
    old = build(root, tmp_path, versions={"gemini": "0.36.0"}, agents=["gemini"])
    assert [u.path for u in old.agents["gemini"].user] == ["~/.gemini/GEMINI.md"]


def test_a_registry_that_is_broken_or_names_another_folder_adds_nothing(tmp_path):
    root = repo(tmp_path, {"GEMINI.md": "project\n"})
    home = tmp_path / "home"
    (home / ".gemini").mkdir(parents=True)
    for text in ("{not json", json.dumps({"projects": {"/elsewhere": "other"}}), json.dumps({"projects": []}),
                 json.dumps({"projects": {os.path.abspath(root): "../../etc"}})):
        (home / ".gemini" / "projects.json").write_text(text)
        assert build(root, tmp_path, agents=["gemini"]).agents["gemini"].user == []


def test_probes_name_the_private_project_memory(tmp_path):
    from curator.context.user import probes

    home = tmp_path / "home"
    (home / ".gemini").mkdir(parents=True)
    (home / ".gemini" / "projects.json").write_text(json.dumps({"projects": {str(tmp_path / "repo"): "repo"}}))
    got = probes(str(home), str(tmp_path / "repo"), {})
    assert str(home / ".gemini" / "GEMINI.md") in got and str(home / ".gemini" / "tmp" / "repo" / "memory") in got
