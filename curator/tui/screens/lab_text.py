"""What the retrieval lab writes beside its tables: the highlighted result's reasons, the route
trace, the why-not answer, the golden scores in the titles. Text only (no widgets), so that
each is tested on its own and reads as `curator retrieve` prints it."""

from __future__ import annotations

from rich.text import Text

from ...reports.retrieval_report import middle_cut, rank_cell, readable, running_sources


def golden_report(engine, store):
    """`curator eval`'s report on the store's golden queries, or None without a readable file."""
    from ...retrieval import GoldenError, load_golden, run_eval

    path = store.root / (store.config.golden or "golden-queries.yaml")
    if not path.is_file():
        return None
    try:
        return run_eval(engine, load_golden(path, (store.root,)))
    except GoldenError:
        return None


def scores(report, source: str) -> str:
    s = report.scores[source]
    return f"{s.hit1:.2f}/{s.hit5:.2f}/{s.mrr10:.2f}"


def same_snapshots(a, b) -> bool:
    """The same snapshot(s): one store, or every loaded source's, each the very same object."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))
    return a is b


def reason_text(result, hit, reasons: list[str], forms: dict[str, str], within: str | None = None,
                width: int = 0) -> Text:
    """Why this result came back: its full path, its fused score and its rank in every running
    source (the names the narrow table's headers shorten), then its own reasons — the lines
    `curator retrieve` prints under it — with the query's words as typed in bold. `within`: the
    memory system whose own ranks these are (the whole repository's lab); `width`: the path is
    cut in the middle to stay on the first line."""
    head = f"#{hit.rank} "
    text = Text()
    text.append(head + (middle_cut(hit.path, width - len(head)) if width > len(head) + 12 else hit.path), style="bold")
    ranks = " · ".join(f"{s} {rank_cell(hit, s)}" for s in running_sources(result))
    text.append(f"\nscore {hit.score:.4f} · {ranks}" + (f" (in {within})" if within else ""), style="dim")
    typed = set(forms.values())
    for line in reasons:
        text.append("\n")
        for i, word in enumerate(line.split(" ")):
            text.append(("" if i == 0 else " ") + word, style="bold" if word.strip(",()") in typed else "")
    return text


def trace_text(result, also, width: int) -> Text:
    """The route the agent walks, each file with its tokens on one line (its path cut in the
    middle to fit `width`), why it was opened below; then the skills it would also load."""
    trace = Text()
    for st in result.route_steps:
        room = width - 2 - len(f"  {st.tokens:,}") - (7 if st.cached else 0)  # - a scrollbar
        trace.append(middle_cut(st.path, max(10, room)), style="bold")
        trace.append(f"  {st.tokens:,}")
        if st.cached:
            trace.append(" cached", style="success")
        trace.append(f"\n  {st.why}\n", style="dim")
    trace.append(f"{result.tokens_loaded:,} tokens in context", style="bold")
    if not result.route.l0_matches and result.route_steps:  # (the first step: the start-up index)
        start = result.route_steps[0].path
        trace.append(f"\nno keyword of {start} matched: the agent's walk stops there", style="warning")
    for p in also:  # the same picks as `curator retrieve`'s "would also load"
        trace.append(f"\nwould also load: {p.kind} ", style="bold")
        trace.append(p.name, style="bold")
        trace.append(f" ({', '.join(p.matched[:4]) or f'meaning {p.meaning or 0:.2f}'})", style="dim")
    return trace


def why_text(path: str, hops: list[tuple[str, str]], forms: dict[str, str]) -> Text:
    """The why-not answer: each hop walked, with the words as typed (never stems)."""
    text = Text()
    text.append(path, style="bold")  # the path is in the box too: the hops say why
    for hop, reason in hops:
        reason = readable(reason, forms)
        # a reason that names its source ("bm25 #15 of 16", "meaning: semantic #8") is not labelled
        # again: "bm25: bm25 #15" and "semantic: meaning: …" took a narrow panel's room twice
        named = reason.startswith((f"{hop} ", f"{hop}:")) or reason.split(" ", 1)[0].endswith(":")
        text.append("\n" if named else f"\n{hop}: ", style="bold")
        text.append(reason, style="success" if "retrieved" in reason else "warning")
    return text


def result_name(engines, workbench, path: str, tail: str | None = None) -> str:
    """A result's name in a table: in the whole repository (`engines`) its source's short name
    and its path in that source (`serena: db/pool.md`); narrow, `tail` (the end of the path that
    tells it from the other results: `reports.fitting.unique_tails`) in place of the path."""
    if engines is None:
        return tail or path
    from ...retrieval.multi import locate

    engine, name = locate(engines, path)  # once a row: the table fills a row per result
    if tail and len(tail) < len(name):
        name = tail
    return f"{_label(engine, workbench)}: {name}"


def source_label(engines, workbench, path: str) -> str:
    """The short name of the memory system a result of the whole repository comes from."""
    from ...retrieval.multi import locate

    if engines is None or workbench is None:
        return "?"
    return _label(locate(engines, path)[0], workbench)


def _label(engine, workbench) -> str:
    from ...live.scope import short_name

    if engine is None or workbench is None:
        return "?"
    spec = next((s.spec for _, s in workbench.loaded() if s.name == engine.name), None)
    return short_name(spec) if spec is not None else "?"
