"""`curator retrieve` and `curator eval` output: the exact JSON shapes and Rich text."""

from __future__ import annotations

SOURCES = ("route", "bm25", "prior")


def surface_forms(query: str) -> dict[str, str]:
    """Each retrieval term of a query → the word the user typed (`charg` → `charges`), so that
    people never see the stemmer's internals."""
    import re

    from ..model.vocabulary import words
    from ..retrieval.text import terms

    typed = words(query)
    out: dict[str, str] = {}
    for w in typed:
        out.setdefault(w, w)
        for t in terms(w):
            out.setdefault(t, w)
        for part in re.split(r"[-_]", w):
            for t in terms(part):
                out.setdefault(t, part)
    for a, b in zip(typed, typed[1:], strict=False):
        out.setdefault(f"{a}-{b}", f"{a} {b}")
    return out


def shown_words(matched: list[str], forms: dict[str, str]) -> list[str]:
    """Matched terms as the user typed them, once each. A pair the engine made of two typed
    words (`pr-review` from "pr review") stays hyphenated: written "pr review" it would read as
    the two words again ("pr pr review review")."""
    out = (forms.get(t, t) for t in matched)
    return list(dict.fromkeys(t if " " in w else w for t, w in zip(matched, out, strict=True)))


def readable_terms(result) -> list[str]:
    """The query's search words as typed (pairs the engine adds for compounds are left out)."""
    forms = surface_forms(result.query)
    seen: list[str] = []
    for t in result.terms:
        word = forms.get(t)
        if word and " " not in word and word not in seen:
            seen.append(word)
    return seen


def readable(text: str, forms: dict[str, str]) -> str:
    """`text` with every stemmed term written as the user typed it."""
    import re

    return re.sub(r"[a-z0-9][a-z0-9_-]*", lambda m: forms.get(m.group(0), m.group(0)), text)


def _round(x: float | None, n: int = 4):
    return None if x is None else round(float(x), n)


def retrieve_json(result, misses: list[tuple[str, str]], unavailable: dict[str, str] | None = None) -> dict:
    results = []
    for h in result.hits:
        r = h.sources["route"]
        sources = {"route": {"rank": r.rank, "matched": r.matched, "via": r.via}}
        for name, sr in h.sources.items():
            if name != "route":
                sources[name] = {"rank": sr.rank, "score": _round(sr.score, 3)}
        results.append({
            "rank": h.rank,
            "path": h.path,
            "tier": h.tier,
            "tokens": h.tokens,
            "score": _round(h.score),
            "sources": sources,
            **({"copies": list(h.copies)} if h.copies else {}),
        })
    extra = {"unavailable": dict(unavailable)} if unavailable else {}
    return {**extra,
        "query": result.query,
        "k": result.k,
        "results": results,
        "route": {
            "steps": [{"path": s.path, "tokens": s.tokens, "cached": s.cached, "why": s.why} for s in result.route_steps],
            "tokens_loaded": result.tokens_loaded,
        },
        "misses": [{"path": p, "reason": why} for p, why in misses],
    }


