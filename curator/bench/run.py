"""Shared helpers for the benchmark commands: synthetic stores on disk and timed subprocesses."""

from __future__ import annotations

import atexit
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from .synth import generate


def bench_root() -> Path:
    root = Path(os.environ.get("CURATOR_BENCH_DIR", Path(tempfile.gettempdir()) / "curator-bench"))
    root.mkdir(parents=True, exist_ok=True)
    return root


def synthetic_store(n_files: int, seed: int = 0) -> Path:
    """The generated store for (n, seed), built once and reused (generation is deterministic)."""
    path = bench_root() / f"store-{n_files}-{seed}"
    marker = path / ".generated"
    if not marker.exists():
        generate(path, n_files, seed)
        marker.write_text("ok\n")
    return path


@dataclass
class Run:
    wall: float
    peak_rss_mb: float
    exit_code: int


def timed(argv: list[str], env: dict[str, str] | None = None) -> Run:
    """Whole-process wall time and peak resident memory of one command."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return Run(wall, usage.ru_maxrss / 1024, proc.returncode)


def curator_argv(*args: str) -> list[str]:
    return [sys.executable, "-m", "curator", *args]


def scratch(prefix: str) -> str:
    """A new temporary folder, removed when this process exits: a bench makes one per timed run,
    and a kept one each time filled /tmp (760 cache folders, 8 GB, after a day of benches)."""
    path = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


def fresh_cache_env() -> dict[str, str]:
    env = dict(os.environ)
    env["CURATOR_CACHE_DIR"] = scratch("curator-bench-cache-")
    # an installed package has its bytecode compiled (pip does it); a sandbox that sets
    # PYTHONDONTWRITEBYTECODE would otherwise recompile every module on every run
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def median(runs: list[Run]) -> Run:
    walls = sorted(runs, key=lambda r: r.wall)
    mid = walls[len(walls) // 2]
    return Run(statistics.median(r.wall for r in runs), statistics.median(r.peak_rss_mb for r in runs), mid.exit_code)
