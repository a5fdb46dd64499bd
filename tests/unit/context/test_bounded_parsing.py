"""Issue 29: untrusted text is parsed within bounds. A 900-byte YAML alias bomb (nine levels of
`&a [*a ×9]`) in the frontmatter of a rule, a Cursor rule, a Copilot instruction file or a
skill's `name:` made `context`, `check` and `tokens` run until killed (past 4 GB); a glob of 20
`*` backtracked for ever. Every reader now refuses aliases that expand past a budget (context,
store frontmatter, config, golden sets) and matches globs without backtracking."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest


def bomb(key: str, levels: int = 9) -> str:
    lines = ["a0: &a0 [" + ",".join(['"lol"'] * 9) + "]"]
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]")
    lines.append(f"{key}: *a{levels - 1}")
    return "---\n" + "\n".join(lines) + "\n---\n# body\n"


PLACES = {
    ".claude/rules/bomb.md": "paths",
    ".cursor/rules/bomb.mdc": "globs",
    ".github/instructions/bomb.instructions.md": "applyTo",
    ".claude/skills/bomb/SKILL.md": "name",
}


def limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))  # a hang must not take the machine


def curator(*argv: str, timeout: float = 60) -> subprocess.CompletedProcess:
    env = {**os.environ, "CURATOR_NO_REPLAY": "1", "CURATOR_TOKENS": "estimate"}
    return subprocess.run([sys.executable, "-m", "curator", *argv], capture_output=True, text=True, env=env,
                          timeout=timeout, preexec_fn=limited, check=False)


@pytest.fixture
def repo(tmp_path) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "CLAUDE.md").write_text("# Project\n")
    (root / "src").mkdir()
    (root / "src" / ("a" * 120 + "b.ts")).write_text("x\n")  # a long name for a glob to backtrack on
    return root


@pytest.mark.parametrize("place", sorted(PLACES))
@pytest.mark.parametrize("command", ["context", "check", "tokens"])
def test_an_alias_bomb_in_any_instruction_file_is_refused_quickly(repo, place, command):
    path = repo / place
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(bomb(PLACES[place]))
    assert len(path.read_bytes()) < 1000
    done = curator(command, str(repo))
    assert done.returncode in (0, 1), done.stderr[-2000:]
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("stars", [12, 20, 60])
def test_a_glob_of_many_stars_never_backtracks(repo, stars):
    rule = repo / ".claude" / "rules" / "stars.md"
    rule.parent.mkdir(parents=True)
    rule.write_text(f'---\npaths: ["{"*" * stars}a"]\n---\n# r\n')
    done = curator("check", str(repo), "--format", "json", timeout=60)
    assert done.returncode in (0, 1), done.stderr[-2000:]
    assert "instructions.dead-glob" in done.stdout  # judged, and quickly


def test_an_alias_bomb_in_the_config_is_a_config_error(tmp_path):
    store = tmp_path / "memories"
    store.mkdir()
    (store / "a.md").write_text("# A\n")
    (store / ".curator.yaml").write_text(bomb("orphan_allow").replace("---\n", "", 1).split("---")[0])
    done = curator("check", str(store))
    assert done.returncode == 2 and "aliases expand" in done.stderr and "Traceback" not in done.stderr


def test_an_alias_bomb_in_a_memory_or_a_golden_file_is_one_finding_or_error(tmp_path):
    store = tmp_path / "memories"
    store.mkdir()
    (store / "a.md").write_text(bomb("tags"))
    done = curator("check", str(store), "--format", "json")
    assert done.returncode in (0, 1) and "aliases expand" in done.stdout
    golden = tmp_path / "golden.yaml"
    golden.write_text(bomb("queries").replace("---\n", "", 1).split("---")[0])
    done = curator("eval", str(store), "--golden", str(golden))
    assert done.returncode == 2 and "aliases expand" in done.stderr and "Traceback" not in done.stderr
