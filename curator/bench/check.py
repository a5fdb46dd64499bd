"""Benchmark `curator check` as the issue's table: ratios against a bare read-and-sha256 of the
same files, measured side by side in one run (A B A B ..., the ratio taken pair by pair).

    python -m curator.bench.check [--sizes 1000 10000 50000] [--repeat 5] [--cold-repeat 3]

Rows, per store size:
  warm check ÷ read-and-hash   whole process, the store's cache and the token cache warm (an
                               unchanged store: the kept output replayed, see curator/replay.py)
  warm, no replay              the same with CURATOR_NO_REPLAY=1: load from the store's cache,
                               findings from the cached run, the report rendered
  cold check ÷ read-and-hash   whole process, an empty cache folder (every file read, parsed,
                               tokenized and checked)
  retrieve, warm               whole-process `curator retrieve` seconds
  first retrieve, cold         whole-process `curator retrieve` with an empty cache folder (the
                               index built, the meaning source's first reading of its candidates)
  re-check after one edit      in-process ms from an edited memory to current findings
  peak RSS                     MB, warm and cold check
Targets (design.md, 2 cores): warm ≤ 1.5× at 1k and 10k, ≤ 2× at 50k; cold ≤ 5× at 10k;
re-check ≤ 20 ms at 10k; retrieve ≤ 0.3 s at 10k; the first retrieve ≤ 5 s at 1k; ≤ 300 MB at 10k,
≤ 1 GB at 50k. Meaning costs no more than words: the cold check with meaning on ÷ the same with
CURATOR_NO_SEMANTIC=1, pair by pair (≤ 2× at 1k and 10k).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time

from .run import curator_argv, fresh_cache_env, synthetic_store, timed

WARM_TARGET = {1000: 1.5, 10000: 1.5, 50000: 2.0}
COLD_TARGET = {10000: 5.0}
MEANING_TARGET = {1000: 2.0, 10000: 2.0}  # issue 32: a cold check with meaning on ≤ 2× with it off
RSS_TARGET = {10000: 300, 50000: 1000}
RECHECK_TARGET_MS = {10000: 20}
RETRIEVE_TARGET_S = {10000: 0.3}
FIRST_RETRIEVE_TARGET_S = {1000: 5.0}


def _mark(ok: bool) -> str:
    return "✓" if ok else "✗"


def paired(a_argv, b_argv, repeat: int, env_a, env_b=None):
    """Run A and B in turn `repeat` times; (median A/B ratio, A runs, B runs)."""
    a_runs, b_runs, ratios = [], [], []
    for _ in range(repeat):
        a = timed(a_argv, env_a() if callable(env_a) else env_a)
        b = timed(b_argv, env_b() if callable(env_b) else env_b)
        a_runs.append(a)
        b_runs.append(b)
        ratios.append(a.wall / b.wall)
    return statistics.median(ratios), a_runs, b_runs


def measure(n: int, repeat: int, cold_repeat: int) -> dict:
    store = synthetic_store(n)
    yard = [sys.executable, "-m", "curator.bench.readhash", str(store)]
    check = curator_argv("check", str(store), "--format", "json")
    env = fresh_cache_env()
    timed(check, env)  # fills the caches
    timed(yard, env)  # the page cache holds the files for both
    warm_ratio, warm, base = paired(check, yard, repeat, env, env)
    full_env = dict(env, CURATOR_NO_REPLAY="1")  # the loader and the checks from the store's cache
    full_ratio, full, _ = paired(check, yard, repeat, full_env, env)
    cold_ratio, cold, _ = paired(check, yard, cold_repeat, fresh_cache_env, env)
    # meaning costs no more than words: the same cold check with the semantic source off
    meaning_ratio, _, _ = paired(check, check, cold_repeat, fresh_cache_env, lambda: dict(fresh_cache_env(), CURATOR_NO_SEMANTIC="1"))
    retrieve = curator_argv("retrieve", "cache retry lock", str(store), "--format", "json")
    first = [timed(retrieve, fresh_cache_env()) for _ in range(cold_repeat)]
    timed(retrieve, env)
    retrieve_s = statistics.median(timed(retrieve, env).wall for _ in range(max(3, repeat // 2)))
    return {
        "n": n,
        "yard": statistics.median(r.wall for r in base),
        "warm": statistics.median(r.wall for r in warm),
        "warm_ratio": warm_ratio,
        "full": statistics.median(r.wall for r in full),
        "full_ratio": full_ratio,
        "cold": statistics.median(r.wall for r in cold),
        "cold_ratio": cold_ratio,
        "meaning_ratio": meaning_ratio,
        "warm_mb": max(r.peak_rss_mb for r in warm + full),
        "cold_mb": max(r.peak_rss_mb for r in cold),
        "retrieve": retrieve_s,
        "first_retrieve": statistics.median(r.wall for r in first),
        "first_retrieve_mb": max(r.peak_rss_mb for r in first),
        "recheck": recheck_ms(store, env["CURATOR_CACHE_DIR"]),
    }


def recheck_ms(store_path, cache_dir: str) -> float:
    """In a child process (its memory is not ours): median ms of `Workspace.recheck` after one
    memory is edited, over 11 edits after a first one."""
    import json
    import os
    import subprocess

    env = dict(os.environ, CURATOR_CACHE_DIR=cache_dir)
    code = f"from curator.bench.check import _recheck_in_process as r; print(r({str(store_path)!r}))"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False)
    try:
        return float(json.loads(out.stdout.strip().splitlines()[-1]))
    except (ValueError, IndexError):
        print(out.stderr[-2000:], file=sys.stderr)
        return float("nan")


def _recheck_in_process(store_path: str) -> float:
    import shutil
    from pathlib import Path

    from ..base.tokens import default_counter
    from ..live import semantic_embedder
    from ..live.workspace import open_workspace
    from ..model.loader import LoadOptions

    work = Path(tempfile.mkdtemp(prefix="curator-bench-recheck-")) / "store"
    shutil.copytree(store_path, work)  # never edit the shared generated store
    try:
        ws = open_workspace(work, LoadOptions(token_counter=default_counter(), meaning=semantic_embedder))  # as `curator` has it
        times = []
        for path in [r.path for r in ws.store.memories()][:12]:
            f = ws.store.root / path
            original = f.read_text(encoding="utf-8")
            f.write_text(original + "\nOne more line about cache retry.\n", encoding="utf-8")
            start = time.perf_counter()
            ws = ws.recheck(path)
            times.append((time.perf_counter() - start) * 1000)
        return statistics.median(times[1:])
    finally:
        shutil.rmtree(work.parent, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m curator.bench.check", description=__doc__.splitlines()[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 50000])
    p.add_argument("--repeat", type=int, default=5, help="warm pairs per size (default 5)")
    p.add_argument("--cold-repeat", type=int, default=3, help="cold pairs per size (default 3)")
    a = p.parse_args(argv)
    rows = [measure(n, a.repeat, a.cold_repeat) for n in a.sizes]
    head = "| figure | " + " | ".join(f"{r['n']:,} files" for r in rows) + " |"
    print(head)
    print("|---|" + "---|" * len(rows))

    def line(label, shown, value=None, targets=None, unit=""):
        """One row: each size's figure, and ✓/✗ against the target where the design sets one."""
        cells = []
        for r in rows:
            cell = shown(r)
            if targets and r["n"] in targets:
                goal = targets[r["n"]]
                cell += f" {_mark(value(r) <= goal)} ≤ {goal}{unit}"
            cells.append(cell)
        print(f"| {label} | " + " | ".join(cells) + " |")

    line("read-and-hash (the yardstick)", lambda r: f"{r['yard']:.3f} s")
    line("warm `curator check` ÷ read-and-hash", lambda r: f"{r['warm_ratio']:.2f}× ({r['warm']:.3f} s)",
         lambda r: r["warm_ratio"], WARM_TARGET, "×")
    line("warm, no replay (CURATOR_NO_REPLAY=1)", lambda r: f"{r['full_ratio']:.2f}× ({r['full']:.3f} s)")
    line("cold `curator check` ÷ read-and-hash", lambda r: f"{r['cold_ratio']:.1f}× ({r['cold']:.2f} s)",
         lambda r: r["cold_ratio"], COLD_TARGET, "×")
    line("cold check, meaning on ÷ off (CURATOR_NO_SEMANTIC=1)", lambda r: f"{r['meaning_ratio']:.2f}×",
         lambda r: r["meaning_ratio"], MEANING_TARGET, "×")
    line("`curator retrieve` whole process, warm", lambda r: f"{r['retrieve']:.2f} s",
         lambda r: r["retrieve"], RETRIEVE_TARGET_S, " s")
    line("first `curator retrieve`, cold cache", lambda r: f"{r['first_retrieve']:.2f} s ({r['first_retrieve_mb']:.0f} MB)",
         lambda r: r["first_retrieve"], FIRST_RETRIEVE_TARGET_S, " s")
    line("re-check after one edited memory", lambda r: f"{r['recheck']:.1f} ms",
         lambda r: r["recheck"], RECHECK_TARGET_MS, " ms")
    line("peak RSS, check warm / cold", lambda r: f"{r['warm_mb']:.0f} / {r['cold_mb']:.0f} MB",
         lambda r: max(r["warm_mb"], r["cold_mb"]), RSS_TARGET, " MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
