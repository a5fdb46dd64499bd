"""`curator retrieve` and `curator eval` output: the exact JSON shapes and Rich text."""

from __future__ import annotations

from .fitting import middle_cut

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
        parts = re.split(r"[-_]", w)
        for part in parts if len(parts) > 1 else ():  # `rd-bot`'s parts read as `rd` and `bot`, not `rd-bot` thrice
            for t in terms(part):
                out.setdefault(t, part)
        for t in terms(w):
            out.setdefault(t, w)
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


def _passage_json(m) -> dict:
    """The passage the model matched best (meaning.Match); a memory scored by its head alone
    (its passages not read) says so: `read` false, the head's cosine, no passage."""
    if not m.read:
        return {"read": False, "head": _round(m.head, 3)}
    return {"read": True, "heading": m.heading, "line": m.line, "excerpt": m.excerpt,
            "cosine": _round(m.passage, 3), "head": _round(m.head, 3)}


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
            **({"linked_from": list(result.linked_from[h.path])} if h.path in result.linked_from else {}),
            **({"kept_first": h.sure} if h.sure else {}),
            **({"passage": _passage_json(h.passage)} if h.passage is not None else {}),
        })
    extra = {"unavailable": dict(unavailable)} if unavailable else {}
    forms = surface_forms(result.query)
    return {**extra,
        "query": result.query,
        "k": result.k,
        "results": results,
        "route": {
            "steps": [{"path": s.path, "tokens": s.tokens, "cached": s.cached, "why": s.why} for s in result.route_steps],
            "tokens_loaded": result.tokens_loaded,
        },
        "misses": [{"path": p, "reason": readable(why, forms)} for p, why in misses],  # the words as typed
    }


def render_also(console, picks) -> None:
    """"would also load": the skills and agent-requested rules picked by their descriptions."""
    from rich.text import Text

    if not picks:
        return
    console.print()
    console.print(Text("would also load (picked by description)", style="bold"))
    for p in picks:
        line = Text(f"  {p.kind} ")
        line.append(p.name, style="bold")
        line.append(f"  {p.path}", style="dim")
        console.print(line, no_wrap=True, overflow="ellipsis")
        said = [f"description matches {', '.join(p.matched[:6])}"] if p.matched else []
        said += [f"meaning {p.meaning:.2f}"] if p.meaning is not None else []
        console.print(Text(f"    {p.agent}: {' · '.join(said) or 'its name matches'}", style="dim"), overflow="fold")


