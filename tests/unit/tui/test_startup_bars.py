"""The Context screen's start-up chart labels each file by the end of its path, and files whose
ends look alike (VS Code's listed `.instructions.md`) by what tells them apart."""

from __future__ import annotations

from rich.console import Console

from curator.context.model import AgentContext, Loaded
from curator.tui.screens.context import startup_bars


def _labels(paths: list[str]) -> list[str]:
    ctx = AgentContext("copilot")
    ctx.startup = [Loaded(p, 100, 10, "x") for p in paths]
    console = Console(width=60, record=True, color_system=None)
    console.print(startup_bars(ctx, 60))
    return [line.split(" ")[0] for line in console.export_text().splitlines() if line.strip()]


def test_paths_whose_ends_look_alike_are_told_apart_and_the_others_keep_their_end():
    alike = [f".github/instructions/{n}.instructions.md" for n in ("client-readme", "hosting-readme", "xmldoc")]
    labels = _labels(alike)
    assert len(set(labels)) == 3 and all(len(x) <= 20 for x in labels)
    assert _labels([".claude/skills/changelog/SKILL.md", "CLAUDE.md"]) == ["…/changelog/SKILL.md", "CLAUDE.md"]
