"""`curator context` as a command: agents chosen, --for, formats, usage errors."""

from __future__ import annotations

import json

from curator.cli import main


def make(tmp_path, files):
    root = tmp_path / "repo"
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    (root / ".git").mkdir(parents=True, exist_ok=True)
    return root


def test_agents_filter_for_and_named_agents(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    root = make(tmp_path, {"CLAUDE.md": "c\n", "AGENTS.md": "a\n", "pkg/AGENTS.md": "nested\n",
                           ".curator.yaml": "agents: [cursor]\n"})
    assert main(["context", str(root), "--agent", "codex", "--for", "pkg/x.py", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    [codex] = data["agents"]
    assert codex["agent"] == "codex" and [o["path"] for o in codex["for"]["pkg/x.py"]] == ["pkg/AGENTS.md"]
    main(["context", str(root), "--format", "json"])
    names = [a["agent"] for a in json.loads(capsys.readouterr().out)["agents"]]
    assert names == ["claude-code", "codex", "cursor"]  # cursor: named in .curator.yaml
    assert main(["context", str(root), "--format", "markdown"]) == 0
    assert "## Claude Code (`claude-code`)" in capsys.readouterr().out


def test_usage_errors(tmp_path, capsys):
    root = make(tmp_path, {"CLAUDE.md": "c\n"})
    assert main(["context", str(tmp_path / "nope")]) == 2
    assert main(["context", str(root), "--for", "/elsewhere/x.py"]) == 2
    assert "not inside" in capsys.readouterr().err


def test_a_folder_with_no_agent_file_says_so(tmp_path, capsys):
    root = make(tmp_path, {"README.md": "r\n"})
    assert main(["context", str(root)]) == 0
    assert "no agent instruction files found" in capsys.readouterr().out
