"""Print a seeded random sample of a store's retrievable memories, to write golden queries from.

    python -m curator.bench.golden.sample STORE [--seed 12] [--n 45] [--chars 700]

The golden files in this folder were written by reading this output (the seed is in each file),
so the sample is reproducible and the queries are not picked to suit the ranking.
"""

from __future__ import annotations

import argparse
import random


def sample_paths(store, seed: int, n: int) -> list[str]:
    from ...base.tokens import estimating
    from ...retrieval import RetrievalEngine

    paths = sorted(r.path for r in RetrievalEngine(store, persist=not estimating()).docs)
    return random.Random(seed).sample(paths, min(n, len(paths)))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m curator.bench.golden.sample", description=__doc__.splitlines()[0])
    p.add_argument("store")
    p.add_argument("--seed", type=int, default=12)
    p.add_argument("--n", type=int, default=45)
    p.add_argument("--chars", type=int, default=700)
    a = p.parse_args(argv)

    from ...base.tokens import EstimateCounter
    from ...model import load_store

    store = load_store(a.store, token_counter=EstimateCounter())
    for path in sample_paths(store, a.seed, a.n):
        rec = store.records[path]
        body = " ".join(rec.body().split())
        print(f"### {path}\n{rec.title or ''}\n{body[: a.chars]}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
