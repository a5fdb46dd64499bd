"""Leave-one-store-out table: fused against every single source, per store and query class.

    python -m curator.bench.golden.loso CORPORA_DIR [MORE_DIRS …] [--markdown] [--cache FILE]
        [--fixed [--set KEY=VALUE …]] [--group NAME=STORE,… …]

For each store, the fusion weights (and the sure-first rule's margin, `fusion.sure_first`) are
the ones that score best (hit@1 + hit@5 + MRR@10) on the *other* stores' golden queries; the
store's own queries are then scored with them. The issue's bar: fused ≥ the best single source on
hit@1, hit@5 and MRR@10 in every store and class, held out this way.

The sources run once per query; the grid and the folds are then sums over those lists in memory
(seconds). `--cache FILE` keeps the lists between runs (keyed by the golden files and the
retrieval code), so trying a fusion rule costs the grid, not the 21 stores' searches.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import pickle
from pathlib import Path

from .table import UNREACHABLE, _lists, golden_files, load_all, print_unreachable

SINGLES = ("route", "bm25", "prior", "semantic", "graph")
CLASSES = ("all", "literal", "paraphrase")
# a wider grid (semantic 3–8 in 5 steps, sure 0.7–0.85 in 4) fitted the held-out stores worse
# (8 cells below instead of 5): with 9–45 queries a store, finer steps chase single queries.
# Route and prior are tie-breakers, not fitted: a fold choosing route 0.01 over 0.05 (or the cover
# rule, `fusion.covered_first`) is decided by one or two queries of the other stores and cost the
# held-out store its first place (baez, confident-claude; golden README, issue 32). `unsure`:
# meaning's lead does not overrule a BM25 first whose second scores under that share of it
GRID = {"route": [0.05], "prior": [0.0], "semantic": [3.0, 5.0, 8.0], "prf": [0.0, 0.5, 1.0],
        "sure": [0.0, 0.75, 0.8], "agree": [0.0, 1.0, 2.0], "lead": [0.0, 0.1, 0.15],
        "unsure": [0.0, 0.5, 0.7]}
# `--wide`: the grid of issue 24 to the first run of issue 32, the tie-breakers and the cover rule fitted too
WIDE = {**GRID, "route": [0.01, 0.05], "prior": [0.0, 0.01], "cover": [0.0, 1.0]}
RULES: tuple[str, ...] = ("sure", "agree", "cover", "lead", "unsure")  # not lists: the fusion's rules (fusion.fuse)


def fused(lists, w) -> list[str]:
    from ...retrieval.fusion import fuse

    # the lists the engine hands the fusion (RetrievalEngine.fusion_lists): the four sources, the
    # feedback and graph lists only when weighted
    return [p for p, _ in fuse(_use(lists, w), w, w.get("sure", 0.0), lists.get("cover"))]


def combos(sources, grid: dict | None = None, extra: tuple[str, ...] = ()) -> list[dict]:
    """Every weight combination of the grid's sources and rules (and `extra` keys a caller fits)."""
    grid = grid or GRID
    keys = [k for k in grid if k in sources or k in RULES or k in extra]
    return [{"bm25": 1.0, **dict(zip(keys, c, strict=True))} for c in itertools.product(*(grid[k] for k in keys))]


def _scores(rows, ws, tilt=None):
    """score[w][q] = (hit@1, hit@5, rr) of every weight combination on every query, once: the
    weighted sum once per set of list weights, the rules (`fusion.firsts`) on it for each.
    `tilt(store, w)`: the weights one store's lists are summed with (default: `w`)."""
    from ...retrieval.eval import _score
    from ...retrieval.fusion import blend, firsts

    summed: dict[tuple, list] = {}
    out = []
    for w in ws:
        key = tuple(sorted((k, v) for k, v in w.items() if k not in RULES or k == "agree"))
        if key not in summed:
            summed[key] = [[p for p, _ in blend(_use(lists, wr), wr)]
                           for name, _g, lists in rows for wr in [tilt(name, w) if tilt else w]]
        row = []
        for (_name, g, lists), order in zip(rows, summed[key], strict=True):
            if order and "semantic" in lists:
                order = firsts(order, lists, w, w.get("sure", 0.0), lists.get("cover"))
            row.append(_score(order, g.expect))
        out.append(row)
    return out


