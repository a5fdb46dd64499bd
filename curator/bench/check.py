"""Benchmark `curator check`: whole-process wall time cold and warm, and peak memory.

    python -m curator.bench.check [--sizes 1000 10000] [--repeat 5]

Cold = an empty token cache (the tokenizer loads and counts every file); warm = the second and
later runs (counts come from the content-hash cache). Targets (design.md, 2 cores): 1,000 files
warm ≤ 0.3 s and cold ≤ 1.0 s; 10,000 files warm ≤ 2 s; ≤ 300 MB resident at 10,000.
"""

from __future__ import annotations

import argparse
import time

from .run import curator_argv, fresh_cache_env, median, synthetic_store, timed

TARGETS = {1000: (1.0, 0.3), 10000: (None, 2.0)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m curator.bench.check", description=__doc__.splitlines()[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    p.add_argument("--repeat", type=int, default=5)
    a = p.parse_args(argv)
    print(f"{'files':>7} {'cold s':>8} {'warm s':>8} {'MB cold':>8} {'MB warm':>8}  targets")
    for n in a.sizes:
        t0 = time.perf_counter()
        store = synthetic_store(n)
        gen = time.perf_counter() - t0
        env = fresh_cache_env()
        argv_ = curator_argv("check", str(store), "--format", "json")
        cold = timed(argv_, env)
        warm = median([timed(argv_, env) for _ in range(a.repeat)])
        cold_t, warm_t = TARGETS.get(n, (None, None))
        goals = []
        if cold_t:
            goals.append(f"cold ≤ {cold_t} s {'✓' if cold.wall <= cold_t else '✗'}")
        if warm_t:
            goals.append(f"warm ≤ {warm_t} s {'✓' if warm.wall <= warm_t else '✗'}")
        if n >= 10000:
            goals.append(f"warm ≤ 300 MB {'✓' if warm.peak_rss_mb <= 300 else '✗'}")
        print(
            f"{n:>7} {cold.wall:>8.3f} {warm.wall:>8.3f} {cold.peak_rss_mb:>8.0f} {warm.peak_rss_mb:>8.0f}  "
            f"{', '.join(goals)}" + (f"  (store generated in {gen:.1f} s)" if gen > 0.5 else "")
        )
    _recheck(max(a.sizes))
    return 0


def _recheck(n: int) -> None:
    """In-process: after one memory is edited, how long until the findings are current again."""
    import statistics

    from ..tokens import default_counter
    from ..workspace import open_workspace

    ws = open_workspace(synthetic_store(n), token_counter=default_counter())
    times = []
    for path in [r.path for r in ws.store.memories()][:12]:
        f = ws.store.root / path
        original = f.read_text(encoding="utf-8")
        try:
            f.write_text(original + "\nOne more line about cache retry.\n", encoding="utf-8")
            start = time.perf_counter()
            ws.recheck(path)
            times.append((time.perf_counter() - start) * 1000)
        finally:
            f.write_text(original, encoding="utf-8")
            ws.recheck(path)
    steady = statistics.median(times[1:])
    print(f"re-check after editing one memory at {n:,} files: first {times[0]:.0f} ms (builds the "
          f"fingerprint index, may load the tokenizer), then median {steady:.0f} ms · target ≤ 50 ms "
          f"{'✓' if steady <= 50 else '✗'}")


if __name__ == "__main__":
    raise SystemExit(main())