def render_retrieve(console, result, misses: list[tuple[str, str]], encoding: str,
                    unavailable: dict[str, str] | None = None) -> None:
    from rich.text import Text

    est = " (estimated)" if encoding == "estimate" else ""
    console.print(Text.assemble(("curator retrieve ", "bold"), (repr(result.query), "bold info"),
                                f"  top {result.k} · {result.source}"))
    console.print(Text("terms: " + " ".join(readable_terms(result)), style="dim"))
    for name, why in (unavailable or {}).items():
        console.print(Text(f"{name} source unavailable: {why}", style="warning"))
    sources = list(result.hits[0].sources) if result.hits else list(SOURCES)
    if not result.hits:
        console.print(Text("nothing retrieved", style="warning"))
    forms = surface_forms(result.query)
    width = console.width
    path_w = min(max((len(h.path) for h in result.hits), default=10), max(20, width - 44))
    # one line of numbers per hit, its reasons on the line(s) below: readable at 80 columns
    head = Text(f"{'#':>2}  {'memory':<{path_w}} {'tokens':>6} {'score':>6}  " + "  ".join(sources), style="bold")
    console.print(head, no_wrap=True, overflow="ellipsis")
    for h in result.hits:
        ranks = "  ".join(f"{str(h.sources[s].rank) if h.sources[s].rank else '—':>{len(s)}}" for s in sources)
        path = h.path if len(h.path) <= path_w else "…" + h.path[-(path_w - 1):]
        line = Text(f"{h.rank:>2}  ")
        line.append(f"{path:<{path_w}}", style="bold")
        line.append(f" {h.tokens:>6,} {h.score:>6.4f}  {ranks}")
        console.print(line, no_wrap=True, overflow="ellipsis")
        why = []
        r = h.sources["route"]
        if r.matched:
            why.append("keywords: " + " ".join(r.matched[:6]))
        b = h.sources["bm25"]
        if b.matched:
            why.append("text: " + " ".join(shown_words(b.matched[:6], forms)))
        p = h.sources["prior"].parts
        if p is not None:
            why.append(f"prior: relevance {p.relevance:.2f}, recency {p.recency:.2f}, frequency {p.frequency:.2f}")
        if h.copies:
            n = len(h.copies)
            why.append(f"and {n} cop{'y' if n == 1 else 'ies'} (the same prose, shown once): " + ", ".join(h.copies[:3])
                       + (" …" if n > 3 else ""))
        for reason in why:
            console.print(Text("    " + reason, style="dim"), overflow="fold")
    console.print()
    console.print(Text(f"route trace ({result.tokens_loaded:,} tokens{est} in context)", style="bold"))
    for st in result.route_steps:
        line = Text(f"  {st.path}", style="bold")
        line.append(f"  {st.tokens:,}")
        line.append(" (cached)" if st.cached else "", style="success")
        line.append(f"  {st.why}", style="dim")
        console.print(line)
    for path, why in misses:
        console.print(Text.assemble(("why not ", "bold warning"), (path, "bold"), f": {readable(why, forms)}"))


def _cell(v) -> str:
    return f"{v.hit1:.2f} {v.hit5:.2f} {v.mrr10:.3f}"


def render_eval(console, report, store_given: str) -> None:
    from rich.table import Table
    from rich.text import Text

    console.print(Text.assemble(("curator eval ", "bold"), (store_given, "bold underline"),
                                f"  {report.queries} golden queries · hit@1 hit@5 MRR@10 per source"))
    for name, why in report.unavailable.items():
        console.print(Text(f"{name} source unavailable: {why}", style="warning"))
    columns = [c for c in report.scores if c != "fused"] + ["fused"]
    table = Table(box=None, pad_edge=False)
    table.add_column("queries")
    table.add_column("n", justify="right")
    for c in columns:
        table.add_column(c, justify="right", style="bold" if c == "fused" else "")
    table.add_column("gap to best source", justify="right")
    for cls, scores in [("all", report.scores), *report.by_class.items()]:
        gap = report.gap(None if cls == "all" else cls)
        worse = min(gap.hit1, gap.hit5, gap.mrr10) < -1e-9
        table.add_row(cls, str(scores["fused"].n), *[_cell(scores[c]) for c in columns],
                      Text(f"{gap.hit1:+.2f} {gap.hit5:+.2f} {gap.mrr10:+.3f}", style="error" if worse else "success"))
    console.print(table)
    for f in report.failures:
        console.print()
        console.print(Text.assemble(("✖ ", "error"), (repr(f.query), "bold"), ("  got: " + ", ".join(f.got[:3]), "dim")))
        for path, why in f.reasons.items():
            console.print(Text(f"    {path}: {why}", style="warning"))
    for path in report.missing:
        console.print(Text(f"expected memory not in the store: {path}", style="error"))
    verdict = "passed" if report.passed else "FAILED"
    console.print()
    console.print(Text(f"fused hit@5 {report.scores['fused'].hit5:.2f} — {verdict} (threshold {report.threshold:.2f})",
                       style="bold success" if report.passed else "bold error"))
