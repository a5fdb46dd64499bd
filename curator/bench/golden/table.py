"""The retrieval table over the golden files: hit@1 / hit@5 / MRR@10 per file, class and source.

    python -m curator.bench.golden.table CORPORA_DIR [MORE_DIRS …] [--semantic] [--fit [--method score|rrf]]

The corpus folders hold the stores the golden files name (`store:`); a golden file whose store is
under none of them is skipped, and said so. `--fit` is the earlier weight
search (plain weights, RRF, gates, the feedback's shape) the golden README's history reports; the
shipped defaults (with the agreement list and the sure-first margin) are fitted by `loso.py`.
"""

from __future__ import annotations

import argparse
import itertools
from pathlib import Path

import yaml

HERE = Path(__file__).parent


def golden_files(given: list[Path] | None = None) -> list[Path]:
    """The golden files given (`--golden`), else every one in this folder."""
    return list(given) if given else sorted(HERE.glob("*.yaml"))


def load(corpora: Path | list[Path], path: Path, semantic: bool):
    """(engine, golden queries) of one golden file, its store found under the first of the
    corpus roots that holds it (None when none does)."""
    from ...base.tokens import EstimateCounter, estimating
    from ...model import load_store
    from ...retrieval import RetrievalEngine, load_golden

    meta = yaml.safe_load(path.read_text(encoding="utf-8"))
    roots = [corpora] if isinstance(corpora, Path) else corpora
    found = next((r / meta["store"] for r in roots if (r / meta["store"]).is_dir()), None)
    if found is None:
        return None
    store = load_store(found, token_counter=EstimateCounter())
    return RetrievalEngine(store, semantic=semantic, persist=not estimating()), load_golden(path)


def load_all(roots: list[Path], semantic: bool, given: list[Path] | None = None) -> dict:
    """Every golden file whose store is under one of `roots`; the others are named and skipped
    (the stores stay outside the project: `../shared/corpora`, a researcher's folder)."""
    out = {}
    for f in golden_files(given):
        got = load(roots, f, semantic)
        if got is None:
            store = yaml.safe_load(f.read_text(encoding="utf-8")).get("store")
            print(f"skipped {f.stem}: its store {store} is under none of {', '.join(map(str, roots))}")
            continue
        out[f.stem] = got
    return out


def print_report(name: str, report) -> None:
    cols = [*report.sources, *(["fused-lexical"] if "fused-lexical" in report.scores else []), "fused"]
    print(f"\n{name}  ({report.queries} queries)")
    print(f"{'class':<11}{'n':>3}  " + "  ".join(f"{c:>17}" for c in cols) + "   gap(fused−best)")
    for cls, table in [("all", report.scores), *report.by_class.items()]:
        cells = "  ".join(f"{table[c].hit1:.2f}/{table[c].hit5:.2f}/{table[c].mrr10:.2f}".rjust(17) for c in cols)
        g = report.gap(None if cls == "all" else cls)
        print(f"{cls:<11}{table['fused'].n:>3}  {cells}   {g.hit1:+.2f}/{g.hit5:+.2f}/{g.mrr10:+.2f}")


# (memories read, words kept) of the feedback expansion, fitted with `--fit --prf-shape`
PRF_SHAPES = [(d, t) for d in (1, 2, 3, 5) for t in (3, 5, 10)]


def _is_shape(source: str) -> bool:
    """`prf3`: the feedback list of PRF_SHAPES[3], an alternative to "prf", not a source."""
    return source[:3] == "prf" and source[3:].isdigit()


# store → golden queries left out: every memory they expect is in a tier retrieval does not search
# (design: BM25 and the others run over the loadable tiers only), so no weight could find them
UNREACHABLE: dict[str, list[str]] = {}


def reachable(eng, g) -> bool:
    """Whether any memory the golden query expects is one retrieval searches (else UNREACHABLE)."""
    return any(p in eng.position for p in g.expect)


def print_unreachable() -> None:
    for name, queries in UNREACHABLE.items():
        print(f"left out of {name}: {len(queries)} golden quer{'y' if len(queries) == 1 else 'ies'} whose memories "
              "are all in tiers retrieval does not search (e.g. dated session logs, transient)")


