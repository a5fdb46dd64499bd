"""Each source's reliability on a store, without labels: its memories' own words as queries.

    python -m curator.bench.golden.reliability CORPORA_DIR [MORE_DIRS …] [--n 30] [--loso CACHE]

For up to `--n` memories of each golden file's store (a fixed sample: by SHA-256 of the path),
the memory's first body sentence (`pseudo_query`) is a query; BM25 and the semantic source each
either put that memory first or not. `r` = (semantic's firsts − BM25's) ÷ queries: a store where
meaning is the more reliable source should show r > 0. Printed beside each store's real gap
(semantic − BM25 hit@1 on its golden queries) and their correlation.

`--loso CACHE` (the list cache `loso.py --cache` wrote) then scores the tilt this would allow —
the semantic weight × exp(β·r), β fitted in each fold with the store left out — against the
same folds without it. Issue 32: r barely follows the real gap (golden README), so the tilt is
not in the product.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import pickle
import statistics
from pathlib import Path

SKIP = ("#", "---", "```", "|", ">", "name:", "description:", "type:", "title:")


def pseudo_query(text: str, words: int = 14) -> str:
    """The first `words` words of a memory's first prose lines (headings, front matter keys,
    fences and tables skipped): what a user might type who remembers what the memory says."""
    lines, fenced = [], False
    for ln in map(str.strip, text.splitlines()):
        fenced ^= ln.startswith("```")
        if ln and not fenced and not ln.startswith(SKIP):
            lines.append(ln)
    return " ".join(" ".join(lines[:2]).split()[:words])


def tilted(weight: float, r: float, beta: float, bound: float = 4.0) -> float:
    """The semantic weight leaning to the store's more reliable source: × exp(β·r), the factor
    kept within [1/bound, bound] so no store's estimate can switch a source off or make it all."""
    return weight * min(bound, max(1.0 / bound, math.exp(beta * r)))


def sample(paths: list[str], n: int) -> list[str]:
    """`n` paths in a fixed order that does not follow their names (by SHA-256)."""
    return sorted(paths, key=lambda p: hashlib.sha256(p.encode()).hexdigest())[:n]


def firsts(eng, n: int) -> tuple[int, int, int]:
    """(queries, BM25's firsts, semantic's firsts) over the store's pseudo-queries."""
    from ...retrieval.text import query_terms

    by_path = {r.path: r for r in eng.docs}
    asked = bm25 = sem = 0
    for path in sample(list(by_path), n):
        try:
            q = pseudo_query((Path(eng.store.root) / path).read_text(encoding="utf-8", errors="replace"))
        except OSError:
            continue
        if not q:
            continue
        qt = query_terms(q)
        b = eng.rank_bm25(qt)
        s = eng.rank_semantic(q, qt, b)
        asked += 1
        bm25 += bool(b) and b[0][0] == path
        sem += bool(s) and s[0][0] == path
    return asked, bm25, sem


def real_gaps(rows) -> dict[str, float]:
    """Semantic − BM25 hit@1 over each store's golden queries (the loso rows)."""
    from ...retrieval.eval import _score

    out: dict[str, list[float]] = {}
    for name, g, lists in rows:
        h = [_score([p for p, _ in lists.get(s, [])], g.expect)[0] for s in ("semantic", "bm25")]
        out.setdefault(name, []).append(h[0] - h[1])
    return {k: sum(v) / len(v) for k, v in out.items()}


def tilt_loso(rows, r: dict[str, float], betas: list[float]):
    """loso.run with β in the grid: each store's semantic weight tilted by its r."""
    from . import loso

    def tilt(name: str, w: dict) -> dict:
        return {**w, "semantic": tilted(w["semantic"], r.get(name, 0.0), w.get("beta", 0.0))}

    return loso.run(rows=rows, grid={**loso.GRID, "beta": betas}, tilt=tilt, extra=("beta",))


def main(argv: list[str] | None = None) -> int:
    from .loso import print_overall, print_table
    from .table import load_all

    p = argparse.ArgumentParser(prog="python -m curator.bench.golden.reliability", description=__doc__.splitlines()[0])
    p.add_argument("corpora", type=Path, nargs="+")
    p.add_argument("--golden", type=Path, nargs="+", metavar="FILE")
    p.add_argument("--n", type=int, default=30, help="memories asked per store")
    p.add_argument("--loso", type=Path, metavar="CACHE", help="score the tilt on loso.py's list cache")
    p.add_argument("--beta", type=float, nargs="+", default=[0.0, 1.0, 2.0, 4.0, 8.0])
    a = p.parse_args(argv)
    rows = pickle.loads(a.loso.read_bytes())["rows"] if a.loso else None  # noqa: S301 - loso.py's own file
    gaps = real_gaps(rows) if rows else {}
    r: dict[str, float] = {}
    print("| store | memories | asked | BM25 firsts | semantic firsts | r | real gap (hit@1) |\n|---|---|---|---|---|---|---|")
    for name, (eng, _golden) in load_all(a.corpora, True, a.golden).items():
        asked, b, s = firsts(eng, a.n)
        r[name] = (s - b) / asked if asked else 0.0
        gap = f"{gaps[name]:+.2f}" if name in gaps else ""
        print(f"| {name} | {len(eng.docs)} | {asked} | {b} | {s} | {r[name]:+.2f} | {gap} |")
    both = [k for k in r if k in gaps]
    if len(both) > 2 and len({r[k] for k in both}) > 1 and len({gaps[k] for k in both}) > 1:
        print(f"\ncorrelation of r with the real gap over {len(both)} stores: "
              f"{statistics.correlation([r[k] for k in both], [gaps[k] for k in both]):+.3f}")
    if rows:
        out, chosen, *_ = tilt_loso(rows, r, a.beta)
        print()
        print_table(out, chosen, True)
        print_overall(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
