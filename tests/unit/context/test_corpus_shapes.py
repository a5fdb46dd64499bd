"""Every shape of the 20 repositories of the instruction corpus, on small fixtures of our own: Claude
Code's start-up files before 2.1.277 and today, as counted by hand on those repositories (the
report of issue 30 has the per-repository table)."""

from __future__ import annotations

import os

import pytest

from .test_context_model import build, repo

BEFORE, TODAY = "2.1.276", "2.1.332"

# shape -> (files, symbolic links {link: target}, start-up before 2.1.277, start-up today)
SHAPES = {
    # aspire, harlequin, Roo-Code: one AGENTS.md, no Claude file; `@name` only inside code spans
    "agents-md-only": ({"AGENTS.md": "# Build\nRun `@pytest.mark.asyncio` tests.\n", ".roo/rules/a.md": "r\n"}, {},
                       None, ["AGENTS.md"]),
    # nftbk: AGENTS.md is a link into .cursor/rules
    "agents-md-linked-to-a-cursor-rule": ({".cursor/rules/general.mdc": "---\nalwaysApply: true\n---\ng\n"},
                                          {"AGENTS.md": ".cursor/rules/general.mdc"}, None, ["AGENTS.md"]),
    # sqlfluff: nested AGENTS.md only (on demand today)
    "nested-agents-md": ({"AGENTS.md": "root\n", "src/AGENTS.md": "src\n", "test/AGENTS.md": "t\n"}, {}, None,
                         ["AGENTS.md"]),
    # cline: AGENTS.md, commands that are links into .clinerules/workflows, an empty settings file
    "agents-md-and-linked-commands": ({"AGENTS.md": "a\n", ".clinerules/workflows/release.md": "steps\n",
                                       ".claude/settings.json": "", "sdk/AGENTS.md": "sdk\n"},
                                      {".claude/commands/release.md": "../../.clinerules/workflows/release.md"}, [],
                                      ["AGENTS.md"]),
    # margelo: CLAUDE.md -> AGENTS.md (read once)
    "claude-md-linked-to-agents-md": ({"AGENTS.md": "a\n"}, {"CLAUDE.md": "AGENTS.md"}, ["CLAUDE.md"], ["CLAUDE.md"]),
    # langfuse: CLAUDE.md -> AGENTS.md -> .agents/AGENTS.md, nested links, vendored .agents/skills
    "two-hop-link": ({".agents/AGENTS.md": "real\n", "web/AGENTS.md": "web\n",
                      "web/.agents/skills/x/AGENTS.md": "vendored\n"},
                     {"AGENTS.md": ".agents/AGENTS.md", "CLAUDE.md": "AGENTS.md", "web/CLAUDE.md": "AGENTS.md"},
                     ["CLAUDE.md"], ["CLAUDE.md"]),
    # python-sdk, trigger.dev: a CLAUDE.md stub that imports AGENTS.md
    "claude-md-imports-agents-md": ({"CLAUDE.md": "@AGENTS.md\n", "AGENTS.md": "a\n"}, {}, ["CLAUDE.md", "AGENTS.md"],
                                    ["CLAUDE.md", "AGENTS.md"]),
    # 312-dev: CLAUDE.md with AGENTS.md and .cursorrules linked to it, rules without paths
    "agents-md-linked-to-claude-md": ({"CLAUDE.md": "c\n", ".claude/rules/a.md": "r\n"},
                                      {"AGENTS.md": "CLAUDE.md", ".cursorrules": "CLAUDE.md"},
                                      ["CLAUDE.md", ".claude/rules/a.md"], ["CLAUDE.md", ".claude/rules/a.md"]),
    # pydantic-ai: root CLAUDE.md link, nested AGENTS.md some with a CLAUDE.md link, some without
    "root-link-silences-nested": ({"AGENTS.md": "root\n", "pkg/AGENTS.md": "p\n", "lone/AGENTS.md": "l\n"},
                                  {"CLAUDE.md": "AGENTS.md", "pkg/CLAUDE.md": "AGENTS.md"}, ["CLAUDE.md"],
                                  ["CLAUDE.md"]),
    # toolkit-remix: CLAUDE.md and a different AGENTS.md
    "claude-md-beside-agents-md": ({"CLAUDE.md": "@.agents/instructions.md\n", ".agents/instructions.md": "i\n",
                                    "AGENTS.md": "other text\n"}, {},
                                   ["CLAUDE.md", ".agents/instructions.md"], ["CLAUDE.md", ".agents/instructions.md"]),
    # 2anki: rules imported by CLAUDE.md that load anyway (once, in import order)
    "imported-rules": ({"CLAUDE.md": "@.claude/rules/b.md\n", ".claude/rules/a.md": "a\n", ".claude/rules/b.md": "b\n"},
                       {}, ["CLAUDE.md", ".claude/rules/b.md", ".claude/rules/a.md"],
                       ["CLAUDE.md", ".claude/rules/b.md", ".claude/rules/a.md"]),
    # moonx-farm, gemini-cli, task-orchestrator: no file of Claude Code's
    "no-claude-file": ({"memory-bank/a.md": "m\n", "GEMINI.md": "g\n"}, {}, None, None),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_claude_code_start_up_before_and_today(tmp_path, shape):
    files, links, before, today = SHAPES[shape]
    root = repo(tmp_path, files)
    for link, target in links.items():
        (root / link).parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, root / link)
    for version, want in ((BEFORE, before), (TODAY, today)):
        model = build(root, tmp_path, versions={"claude-code": version})
        ctx = model.agents.get("claude-code")
        got = None if ctx is None else [e.path for e in ctx.startup]
        assert got == want, (shape, version)
        if ctx is not None:
            reals = [os.path.realpath(root / p) for p in got]
            assert len(reals) == len(set(reals)), "a file is read once"


def test_what_the_shapes_leave_out_today(tmp_path):
    files, links, _, _ = SHAPES["root-link-silences-nested"]
    root = repo(tmp_path, files)
    for link, target in links.items():
        os.symlink(target, root / link)
    ctx = build(root, tmp_path).agents["claude-code"]
    assert [u.path for u in ctx.never] == ["lone/AGENTS.md"]  # pkg/ has its CLAUDE.md link: read through it
    assert [o.path for o in ctx.on_demand] == ["pkg/CLAUDE.md"]
    files, links, _, _ = SHAPES["two-hop-link"]
    root = repo(tmp_path / "b", files)
    for link, target in links.items():
        os.symlink(target, root / link)
    ctx = build(root, tmp_path).agents["claude-code"]
    assert {u.path: u.rule.split("/")[1] for u in ctx.never} == {
        "web/.agents/skills/x/AGENTS.md": "agents-md.not-read@2.1.277"}