def _use(lists, w) -> dict:
    return {s: v for s, v in lists.items()
            if s != "cover" and (s in ("route", "bm25", "prior", "semantic") or w.get(s, 0) > 0)}


def _mean(triples) -> tuple[float, float, float, int]:
    n = len(triples)
    if not n:
        return (0.0, 0.0, 0.0, 0)
    return (sum(t[0] for t in triples) / n, sum(t[1] for t in triples) / n, sum(t[2] for t in triples) / n, n)


def lists_of(engines) -> list:
    """(file, golden query, {source: [(path, score)]}) of every query, the `cover` shares kept as a
    plain dict over the listed memories (all `fusion.covered_first` reads): rows that pickle."""
    rows = []
    for name, g, lists in _lists(engines):
        if "cover" in lists:
            held = {p for s, items in lists.items() if s != "cover" for p, _ in items}
            lists = {**lists, "cover": {p: lists["cover"].get(p) for p in held}}
        rows.append((name, g, lists))
    return rows


def cache_key(roots, given) -> str:
    """What the cached lists depend on: the golden files, the corpus roots, the retrieval code."""
    from ... import retrieval

    h = hashlib.sha256(repr(sorted(map(str, roots))).encode())
    for f in [*golden_files(given), *sorted(Path(retrieval.__file__).parent.glob("*.py"))]:
        h.update(f.name.encode() + f.read_bytes())
    return h.hexdigest()


def cached_rows(cache: Path | None, key: str, engines):
    """The lists from `cache` when it was made for `key`; else computed (`engines()`) and saved."""
    if cache is not None and cache.is_file():
        try:
            saved = pickle.loads(cache.read_bytes())  # noqa: S301 - a file this command wrote
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError):
            saved = None
        if isinstance(saved, dict) and saved.get("key") == key:
            UNREACHABLE.update(saved["unreachable"])
            return saved["rows"]
    rows = lists_of(engines())
    if cache is not None:
        tmp = cache.with_name(cache.name + ".tmp")
        tmp.write_bytes(pickle.dumps({"key": key, "rows": rows, "unreachable": dict(UNREACHABLE)}))
        tmp.replace(cache)
    return rows


def run(engines=None, rows=None, grid: dict | None = None, tilt=None, extra: tuple[str, ...] = ()):
    """Leave one store out over `rows`. `extra`: grid keys fitted besides sources and rules,
    read by `tilt(store, w)`, which gives the weights a store's lists are summed with."""
    from ...retrieval.eval import _score

    rows = lists_of(engines) if rows is None else rows
    sources = {s for _, _, lists in rows for s in lists}
    ws = combos(sources, grid, extra)
    table = _scores(rows, ws, tilt)
    stores = list(dict.fromkeys(r[0] for r in rows))
    cells = [(st, cls, [i for i, r in enumerate(rows) if r[0] == st and cls in ("all", r[1].kind)])
             for st in stores for cls in CLASSES]
    single_best = {(st, cls): [max(_mean([_score([p for p, _ in rows[i][2].get(s, [])], rows[i][1].expect)
                                          for i in idx])[m] for s in SINGLES if s in sources) for m in range(3)]
                   for st, cls, idx in cells}
    # each combination's cells below the best single source, per store (counted on training stores)
    losing = [{st: sum(any(_mean([table[j][i] for i in idx])[m] < single_best[(st, cls)][m] - 1e-9 for m in range(3))
                       for s2, cls, idx in cells if s2 == st) for st in stores} for j in range(len(ws))]
    out, chosen = {}, {}
    for store in stores:
        train = [i for i, r in enumerate(rows) if r[0] != store]
        # the done criterion first (fewest training cells below their best single source), then
        # hit@1 + hit@5 + MRR@10 over the training queries; the first of equals is the simplest
        best = max(range(len(ws)), key=lambda j: (-sum(n for st, n in losing[j].items() if st != store),
                                                  sum(sum(table[j][i]) for i in train)))
        chosen[store] = ws[best]
        mine = [i for i, r in enumerate(rows) if r[0] == store]
        for cls in CLASSES:
            idx = [i for i in mine if cls == "all" or rows[i][1].kind == cls]
            out[(store, cls)] = {"fused": _mean([table[best][i] for i in idx]), **_singles(rows, idx, sources)}
    everywhere = max(range(len(ws)), key=lambda j: (-sum(losing[j].values()), sum(sum(t) for t in table[j])))
    chosen["(every store, in-sample: the defaults)"] = ws[everywhere]
    return out, chosen, rows, table, ws