def _lists(engines, prf_shapes=()):
    """(file, golden query, {source: [(path, score)]}) for every query: the sources run once."""
    from dataclasses import replace

    from ...retrieval.eval import with_copies
    from ...retrieval.text import query_terms

    out = []
    for name, (eng, golden) in engines.items():
        for g in golden:
            if not reachable(eng, g):  # e.g. dated session logs, transient since issue 23
                UNREACHABLE.setdefault(name, []).append(g.query)
                continue
            res = eng.search(g.query, k=10)
            g = replace(g, expect=with_copies(eng.store, g.expect, eng))  # a copy kept by de-duplication is a hit
            lists = {s: list(res.per_source[s]) for s in eng.sources}
            if res.per_source.cover is not None:  # the share of the query's words each memory holds
                lists["cover"] = res.per_source.cover
            if res.per_source.get("prf"):  # the semantic fusion's expansion list (engine.PRF_DOCS)
                lists["prf"] = list(res.per_source["prf"])
            if eng.semantic is not None and eng.graph_edges:  # the graph source (graph.py), for the fit
                from ...retrieval.graph import spread

                lists["graph"] = spread(eng.graph_edges, [res.per_source["bm25"], res.per_source["semantic"]])[0]
                if prf_shapes:  # the expansion's own shape (memories read, words kept) fitted too
                    qterms = query_terms(g.query)
                    for v, (docs, n_terms) in enumerate(prf_shapes):
                        lists[f"prf{v}"] = eng.rank_prf(qterms, res.per_source["bm25"], docs=docs, n_terms=n_terms)
            out.append((name, g, lists))
    return out


def _fused(lists, w, method: str, rrf_k: int = 60) -> list[str]:
    from ...retrieval.fusion import combine, rrf

    if "shape" in w:  # the feedback list of the shape this combination tries
        lists = {**lists, "prf": lists.get(f"prf{int(w['shape'])}", [])}
    use = {s: v for s, v in lists.items() if w.get(s, 0) > 0 and not _is_shape(s) and s != "cover"}
    if method == "rrf":
        return [p for p, _ in rrf({s: [p for p, _ in v] for s, v in use.items()}, rrf_k, w)]
    fused = [p for p, _ in combine(use, w)]
    if method == "gate":  # tried, not adopted: a source whose first is far ahead of its second keeps it first
        fused = _gate(fused, use.get("bm25", []), lambda a, b: b / a <= w.get("gate", 0) if a > 0 else False)
        fused = _gate(fused, use.get("semantic", []), lambda a, b: a - b >= w.get("sgate", 9))
    return fused


def _gate(fused: list[str], items, sure) -> list[str]:
    if len(items) < 2 or not sure(items[0][1], items[1][1]):
        return fused
    return [items[0][0], *(p for p in fused if p != items[0][0])]


def _total(rows, w, method) -> tuple[float, float, float, int]:
    from ...retrieval.eval import _score

    t = [0.0, 0.0, 0.0]
    count = 0
    for _name, g, lists in rows:
        h1, h5, rr = _score(_fused(lists, w, method), g.expect)
        t[0] += h1
        t[1] += h5
        t[2] += rr
        count += 1
    n = max(1, count)
    return t[0] / n, t[1] / n, t[2] / n, count


GRIDS = {
    # semantic weights for raw cosines above the list's lowest (fusion.SCALES): a spread of ~0.2–0.5
    "score": {"route": [0.0, 0.01, 0.05], "prior": [0.0, 0.01, 0.05],
              "semantic": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0], "prf": [0.0, 0.2, 0.5, 1.0]},
    "rrf": {"route": [0.0, 0.01, 0.05], "prior": [0.0, 0.01, 0.05], "semantic": [0.25, 0.5, 0.75, 1.0, 1.5, 2.0],
            "prf": [0.0]},
    # the confidence gates: bm25's second ÷ first at most `gate`, semantic's first − second cosine
    # at least `sgate`; 0 / 9 (never) come first, so a tie in training keeps the plain fusion
    "gate": {"route": [0.01], "prior": [0.01], "semantic": [2.0, 3.0, 5.0, 8.0], "prf": [0.0],
             "gate": [0.0, 0.7, 0.8, 0.85, 0.9], "sgate": [9.0, 0.15, 0.1, 0.05]},
}


def _held_out(rows, combos, method, folds) -> tuple[list[float], list[tuple[str, dict]]]:
    """Each fold scored with the weights that did best (hit@1 + hit@5 + MRR@10) on the others."""
    held, chosen = [0.0, 0.0, 0.0, 0], []
    for f in dict.fromkeys(folds):
        train = [r for r, g in zip(rows, folds, strict=True) if g != f]
        test = [r for r, g in zip(rows, folds, strict=True) if g == f]
        best = max(combos, key=lambda w: sum(_total(train, w, method)[:3]))  # first of equals: the simplest
        h = _total(test, best, method)
        for i in range(3):
            held[i] += h[i] * h[3]
        held[3] += h[3]
        chosen.append((str(f), best))
    n = max(1, held[3])
    return [held[0] / n, held[1] / n, held[2] / n, held[3]], chosen


