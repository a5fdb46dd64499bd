"""The retrieval table over the golden files: hit@1 / hit@5 / MRR@10 per file, class and source.

    python -m curator.bench.golden.table CORPORA_DIR [--semantic] [--fit]

CORPORA_DIR holds the stores the golden files name (`store:`). `--fit` searches fusion weights
on the fit queries only and prints how the best weights do on the held-out ones.
"""

from __future__ import annotations

import argparse
import itertools
from pathlib import Path

import yaml

HERE = Path(__file__).parent


def golden_files() -> list[Path]:
    return sorted(HERE.glob("*.yaml"))


def load(corpora: Path, path: Path, semantic: bool):
    from ...model import load_store
    from ...retrieval import RetrievalEngine, load_golden
    from ...tokens import EstimateCounter

    meta = yaml.safe_load(path.read_text(encoding="utf-8"))
    store = load_store(corpora / meta["store"], token_counter=EstimateCounter())
    return RetrievalEngine(store, semantic=semantic), load_golden(path)


def print_report(name: str, report) -> None:
    cols = [*report.sources, *(["fused-lexical"] if "fused-lexical" in report.scores else []), "fused"]
    print(f"\n{name}  ({report.queries} queries)")
    print(f"{'class':<11}{'n':>3}  " + "  ".join(f"{c:>17}" for c in cols) + "   gap(fused−best)")
    for cls, table in [("all", report.scores), *report.by_class.items()]:
        cells = "  ".join(f"{table[c].hit1:.2f}/{table[c].hit5:.2f}/{table[c].mrr10:.2f}".rjust(17) for c in cols)
        g = report.gap(None if cls == "all" else cls)
        print(f"{cls:<11}{table['fused'].n:>3}  {cells}   {g.hit1:+.2f}/{g.hit5:+.2f}/{g.mrr10:+.2f}")


def fit(engines) -> None:
    """Grid-search weighted RRF on fit queries; report the held-out numbers of the best."""
    from ...retrieval.eval import _score
    from ...retrieval.fusion import rrf

    cached = []  # (engine, golden query, per-source lists)
    for eng, golden in engines:
        for g in golden:
            res = eng.search(g.query, k=10)
            cached.append((eng, g, {s: [p for p, _ in res.per_source[s]] for s in eng.sources}))
    sources = sorted({s for _, _, lists in cached for s in lists})
    grids = {"route": [0.0, 0.05, 0.1, 0.25], "prior": [0.0, 0.05, 0.1, 0.25],
             "semantic": [0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0]}
    others = [s for s in sources if s != "bm25"]
    results = []
    for combo in itertools.product(*(grids.get(s, [0.0, 0.5, 1.0]) for s in others)):
        w = dict(zip(others, combo, strict=True))
        w["bm25"] = 1.0
        agg = {"fit": [0.0, 0.0, 0.0, 0], "held": [0.0, 0.0, 0.0, 0]}
        for eng, g, lists in cached:
            fused = [p for p, _ in rrf({s: lists[s] for s in lists if w[s] > 0}, eng.config.rrf_k, w)]
            h1, h5, rr = _score(fused, g.expect)
            a = agg[g.split]
            a[0] += h1
            a[1] += h5
            a[2] += rr
            a[3] += 1
        f, h = agg["fit"], agg["held"]
        results.append(((f[2] / f[3] + f[1] / f[3] + f[0] / f[3]), w, [x / f[3] for x in f[:3]], [x / h[3] for x in h[:3]]))
    results.sort(key=lambda r: -r[0])
    for _total, w, f, h in results[:8]:
        print(f"{w}  fit {f[0]:.2f}/{f[1]:.2f}/{f[2]:.2f}  held {h[0]:.2f}/{h[1]:.2f}/{h[2]:.2f}")


def main(argv: list[str] | None = None) -> int:
    from ...retrieval import run_eval

    p = argparse.ArgumentParser(prog="python -m curator.bench.golden.table", description=__doc__.splitlines()[0])
    p.add_argument("corpora", type=Path)
    p.add_argument("--semantic", action="store_true")
    p.add_argument("--fit", action="store_true")
    p.add_argument("--failures", action="store_true")
    a = p.parse_args(argv)
    engines = [load(a.corpora, f, a.semantic) for f in golden_files()]
    if a.fit:
        fit(engines)
        return 0
    for f, (eng, golden) in zip(golden_files(), engines, strict=True):
        report = run_eval(eng, golden)
        print_report(f.stem, report)
        if a.failures:
            for fl in report.failures:
                print(f"   ✖ {fl.query!r} → {fl.got[:3]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
