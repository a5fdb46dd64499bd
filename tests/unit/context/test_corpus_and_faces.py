"""On real repositories (the shared corpus, when present): Claude Code's and Codex's start-up
files as counted by hand from their docs; and one start-up number for every face."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from curator.base.tokens import FakeTokenCounter
from curator.cli import main
from curator.context import build_context

CORPUS = Path(os.environ.get("CURATOR_INSTRUCTION_CORPUS", "/work/shared/corpora/instructions"))
# repository -> {agent: {path: bytes loaded}}, counted by hand (see the report of issue 22)
EXPECTED = {
    "modelcontextprotocol__python-sdk": {
        "codex": {"AGENTS.md": 8714},
        "claude-code": {"CLAUDE.md": 11, "AGENTS.md": 8714, ".claude/skills/test-quality/SKILL.md": 203},
    },
    "pydantic__pydantic-ai": {"codex": {"AGENTS.md": 15525}},
    "312-dev__eclosion-for-monarch": {"codex": {"AGENTS.md": 5245}},
    "dotnet__aspire": {"claude-code": {"AGENTS.md": 22843}, "codex": {"AGENTS.md": 22843}},  # Claude since 2.1.277
}


@pytest.mark.skipif(not (CORPUS / "materialize.py").exists(), reason="the instruction corpus is not here")
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_start_up_files_match_the_hand_count(tmp_path, name):
    from curator.bench.context_corpus import hand_count, materialize

    root = materialize(str(CORPUS), name, str(tmp_path / name))
    model = build_context(root, token_counter=FakeTokenCounter(), env={"HOME": str(tmp_path / "home")})
    for agent, want in EXPECTED[name].items():
        got = {e.path: e.loaded_bytes for e in model.agents[agent].startup}
        assert set(got) == set(want), agent
        for path, size in want.items():
            if size is not None:
                assert abs(got[path] - size) <= size / 100, (agent, path)
    hand = hand_count(root)  # the bench's own reading of the agents' docs agrees too
    assert {a: set(files) for a, files in hand.items() if a in EXPECTED[name]} == \
        {a: set(files) for a, files in EXPECTED[name].items()}
    before = build_context(root, token_counter=FakeTokenCounter(), env={"HOME": str(tmp_path / "home")},
                           versions={"claude-code": "2.1.276"})
    if name == "dotnet__aspire":  # before 2.1.277 an AGENTS.md is nothing of Claude Code's
        assert "claude-code" not in before.agents and hand_count(root, agents_md=False)["claude-code"] == {}
    if name == "pydantic__pydantic-ai":  # root + tests/AGENTS.md = 36,428 bytes: 3,660 cut
        cap = [f for f in model.findings if f.check == "instructions.cap"]
        assert [f.path for f in cap] == ["tests/AGENTS.md"] and "3,660 bytes never seen" in cap[0].message


def test_one_start_up_number_in_every_face(tmp_path, capsys, monkeypatch, sample_repo_copy):
    """`context`, `check`'s sources and the model agree on the memory system's and the agent's number."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    repo = sample_repo_copy
    main(["context", str(repo), "--format", "json"])
    ctx = {a["agent"]: a for a in json.loads(capsys.readouterr().out)["agents"]}
    main(["check", str(repo), "--format", "json"])
    sources = {s["name"]: s for s in json.loads(capsys.readouterr().out)["sources"]}
    assert ctx["serena"]["startup"]["tokens"] == sources[".serena/memories"]["startup"]["tokens"] > 0
    model = build_context(repo, env={"HOME": str(tmp_path / "home")})
    assert model.startup_tokens("claude-code") == ctx["claude-code"]["startup"]["tokens"] > 0
    assert model.startup_tokens("claude-code") == sum(f["tokens"] for f in ctx["claude-code"]["startup"]["files"])


def test_check_covers_a_repository_with_only_instruction_files(tmp_path, capsys):
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    (root / ".git").mkdir()  # a repository (a bare folder of .md files is taken for a memory store)
    (root / "CLAUDE.md").write_text("@docs/missing.md\n")
    code = main(["check", str(root), "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and [f["check"] for f in data["findings"]] == ["instructions.import-broken"]
    main(["check", str(root), "--format", "sarif"])
    sarif = json.loads(capsys.readouterr().out)
    assert sarif["runs"][0]["results"][0]["ruleId"] == "instructions.import-broken"
    shutil.rmtree(root / "docs")
    empty = tmp_path / "nothing"
    empty.mkdir()
    assert main(["check", str(empty)]) == 2  # no agent file, no memory: the usual usage error


def test_baseline_covers_the_instruction_findings(tmp_path, capsys, sample_repo_copy, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    bl = tmp_path / "bl.json"
    assert main(["baseline", str(sample_repo_copy), "-o", str(bl)]) == 0
    capsys.readouterr()
    main(["check", str(sample_repo_copy), "--baseline", str(bl), "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert data["findings"] == [] and data["baseline"]["gone"] == []
    assert "instructions.drifted-copy" in {e["check"] for e in json.loads(bl.read_text())["findings"]}


@pytest.mark.skipif(not (CORPUS / "materialize.py").exists(), reason="the instruction corpus is not here")
def test_check_tokens_and_context_json_give_each_agent_one_start_up_number(tmp_path, capsys, monkeypatch):
    """A corpus repository of instruction files only (no memory): `check --format json` carries
    the agents' start-up numbers, and they are `tokens`' and `context`'s (one source of each)."""
    from curator.bench.context_corpus import materialize

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    root = materialize(str(CORPUS), "312-dev__eclosion-for-monarch", str(tmp_path / "repo"))
    faces = {}
    for command in ("check", "tokens", "context"):
        main([command, str(root), "--format", "json"])
        data = json.loads(capsys.readouterr().out)
        faces[command] = {a["agent"]: (a["startup"]["tokens"], a["startup"]["bytes"]) for a in data["agents"]}
    assert set(faces["context"]) == {"claude-code", "codex", "copilot", "cursor"}
    assert faces["check"] == faces["tokens"] == faces["context"]
    model = build_context(root, env={"HOME": str(tmp_path / "home")})
    assert {a: model.startup_tokens(a) for a in model.agents} == {a: n for a, (n, _) in faces["check"].items()}
    assert all(n > 0 for n, _ in faces["check"].values())


def test_check_json_of_one_store_given_alone_has_no_agents(capsys, sample_copy):
    main(["check", str(sample_copy), "--format", "json"])
    assert json.loads(capsys.readouterr().out)["agents"] == []  # the key is always there
