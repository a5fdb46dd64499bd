"""Benchmark the write path in-process: planning every fix, applying it, undoing it, and the
live keyword meter and suggestions the promote wizard calls on each keystroke.

    python -m curator.bench.curate [--sizes 1000 10000] [--repeat 5]

Works on a private copy of the synthetic store (the generated one is never written).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from .run import synthetic_store


def _ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    from ..base.tokens import default_counter
    from ..checks import run_checks
    from ..curation import apply_plan, meter, plan_fixes, suggest, undo
    from ..model import load_store

    p = argparse.ArgumentParser(prog="python -m curator.bench.curate", description=__doc__.splitlines()[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    p.add_argument("--repeat", type=int, default=5)
    a = p.parse_args(argv)
    print(f"{'files':>7} {'edits':>6} {'plan ms':>8} {'apply ms':>9} {'undo ms':>8} {'meter ms':>9} {'suggest ms':>11}")
    for n in a.sizes:
        work = Path(tempfile.mkdtemp(prefix="curator-bench-curate-")) / "store"
        shutil.copytree(synthetic_store(n), work)
        try:
            store = load_store(work, token_counter=default_counter())
            findings = run_checks(store)
            t0 = time.perf_counter()
            plan = plan_fixes(store, findings, counter=store.counter)
            plan_ms = (time.perf_counter() - t0) * 1000
            t0 = time.perf_counter()
            apply_plan(work, plan)
            apply_ms = (time.perf_counter() - t0) * 1000
            t0 = time.perf_counter()
            undo(work)
            undo_ms = (time.perf_counter() - t0) * 1000
            index = next(iter(store.domain_indexes))
            row = store.domain_indexes[index].rows[0]
            kws = [*row.keywords, "extra"]
            meter_ms = _ms(lambda s=store, i=index, k=kws, ln=row.line: meter(s, i, k, ln), a.repeat)
            text = store.memories()[0].text
            suggest(store, text, index)  # the document frequencies are derived once per store
            suggest_ms = _ms(lambda s=store, t=text, i=index: suggest(s, t, i), a.repeat)
            print(f"{n:>7} {len(plan.edits):>6} {plan_ms:>8.1f} {apply_ms:>9.1f} {undo_ms:>8.1f} "
                  f"{meter_ms:>9.2f} {suggest_ms:>11.2f}")
        finally:
            shutil.rmtree(work.parent, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