def render_retrieve(console, result, misses: list[tuple[str, str]], encoding: str,
                    unavailable: dict[str, str] | None = None, systems: int = 1) -> None:
    """`systems`: how many memory systems the result fuses (a repository's), said once so the
    rank columns read as ranks within each system."""
    from rich.text import Text

    est = " (estimated)" if encoding == "estimate" else ""
    console.print(Text.assemble(("curator retrieve ", "bold"), (repr(result.query), "bold info"),
                                f"  top {result.k} · {result.source}"))
    console.print(Text("terms: " + " ".join(readable_terms(result)), style="dim"))
    if systems > 1:
        console.print(Text(f"ranks are within each result's memory system ({systems} fused by rank)", style="dim"))
    for name, why in (unavailable or {}).items():
        console.print(Text(f"{name} source unavailable: {why}", style="warning"))
    sources = running_sources(result)
    if not result.hits:
        console.print(Text("nothing retrieved", style="warning"))
    forms = surface_forms(result.query)
    cols = "  ".join(sources)
    # the path takes what the numbers leave: every score column fits at 80 columns
    fixed = 2 + 2 + 1 + 6 + 1 + 6 + 2 + len(cols)
    path_w = max(12, min(max((len(h.path) for h in result.hits), default=10), console.width - fixed))
    # one line of numbers per hit, its own reasons on the line(s) below
    head = Text(f"{'#':>2}  {'memory':<{path_w}} {'tokens':>6} {'score':>6}  {cols}", style="bold")
    console.print(head, no_wrap=True, overflow="ellipsis")
    reasons, shared = explanations(result, forms)
    for h in result.hits:
        ranks = "  ".join(f"{rank_cell(h, s):>{len(s)}}" for s in sources)
        line = Text(f"{h.rank:>2}  ")
        line.append(f"{middle_cut(h.path, path_w):<{path_w}}", style="bold")
        line.append(f" {h.tokens:>6,} {h.score:>6.4f}  {ranks}")
        console.print(line, no_wrap=True, overflow="ellipsis")
        for reason in reasons[h.path]:
            console.print(Text("    " + reason, style="dim"), overflow="fold")
    if shared:
        said = ", ".join(f"{k} {v}" for k, v in shared.items())
        console.print(Text(f"    every result: prior {said}", style="dim"), overflow="fold")
    console.print()
    console.print(Text(f"route trace ({result.tokens_loaded:,} tokens{est} in context)", style="bold"))
    if not result.route_steps:
        console.print(Text("  no index file here: the agent's keyword walk opens nothing", style="dim"))
    for st in result.route_steps:
        # each file on its own line with its tokens (the path cut in the middle only when it
        # must); why it was opened beside it when that fits, else below it
        tail = f"  {st.tokens:,}" + (" (cached)" if st.cached else "")
        line = Text(f"  {middle_cut(st.path, max(24, console.width - 1 - 2 - len(tail)))}", style="bold")
        line.append(f"  {st.tokens:,}")
        line.append(" (cached)" if st.cached else "", style="success")
        beside = line.cell_len + 2 + len(st.why) < console.width
        line.append(f"  {st.why}" if beside else f"\n      {st.why}", style="dim")
        console.print(line, overflow="fold")
    for path, why in misses:
        console.print(Text.assemble(("why not ", "bold warning"), (path, "bold"), f": {readable(why, forms)}"))


def running_sources(result) -> list[str]:
    """The sources each hit has a rank from (route, bm25, prior, semantic and graph when they
    run), in the order both faces show their columns."""
    return list(result.hits[0].sources) if result.hits else list(SOURCES)


def rank_cell(hit, source: str) -> str:
    sr = hit.sources.get(source)
    return str(sr.rank) if sr is not None and sr.rank else "—"


def explanations(result, forms: dict[str, str] | None = None) -> tuple[dict[str, list[str]], dict[str, str]]:
    """Each hit's own reasons (`hit_reasons`), by path, and the prior's parts every hit shares
    (said once, not on each hit): what `curator retrieve` prints and the lab shows."""
    forms = surface_forms(result.query) if forms is None else forms
    shared = shared_prior(result.hits)
    ranks_shown = {h.path: h.rank for h in result.hits}
    return {h.path: hit_reasons(h, result, forms, ranks_shown, shared) for h in result.hits}, shared


PRIOR_PARTS = ("relevance", "recency", "frequency")


def _prior_parts(h) -> dict[str, str]:
    p = h.sources["prior"].parts if "prior" in h.sources else None
    return {} if p is None else {k: f"{getattr(p, k):.2f}" for k in PRIOR_PARTS}


def _prior_line(h, skip=()) -> str:
    parts = {k: v for k, v in _prior_parts(h).items() if k not in skip}
    return "prior: " + ", ".join(f"{k} {v}" for k, v in parts.items()) if parts else ""


def shared_prior(hits) -> dict[str, str]:
    """The prior's parts every hit shares (printed once, not on every hit's lines)."""
    all_parts = [_prior_parts(h) for h in hits]
    if len(hits) < 2 or not all(all_parts):
        return {}
    return {k: v for k, v in all_parts[0].items() if all(p[k] == v for p in all_parts)}


