"""Copilot's `applyTo` wildcards (VS Code's `_matches`): `**`, `**/*` and `*` attach the
instructions to every request, so they count toward the start-up budget; a narrower glob does not."""

from __future__ import annotations

import pytest

from .test_context_model import build, repo

_BIG = "- keep handlers small and pure, log every failure with its cause\n" * 300  # ~3,300 words


def _budget(tmp_path, apply_to: str):
    root = repo(tmp_path, {".curator.yaml": "budgets:\n  agent-startup: 2000\n",
                           ".github/copilot-instructions.md": "# Repo\n",
                           ".github/instructions/devops.instructions.md": f"---\napplyTo: '{apply_to}'\n---\n{_BIG}",
                           "Dockerfile": "FROM x\n", "src/app.ts": "x\n"})
    return [f.message for f in build(root, tmp_path).findings if f.check == "instructions.startup-budget"]


@pytest.mark.parametrize("apply_to", ["*", "**", "**/*"])
def test_a_wildcard_applyto_is_loaded_at_every_start(tmp_path, apply_to):
    (msg,) = _budget(tmp_path, apply_to)
    assert msg.startswith("GitHub Copilot loads") and ".github/instructions/" in msg


@pytest.mark.parametrize("apply_to", ["*.ts", "src/**", "**/Dockerfile"])
def test_a_narrower_applyto_is_not(tmp_path, apply_to):
    assert _budget(tmp_path, apply_to) == []


def test_the_wildcards_are_a_rule_with_its_source():
    from curator.agents import rules_for

    rules = rules_for("copilot")
    assert set(rules.value("path.every-file")) == {"**", "**/*", "*"}
    assert "computeAutomaticInstructions" in rules.held["path.every-file"].source.page
