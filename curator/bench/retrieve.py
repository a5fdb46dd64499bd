"""Benchmark retrieval: engine build and per-query time in-process, whole-process `retrieve`.

    python -m curator.bench.retrieve [--files 10000] [--queries 200] [--whole 1000,10000] [--no-targets]

Targets (design.md, issue 11/12): one fused lexical query ≤ 1 ms in-process (median) at 10,000
records once the engine is built; whole-process `curator retrieve` warm ≤ 0.3 s at 10,000 (an
unchanged store is answered from the saved index without loading it: `retrieval.fast`). Beside
each warm run, the full path (`CURATOR_NO_FAST=1`: the store loaded) and a child that only
imports what `open_store` needs and loads the store (with the same caches) run in turn; the
difference of those two is what retrieval itself costs on the full path. The whole-process runs
here are lexical (CURATOR_NO_SEMANTIC=1); then the semantic source's targets are measured and
printed met or not (`bench/semantic.py`).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from .run import curator_argv, fresh_cache_env, median, synthetic_store, timed

LOAD_ONLY = (
    "import gc, sys; gc.disable(); from curator.cli.common import open_store; "
    "from curator.model import load_store; from curator.base.tokens import default_counter; "
    "load_store(sys.argv[1], token_counter=default_counter())"
)


def whole_process(size: int, runs: int = 7) -> str:
    """Warm `curator retrieve` at `size` files — answered from the saved index without loading the
    store (`retrieval.fast`) — beside the full path (`CURATOR_NO_FAST=1`) and a load-only child,
    run in turn."""
    store = synthetic_store(size)
    env = {**fresh_cache_env(), "CURATOR_NO_SEMANTIC": "1"}
    full_env = {**env, "CURATOR_NO_FAST": "1"}
    argv = curator_argv("retrieve", "cache retry lock", str(store), "--format", "json")
    load_argv = [sys.executable, "-c", LOAD_ONLY, str(store)]
    timed(argv, env)  # cold: fills the token, store and retrieval caches
    timed(argv, env)  # warm, full path: keeps what the fast path needs
    whole, full, load = [], [], []
    for _ in range(runs):
        whole.append(timed(argv, env))
        full.append(timed(argv, full_env))
        load.append(timed(load_argv, env))
    w, f, ld = median(whole), median(full), median(load)
    own = statistics.median(a.wall - b.wall for a, b in zip(full, load, strict=True))
    return (f"whole-process `curator retrieve` warm at {size:,} files: {w.wall:.2f} s (peak {w.peak_rss_mb:.0f} MB) "
            f"· target ≤ 0.3 s {'✓' if w.wall <= 0.3 else '✗'} · full path (store loaded) {f.wall:.2f} s "
            f"(peak {f.peak_rss_mb:.0f} MB) · store load alone {ld.wall:.2f} s · full path without the load {own:.2f} s")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m curator.bench.retrieve", description=__doc__.splitlines()[0])
    p.add_argument("--files", type=int, default=10000)
    p.add_argument("--queries", type=int, default=200)
    p.add_argument("--whole", default="1000,10000", metavar="SIZES", help="store sizes for whole-process runs")
    p.add_argument("--no-targets", dest="targets", action="store_false",
                   help="skip the semantic source's targets (curator/bench/semantic.py)")
    p.add_argument("--runs", type=int, default=7, help="timed whole-process runs per size (default 7)")
    a = p.parse_args(argv)

    # whole-process first: a child forked from a process that holds a 10k store reports that
    # memory as its own peak (Linux ru_maxrss), so measure it before loading anything
    wholes = [whole_process(int(x), a.runs) for x in a.whole.split(",") if x.strip()]
    targets = []
    if a.targets:  # also before this process loads a store (its children would inherit the peak)
        from .semantic import report

        targets = report(a.files, runs=a.runs)

    from ..base.tokens import default_counter, estimating
    from ..model import load_store
    from ..retrieval import RetrievalEngine, persist

    store_path = synthetic_store(a.files)
    t0 = time.perf_counter()
    store = load_store(store_path, token_counter=default_counter())
    t1 = time.perf_counter()
    persist.forget(store.root)
    keep = not estimating()
    engine = RetrievalEngine(store, persist=keep)  # cold: builds and saves the index
    t2 = time.perf_counter()
    engine = RetrievalEngine(store, persist=keep)  # warm: maps the saved index
    t3 = time.perf_counter()
    state, backend = engine.index_state, engine.bm25.backend
    engine.prepare()  # a long-lived engine: route tables, numpy over the mapped arrays
    t4 = time.perf_counter()
    rng = random.Random(1)
    vocab = sorted({k for _, rows in store.all_indexes() for r in rows for k in r.keyword_set})
    queries = [" ".join(rng.sample(vocab, rng.randint(2, 5))) for _ in range(a.queries)]
    engine.search(queries[0])  # first-query costs (lazy imports) are not per-query costs
    times, cpu = [], []
    for q in queries:
        s, c = time.perf_counter(), time.process_time()
        engine.search(q, source="fused-lexical")
        times.append((time.perf_counter() - s) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))]
    print(f"store: {a.files:,} files ({len(engine.docs):,} loadable memories)")
    print(f"load {t1 - t0:.2f} s · engine build cold {t2 - t1:.2f} s, warm {t3 - t2:.2f} s ({state}, {backend}),"
          f" prepare {t4 - t3:.2f} s ({engine.bm25.backend})")
    med = statistics.median(times)
    print(f"query (fused lexical: route, bm25, prior; in-process): median {med:.3f} ms wall, "
          f"{statistics.median(cpu):.3f} ms CPU · p95 {p95:.3f} ms · target ≤ 1 ms {'✓' if med <= 1 else '✗'}")
    for line in wholes:
        print(line)
    if targets:
        print("semantic source (issue 24 targets):")
        for line in targets:
            print("  " + line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