def _singles(rows, idx: list[int], sources) -> dict:
    """Each single source's (hit@1, hit@5, MRR, n) over these queries."""
    from ...retrieval.eval import _score

    return {s: _mean([_score([p for p, _ in rows[i][2].get(s, [])], rows[i][1].expect) for i in idx])
            for s in SINGLES if s in sources}


def fixed(rows, w: dict) -> dict:
    """Every store scored with one set of weights, nothing fitted (`--fixed`): what the product
    does with its defaults, in `run`'s shape ((store, class) → source → hit@1, hit@5, MRR, n)."""
    from ...retrieval.eval import _score

    sources = {s for _, _, lists in rows for s in lists}
    out = {}
    for store in dict.fromkeys(r[0] for r in rows):
        for cls in CLASSES:
            idx = [i for i, r in enumerate(rows) if r[0] == store and cls in ("all", r[1].kind)]
            fused_scores = _mean([_score(fused(rows[i][2], w), rows[i][1].expect) for i in idx])
            out[(store, cls)] = {"fused": fused_scores, **_singles(rows, idx, sources)}
    return out


def defaults(settings: list[str]) -> dict:
    """The product's fusion weights and sure margin (`RetrievalConfig`), `KEY=VALUE` overriding."""
    from ...base.config import RetrievalConfig

    cfg = RetrievalConfig()
    w = {**cfg.source_weights, "sure": cfg.sure_margin}
    for item in settings:
        key, _, value = item.partition("=")
        w[key.strip()] = float(value)
    return w


def print_groups(out, groups: list[str]) -> None:
    """`NAME=store,store,…`: each group's figures over its stores' queries, per class."""
    for spec in groups:
        name, _, members = spec.partition("=")
        wanted = {m.strip() for m in members.split(",") if m.strip()}
        for cls in CLASSES:
            cells = [c for (st, k), c in out.items() if k == cls and st in wanted and c["fused"][3]]
            n = sum(c["fused"][3] for c in cells)
            if not n:
                continue
            agg = {s: [sum(c[s][m] * c[s][3] for c in cells) / n for m in range(3)] for s in ("fused", "bm25", "semantic")
                   if all(s in c for c in cells)}
            print(f"group {name} {cls:<10} n={n:<4} " + "  ".join(f"{s} {v[0]:.3f}/{v[1]:.3f}/{v[2]:.3f}" for s, v in agg.items()))


def print_below(out) -> None:
    """The issue's bar: stores whose fused hit@1 or MRR is under their best single source."""
    below = []
    for (store, cls), cells in out.items():
        if cls != "all":
            continue
        best = [max(cells[s][m] for s in cells if s != "fused") for m in range(3)]
        gap = [cells["fused"][m] - best[m] for m in range(3)]
        if gap[0] < -1e-9 or gap[2] < -1e-9:
            below.append(f"{store} {gap[0]:+.2f}/{gap[2]:+.3f}")
    print("stores below their best single source on hit@1 or MRR: " + (", ".join(below) or "none"))


