"""A curator child process imports this same curator (base/children.py), and never puts a
site-packages folder ahead of the standard library."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from curator.base import children


def test_a_child_finds_this_curator_wherever_it_was_found(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", "elsewhere")
    here = str(Path(children.__file__).resolve().parents[2])
    env = children.child_env()
    assert env["PYTHONPATH"].split(os.pathsep) == [here, "elsewhere"]
    out = subprocess.run([sys.executable, "-c", "import curator, pathlib; print(pathlib.Path(curator.__file__).resolve())"],
                         env=env, capture_output=True, text=True, cwd="/", check=True).stdout.strip()
    assert out == str(Path(children.__file__).resolve().parents[1] / "__init__.py")


def test_an_installed_curator_adds_nothing_to_the_path(monkeypatch, tmp_path):
    site = tmp_path / "lib" / "site-packages" / "curator" / "base"
    site.mkdir(parents=True)
    monkeypatch.setattr(children, "__file__", str(site / "children.py"))
    monkeypatch.delenv("PYTHONPATH", raising=False)
    assert "PYTHONPATH" not in children.child_env()
