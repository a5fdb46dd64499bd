"""Claude Code's rows that moved with its releases, as its changelog says: the CLAUDE.md warning
scales with the window since 2.1.169; the listing cuts each description at 250 characters from
2.1.86 and at 1,536 from 2.1.105."""

from __future__ import annotations

from .test_context_model import build, repo


def _notes(model) -> str:
    return " | ".join(model.agents["claude-code"].notes)


def test_the_long_claude_md_warning_names_the_window_since_it_scales_with_it(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "x" * 41_000 + "\n"})
    now = build(root, tmp_path, versions={"claude-code": "2.1.300"})
    assert "CLAUDE.md is over 40,000 characters: Claude Code warns at start-up on a 200,000-token window" in _notes(now)
    before = build(root, tmp_path, versions={"claude-code": "2.1.100"})
    assert "CLAUDE.md is over 40,000 characters: Claude Code warns at start-up |" in _notes(before) + " |"


def test_the_listing_cuts_descriptions_as_the_version_chosen_did(tmp_path):
    desc = "d" * 400
    root = repo(tmp_path, {".claude/skills/lint/SKILL.md": f"---\nname: lint\ndescription: {desc}\n---\nrun it\n"})

    def listed(version: str) -> str:
        ctx = build(root, tmp_path, versions={"claude-code": version}).agents["claude-code"]
        return next(e.text for e in ctx.startup if e.path.endswith("SKILL.md"))

    assert listed("2.1.50") == f"- lint: {desc}"  # no cut before 2.1.86
    assert listed("2.1.100") == f"- lint: {'d' * 250}"
    assert listed("2.1.300") == f"- lint: {desc}"  # 1,536 since 2.1.105