def hit_reasons(h, result, forms: dict[str, str], ranks_shown: dict[str, int], shared: dict[str, str] | None = None,
                ) -> list[str]:
    """Why this memory came back, in its own words: the words that matched where, how the
    semantic source ranked it, what links it to the hits above, a sure first kept first."""
    from ..retrieval.explain import meaning_text

    why = []
    r = h.sources["route"]
    if r.matched:
        why.append("index keywords: " + " ".join(r.matched[:6]))
    b = h.sources["bm25"]
    if b.matched:
        rank = f" (bm25 #{b.rank})" if b.rank else ""
        why.append("text: " + " ".join(shown_words(b.matched[:6], forms)) + rank)
    sem = h.sources.get("semantic")
    if sem is not None and sem.rank is not None:
        why.append(f"meaning: semantic #{sem.rank}, {meaning_text(sem.score, h.passage)}")
    linked = [p for p in result.linked_from.get(h.path, [])]
    if linked:
        why.append("linked from " + ", ".join(f"#{ranks_shown[p]}" if p in ranks_shown else middle_cut(p, 40)
                                              for p in linked[:3]))
    if h.sure:
        why.append(h.sure)
    if _prior_line(h, shared or {}):
        why.append(_prior_line(h, shared or {}))
    if h.copies:
        n = len(h.copies)
        why.append(f"and {n} cop{'y' if n == 1 else 'ies'} (the same prose, shown once): " + ", ".join(h.copies[:3])
                   + (" …" if n > 3 else ""))
    return why


def _cell(v) -> str:
    return f"{v.hit1:.2f} {v.hit5:.2f} {v.mrr10:.3f}"


def render_eval(console, report, store_given: str) -> None:
    from rich.table import Table
    from rich.text import Text

    from .findings_report import print_indented

    console.print(Text.assemble(("curator eval ", "bold"), (store_given, "bold underline"),
                                f"  {report.queries} golden queries"))
    for name, why in report.unavailable.items():
        print_indented(console, Text(f"{name} source unavailable: {why}", style="warning"), 0)
    columns = [c for c in report.scores if c != "fused"] + ["fused"]
    classes = [("all", report.scores), *report.by_class.items()]
    # one table a metric, its name in the corner: every number is labelled by its row (the query
    # class) and its column (the source), and the table fits 80 columns
    for metric, fmt in (("hit@1", "{:.2f}"), ("hit@5", "{:.2f}"), ("MRR@10", "{:.3f}")):
        key = {"hit@1": "hit1", "hit@5": "hit5", "MRR@10": "mrr10"}[metric]
        table = Table(box=None, pad_edge=False)
        table.add_column(metric, style="bold")
        table.add_column("n", justify="right")
        for c in columns:
            table.add_column(c, justify="right", style="bold" if c == "fused" else "")
        table.add_column("gap to best", justify="right")  # fused minus the best single source
        for cls, scores in classes:
            gap = getattr(report.gap(None if cls == "all" else cls), key)
            table.add_row(cls, str(scores["fused"].n), *[fmt.format(getattr(scores[c], key)) for c in columns],
                          Text(("{:+.3f}" if key == "mrr10" else "{:+.2f}").format(gap),
                               style="error" if gap < -1e-9 else "success"))
        console.print()
        console.print(table)
    for f in report.failures:
        console.print()
        print_indented(console, Text.assemble(("✖ ", "error"), (repr(f.query), "bold"),
                                              ("  got: " + ", ".join(f.got[:3]), "dim")), 0)
        for path, why in f.reasons.items():
            print_indented(console, Text(f"{path}: {why}", style="warning"), 4)
    for path in report.missing:
        console.print(Text(f"expected memory not in the store: {path}", style="error"))
    verdict = "passed" if report.passed else "FAILED"
    console.print()
    console.print(Text(f"fused hit@5 {report.scores['fused'].hit5:.2f} — {verdict} (threshold {report.threshold:.2f})",
                       style="bold success" if report.passed else "bold error"))
