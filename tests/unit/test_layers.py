"""The layer contracts (`.importlinter`) hold, and they fail when an import breaks them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / ".importlinter"
PACKAGE = REPO / "curator"


def lint(config: Path, pythonpath: Path | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    code = "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(" \
        f"config_filename={str(config)!r}, no_cache=True))"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          cwd=cwd or REPO, check=False, timeout=120)


def test_the_contracts_are_kept():
    out = lint(CONFIG)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "3 kept, 0 broken" in out.stdout


def test_every_package_and_top_level_module_is_in_a_layer():
    """A new package or loose module must be placed in the layers, or nothing judges its imports."""
    text = CONFIG.read_text(encoding="utf-8")
    layers = text.split("layers =", 1)[1].split("[importlinter:", 1)[0]
    listed = {name.strip() for line in layers.splitlines() for name in line.split("|") if name.strip()}
    ours = {f"curator.{p.name}" for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    ours |= {f"curator.{p.stem}" for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    assert ours <= listed, sorted(ours - listed)


@pytest.mark.parametrize(
    ("module", "bad_import", "contract"),
    [
        ("model/_upwards.py", "from curator.checks import run_checks\n", "faces -> live -> services -> model"),
        ("checks/_upwards.py", "import curator.tui.app\n", "faces -> live -> services -> model"),
        ("budgets_ui.py", "import rich.text\n", "nothing below the faces imports textual or rich"),
        ("model/_ui.py", "from textual.widget import Widget\n", "nothing below the faces imports textual or rich"),
    ],
)
def test_a_bad_import_breaks_a_contract(tmp_path, module, bad_import, contract):
    copy = tmp_path / "src"
    shutil.copytree(PACKAGE, copy / "curator", ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "curator" / module).write_text(bad_import, encoding="utf-8")
    config = tmp_path / ".importlinter"
    text = CONFIG.read_text(encoding="utf-8")
    if module == "budgets_ui.py":  # a new module below the faces must be listed to be judged
        text = text.replace("    curator.budgets\n", "    curator.budgets\n    curator.budgets_ui\n", 1)
    config.write_text(text, encoding="utf-8")
    out = lint(config, pythonpath=copy, cwd=tmp_path)
    assert out.returncode != 0, out.stdout
    assert f"{contract}" in out.stdout and "BROKEN" in out.stdout
    assert module.replace("/", ".").removesuffix(".py") in out.stdout