def fit(engines, method: str = "score", prf_shape: bool = False) -> None:
    """Fusion weights by cross-validation: for each store, the weights that score best (hit@1 +
    hit@5 + MRR@10) on the other stores' queries are tried on its own — its numbers are held out;
    then 5-fold over the queries (seeded). Then the weights that score best on every query, for
    reference (in-sample)."""
    import random

    rows = _lists(engines, PRF_SHAPES if prf_shape else ())
    sources = sorted({s for _, _, lists in rows for s in lists if not _is_shape(s) and s != "cover"})
    grid = dict(GRIDS[method])
    if prf_shape:  # route and prior at their tie-breaking 0.01: the grid stays a few hundred
        grid.update(route=[0.01], prior=[0.01], semantic=[3.0, 4.0, 5.0, 6.0, 8.0], prf=[0.0, 0.5, 1.0, 1.5],
                    shape=[float(i) for i in range(len(PRF_SHAPES))])
    keys = [s for s in sources if s != "bm25"] + [k for k in grid if k not in sources]
    combos = [{"bm25": 1.0, **dict(zip(keys, combo, strict=True))}
              for combo in itertools.product(*(grid.get(k, [0.0, 0.5, 1.0]) for k in keys))]
    held, chosen = _held_out(rows, combos, method, [r[0] for r in rows])
    for name, best in chosen:
        h = _total([r for r in rows if r[0] == name], best, method)
        print(f"held out {name:<18} weights fitted on the others {best}: {h[0]:.2f}/{h[1]:.2f}/{h[2]:.2f} (n={h[3]})")
    print(f"held out (leave one store out), all stores: {held[0]:.3f}/{held[1]:.3f}/{held[2]:.3f} (n={held[3]})")
    order = list(range(len(rows)))
    random.Random(7).shuffle(order)
    folds = [0] * len(rows)
    for j, i in enumerate(order):
        folds[i] = j % 5
    kf, _ = _held_out(rows, combos, method, folds)
    print(f"held out (5-fold over the queries, seed 7): {kf[0]:.3f}/{kf[1]:.3f}/{kf[2]:.3f} (n={kf[3]})")
    ranked = sorted(combos, key=lambda w: -sum(_total(rows, w, method)[:3]))
    for w in ranked[:5]:
        a = _total(rows, w, method)
        print(f"fitted on every query (in-sample) {w}: {a[0]:.3f}/{a[1]:.3f}/{a[2]:.3f}")


def _rank(ranked: list[str], expect) -> int | None:
    return next((i for i, p in enumerate(ranked[:10], 1) if p in expect), None)


def print_losses(name: str, report, eng, golden) -> None:
    """Every cell (file, class, metric) where fused is below the best single source: the queries
    that make the difference — the target, each source's rank of it, what fused put above it."""
    from dataclasses import replace

    from ...retrieval.eval import ranked_lists, with_copies
    from ...retrieval.fusion import shares

    cut = {"hit1": 1, "hit5": 5, "mrr10": 10}
    for cls in ("literal", "paraphrase"):
        if cls not in report.by_class:
            continue
        table, gap = report.by_class[cls], report.gap(cls)
        for metric, k in cut.items():
            if getattr(gap, metric) >= -1e-9:
                continue
            best = max(report.sources, key=lambda s: getattr(table[s], metric))
            print(f"\n{name} {cls} {metric}: fused {getattr(table['fused'], metric):.2f} < {best} "
                  f"{getattr(table[best], metric):.2f}")
            for g in (replace(q, expect=with_copies(eng.store, q.expect, eng)) for q in golden if q.kind == cls):
                result, lists = ranked_lists(eng, g.query)
                mine, theirs = _rank(lists["fused"], g.expect), _rank(lists[best], g.expect)
                worse = theirs is not None and (mine is None or mine > theirs)
                if theirs is None or not worse or (
                        metric != "mrr10" and (theirs > k or (mine is not None and mine <= k))):
                    continue
                ranks = ", ".join(f"{s} #{_rank(lists[s], g.expect) or '>10'}" for s in report.sources)
                above = lists["fused"][: (mine or 11) - 1][:3]
                target = next((p for p in lists["fused"] if p in g.expect), g.expect[0])
                print(f"  {g.query!r}\n    target {target}: fused #{mine or '>10'} ({ranks}); "
                      f"above it: {', '.join(above)}")
                # why: what each source adds to each one's fused score (weight × normalised − floor)
                parts = shares(eng.fusion_lists(result.per_source), [target, *above], eng.weights())
                for p in (target, *above):
                    why = " + ".join(f"{s} {v:.2f}" for s, v in parts[p].items() if v >= 0.005) or "nothing"
                    print(f"      {sum(parts[p].values()):.2f} = {why}  {p}")