def print_table(out, chosen, markdown: bool, how: str = "LOSO") -> None:
    cols = [s for s in SINGLES if any(s in c for c in out.values())]
    below = 0
    if markdown:
        print("| store | class | n | " + " | ".join(cols) + f" | fused ({how}) | fused − best |")
        print("|---|---|---|" + "---|" * (len(cols) + 2))
    for (store, cls), cells in out.items():
        f = cells["fused"]
        best = [max(cells[s][m] for s in cols) for m in range(3)]
        gap = [f[m] - best[m] for m in range(3)]
        below += any(g < -1e-9 for g in gap)
        vals = " | ".join(f"{cells[s][0]:.2f}/{cells[s][1]:.2f}/{cells[s][2]:.2f}" for s in cols)
        mark = "" if all(g >= -1e-9 for g in gap) else " ✖"
        name = store if cls == "all" else ""
        if markdown:
            print(f"| {name} | {cls} | {f[3]} | {vals} | {f[0]:.2f}/{f[1]:.2f}/{f[2]:.2f} | "
                  f"{gap[0]:+.2f}/{gap[1]:+.2f}/{gap[2]:+.2f}{mark} |")
        else:
            print(f"{name:<18}{cls:<11}{f[3]:>3}  {vals.replace(' | ', '  ')}  fused {f[0]:.2f}/{f[1]:.2f}/{f[2]:.2f}"
                  f"  {gap[0]:+.2f}/{gap[1]:+.2f}/{gap[2]:+.2f}{mark}")
    print(f"\ncells where fused ({'held out' if how == 'LOSO' else how}) is below the best single source on some "
          f"metric: {below} of {len(out)}")
    for store, w in chosen.items():
        print(f"  {store}: {'fitted on the others' if how == 'LOSO' else 'weights'} {w}")


def print_overall(out) -> None:
    for cls in CLASSES:
        cells = [c for (_s, k), c in out.items() if k == cls]
        n = sum(c["fused"][3] for c in cells)
        agg = {s: [sum(c[s][m] * c[s][3] for c in cells) / max(1, n) for m in range(3)] for s in cells[0]}
        print(f"overall {cls:<10} n={n:<4} " + "  ".join(f"{s} {v[0]:.3f}/{v[1]:.3f}/{v[2]:.3f}" for s, v in agg.items()))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m curator.bench.golden.loso", description=__doc__.splitlines()[0])
    p.add_argument("corpora", type=Path, nargs="+", help="folders the golden files' stores are under")
    p.add_argument("--markdown", action="store_true")
    p.add_argument("--golden", type=Path, nargs="+", metavar="FILE", help="these golden files (default: all here)")
    p.add_argument("--cache", type=Path, metavar="FILE", help="keep each query's source lists here between runs")
    p.add_argument("--wide", action="store_true", help="fit the route, prior and cover weights in each fold too")
    p.add_argument("--fixed", action="store_true",
                   help="score every store with the product's defaults (or --set ones): nothing fitted, nothing left out")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="with --fixed: a weight or rule (lead=0.1, unsure=0, sure=0.8, semantic=5 …)")
    p.add_argument("--group", action="append", default=[], metavar="NAME=STORE,…",
                   help="also print these stores' figures together (e.g. the sets first run untouched)")
    a = p.parse_args(argv)
    rows = cached_rows(a.cache, cache_key(a.corpora, a.golden), lambda: load_all(a.corpora, True, a.golden))
    if a.fixed:
        w = defaults(a.set)
        out, chosen = fixed(rows, w), {"(every store, nothing fitted)": w}
    else:
        out, chosen, *_ = run(rows=rows, grid=WIDE if a.wide else None)
    print_table(out, chosen, a.markdown, "fixed" if a.fixed else "LOSO")
    print_overall(out)
    print_groups(out, a.group)
    print_below(out)
    print_unreachable()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
