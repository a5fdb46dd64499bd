"""Child processes of curator's own (`python -m curator.…`): the app keeps work that would leave
it large — the model's reading, a large store's first index — out of its own memory, which the
child gives back whole when it exits."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def child_env() -> dict[str, str]:
    """The environment of a curator child process: it imports this same curator, wherever this
    process found it (a site-packages folder is on its path already, and put first it could
    shadow the standard library)."""
    here = Path(__file__).resolve().parents[2]
    env = dict(os.environ)
    if here.name not in ("site-packages", "dist-packages"):
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(here), os.environ.get("PYTHONPATH")) if p)
    return env


def start(module: str, *args: str) -> subprocess.Popen:
    """`python -m module args…` with pipes on its stdin and stdout (OSError when it cannot start)."""
    return subprocess.Popen([sys.executable, "-m", module, *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=child_env())