def _cell(v) -> str:
    return f"{v.hit1:.2f}/{v.hit5:.2f}/{v.mrr10:.2f}"


def print_markdown(named_reports) -> None:
    """The README's table: per file and class, every single source, fused lexical, fused."""
    cols = ["route", "bm25", "prior", "semantic", "fused-lexical", "fused"]
    print("| file | class | n | " + " | ".join(cols) + " | fused − best single |")
    print("|---|---|---|" + "---|" * (len(cols) + 1))
    for name, r in named_reports:
        for cls in ("all", "literal", "paraphrase", "held"):
            t = r.scores if cls == "all" else r.by_class.get(cls)
            if not t:
                continue
            g = r.gap(None if cls == "all" else cls)
            cells = " | ".join(_cell(t[c]) if c in t else "" for c in cols)
            print(f"| {name if cls == 'all' else ''} | {cls} | {t['fused'].n} | {cells} | "
                  f"{g.hit1:+.2f}/{g.hit5:+.2f}/{g.mrr10:+.2f} |")


def print_overall(reports) -> None:
    """Every golden file together, per class: the issue's "overall" and "paraphrase" figures."""
    classes = ["all", "literal", "paraphrase", "fit", "held"]
    cols = []
    for r in reports:
        for c in (*r.sources, "fused-lexical", "fused"):
            if c in r.scores and c not in cols:
                cols.append(c)
    print(f"\nall files  ({sum(r.queries for r in reports)} queries)")
    print(f"{'class':<11}{'n':>4}  " + "  ".join(f"{c:>17}" for c in cols))
    for cls in classes:
        tables = [r.scores if cls == "all" else r.by_class.get(cls, {}) for r in reports]
        cells, n_all = [], 0
        for c in cols:
            got = [t[c] for t in tables if c in t]
            n = sum(v.n for v in got)
            n_all = max(n_all, n)
            if not n:
                cells.append(" " * 17)
                continue
            cells.append(f"{sum(v.hit1 * v.n for v in got) / n:.2f}/{sum(v.hit5 * v.n for v in got) / n:.2f}/"
                         f"{sum(v.mrr10 * v.n for v in got) / n:.2f}".rjust(17))
        print(f"{cls:<11}{n_all:>4}  " + "  ".join(cells))


def main(argv: list[str] | None = None) -> int:
    from ...retrieval import run_eval

    p = argparse.ArgumentParser(prog="python -m curator.bench.golden.table", description=__doc__.splitlines()[0])
    p.add_argument("corpora", type=Path, nargs="+", help="folders the golden files' stores are under")
    p.add_argument("--semantic", action="store_true")
    p.add_argument("--golden", type=Path, nargs="+", metavar="FILE", help="these golden files (default: all here)")
    p.add_argument("--fit", action="store_true")
    p.add_argument("--prf-shape", action="store_true", help="--fit also picks the feedback's memories and words")
    p.add_argument("--failures", action="store_true")
    p.add_argument("--markdown", action="store_true", help="print the README's table")
    p.add_argument("--losses", action="store_true", help="the queries behind every cell fused loses")
    p.add_argument("--method", choices=tuple(GRIDS), default="score", help="the fusion --fit searches weights for")
    a = p.parse_args(argv)
    engines = load_all(a.corpora, a.semantic, a.golden)
    if a.fit:
        fit(engines, a.method, a.prf_shape)
        return 0
    reports = []
    for name, (eng, golden) in engines.items():
        reach = [g for g in golden if reachable(eng, g)]
        if len(reach) < len(golden):
            UNREACHABLE[name] = [g.query for g in golden if g not in reach]
        report = run_eval(eng, reach)
        reports.append(report)
        if a.losses:
            print_losses(name, report, eng, golden)
        if a.markdown or a.losses:
            continue
        print_report(name, report)
        if a.failures:
            for fl in report.failures:
                print(f"   ✖ {fl.query!r} → {fl.got[:3]}")
    if a.markdown:
        print_markdown(list(zip(engines, reports, strict=True)))
    print_overall(reports)
    print_unreachable()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
