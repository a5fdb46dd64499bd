"""`curator retrieve` and `curator eval` output: the exact JSON shapes and Rich text."""

from __future__ import annotations

SOURCES = ("route", "bm25", "prior")


def _round(x: float | None, n: int = 4):
    return None if x is None else round(float(x), n)


def retrieve_json(result, misses: list[tuple[str, str]]) -> dict:
    results = []
    for h in result.hits:
        r, b, p = h.sources["route"], h.sources["bm25"], h.sources["prior"]
        results.append({
            "rank": h.rank,
            "path": h.path,
            "tier": h.tier,
            "tokens": h.tokens,
            "score": _round(h.score),
            "sources": {
                "route": {"rank": r.rank, "matched": r.matched, "via": r.via},
                "bm25": {"rank": b.rank, "score": _round(b.score, 3)},
                "prior": {"rank": p.rank, "score": _round(p.score, 3)},
            },
        })
    return {
        "query": result.query,
        "k": result.k,
        "results": results,
        "route": {
            "steps": [{"path": s.path, "tokens": s.tokens, "cached": s.cached, "why": s.why} for s in result.route_steps],
            "tokens_loaded": result.tokens_loaded,
        },
        "misses": [{"path": p, "reason": why} for p, why in misses],
    }


def render_retrieve(console, result, misses: list[tuple[str, str]], encoding: str) -> None:
    from rich.table import Table
    from rich.text import Text

    est = " (estimated)" if encoding == "estimate" else ""
    console.print(Text.assemble(("curator retrieve ", "bold"), (repr(result.query), "bold cyan"),
                                f"  top {result.k} · {result.source}"))
    console.print(Text("terms: " + " ".join(result.terms), style="dim"))
    if not result.hits:
        console.print(Text("nothing retrieved", style="yellow"))
    table = Table(box=None, pad_edge=False)
    table.add_column("#", justify="right")
    table.add_column("memory", no_wrap=True, min_width=min(36, max(len(h.path) for h in result.hits) if result.hits else 10))
    table.add_column("tokens", justify="right")
    table.add_column("score", justify="right")
    for s in SOURCES:
        table.add_column(s, justify="right")
    table.add_column("why", overflow="fold", ratio=1)
    for h in result.hits:
        why = []
        r = h.sources["route"]
        if r.matched:
            why.append("keywords: " + " ".join(r.matched[:5]))
        b = h.sources["bm25"]
        if b.matched:
            why.append("text: " + " ".join(b.matched[:5]))
        p = h.sources["prior"].parts
        if p is not None:
            why.append(f"prior rel {p.relevance:.2f} rec {p.recency:.2f} freq {p.frequency:.2f}")
        table.add_row(
            str(h.rank), Text(h.path, style="bold"), f"{h.tokens:,}", f"{h.score:.4f}",
            *[str(h.sources[s].rank) if h.sources[s].rank else "—" for s in SOURCES],
            Text("; ".join(why), style="dim"),
        )
    console.print(table)
    console.print()
    console.print(Text(f"route trace ({result.tokens_loaded:,} tokens{est} in context)", style="bold"))
    for st in result.route_steps:
        line = Text(f"  {st.path}", style="bold")
        line.append(f"  {st.tokens:,}")
        line.append(" (cached)" if st.cached else "", style="green")
        line.append(f"  {st.why}", style="dim")
        console.print(line)
    for path, why in misses:
        console.print(Text.assemble(("why not ", "bold yellow"), (path, "bold"), f": {why}"))


def render_eval(console, report, store_given: str) -> None:
    from rich.table import Table
    from rich.text import Text

    console.print(Text.assemble(("curator eval ", "bold"), (store_given, "bold underline"),
                                f"  {report.queries} golden queries"))
    table = Table(box=None, pad_edge=False)
    table.add_column("source")
    for col in ("hit@1", "hit@5", "MRR@10"):
        table.add_column(col, justify="right")
    best = max(report.scores[s].hit5 for s in SOURCES)
    for s, v in report.scores.items():
        style = "bold" if s == "fused" else ""
        table.add_row(Text(s, style=style), f"{v.hit1:.2f}", Text(f"{v.hit5:.2f}", style="green" if v.hit5 >= best else ""), f"{v.mrr10:.3f}")
    console.print(table)
    for f in report.failures:
        console.print()
        console.print(Text.assemble(("✖ ", "red"), (repr(f.query), "bold"), ("  got: " + ", ".join(f.got[:3]), "dim")))
        for path, why in f.reasons.items():
            console.print(Text(f"    {path}: {why}", style="yellow"))
    for path in report.missing:
        console.print(Text(f"expected memory not in the store: {path}", style="red"))
    verdict = "passed" if report.passed else "FAILED"
    console.print()
    console.print(Text(f"fused hit@5 {report.scores['fused'].hit5:.2f} — {verdict} (threshold {report.threshold:.2f})",
                       style="bold green" if report.passed else "bold red"))
