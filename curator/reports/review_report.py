"""A review as text for people (Rich), and as markdown for a pull-request comment."""

from __future__ import annotations

from ..model.findings import Finding, Severity
from ..review import Review
from ..review.diff import Budget, RecordChange, RowChange, StoreReview

MARK = {"added": "+", "modified": "~", "renamed": "→", "moved": "⇄", "removed": "−",
        "re-pointed": "→", "re-keyworded": "~"}
STYLE = {"added": "success", "modified": "warning", "renamed": "info", "moved": "accent", "removed": "error",
         "re-pointed": "info", "re-keyworded": "warning"}
SEV = {Severity.ERROR: ("✖", "bold error"), Severity.WARNING: ("▲", "warning"), Severity.INFO: ("●", "info")}


def _signed(n: int) -> str:
    return f"+{n:,}" if n > 0 else f"−{-n:,}" if n < 0 else "±0"


def _pct(u: float | None) -> str:
    return "–" if u is None else f"{u:.0%}"


def record_line(c: RecordChange) -> str:
    return "  ".join(record_parts(c))


def record_parts(c: RecordChange) -> list[str]:
    if c.change in ("renamed", "moved") and c.old_path and c.old_path != c.path:
        what = f"{c.old_path} → {c.path}"
    else:
        what = c.path
    parts = [what]
    if c.change == "moved":
        parts.append(f"{c.old_tier} → {c.tier}")
    elif c.change == "added":
        parts.append(c.tier or "")
    if c.similarity is not None and c.similarity < 1:
        parts.append(f"{c.similarity:.0%} alike")
    if c.lines_added or c.lines_removed:
        parts.append(f"+{c.lines_added} −{c.lines_removed} lines")
    if c.token_delta:
        parts.append(f"{_signed(c.token_delta)} tok")
    return [p for p in parts if p]


def row_line(c: RowChange) -> str:
    where = f"{c.index}:{c.line}" if c.line else c.index
    if c.change == "re-pointed":
        what = f"{c.old_target} → {c.target}"
    else:
        what = c.target
    parts = [where, what]
    if c.change == "re-keyworded" or (c.change == "re-pointed" and c.old_keywords):
        old, new = {k.lower() for k in c.old_keywords}, {k.lower() for k in c.keywords}
        delta = [f"−{k}" for k in c.old_keywords if k.lower() not in new]
        delta += [f"+{k}" for k in c.keywords if k.lower() not in old]
        parts.append(" ".join(delta))
    elif c.change == "added" and c.keywords:
        parts.append(", ".join(c.keywords[:8]) + (" …" if len(c.keywords) > 8 else ""))
    if c.change != "removed" and (c.uniqueness is not None or c.old_uniqueness is not None):
        if c.change == "added" or c.old_uniqueness == c.uniqueness:
            parts.append(f"unique in its index {_pct(c.uniqueness)}")
        else:
            parts.append(f"unique in its index {_pct(c.old_uniqueness)} → {_pct(c.uniqueness)}")
    return "  ".join(parts)


def budget_line(b: Budget) -> str:
    cap = f" of {b.cap:,}" if b.cap else ""
    flag = "  OVER THE CAP (was within)" if b.crossed else "  over the cap" if b.cap and b.after > b.cap else ""
    return f"{b.what}: {b.before:,} → {b.after:,} ({_signed(b.delta)}){cap}{flag}"


def finding_line(f: Finding) -> str:
    where = f"{f.path}:{f.line}" if f.line else f.path
    return f"{f.check}  {where}  {f.message}"


def worse(s: StoreReview) -> list[str]:
    """What got worse, one phrase each (empty when nothing did)."""
    out = []
    errors = sum(1 for f in s.introduced if f.severity == Severity.ERROR)
    if s.introduced:
        out.append(f"{len(s.introduced)} new finding{'s' if len(s.introduced) != 1 else ''}"
                   + (f" ({errors} error{'s' if errors != 1 else ''})" if errors else ""))
    out += [f"{b.what} crossed its cap" for b in s.budgets if b.crossed]
    bad_q = [q for q in s.queries if q.verdict == "worse"]
    if bad_q:
        out.append(f"{len(bad_q)} golden quer{'ies' if len(bad_q) != 1 else 'y'} retrieve worse")
    dropped = [r for r in s.rows if r.uniqueness is not None and r.old_uniqueness is not None
               and r.uniqueness < r.old_uniqueness]
    if dropped:
        out.append(f"{len(dropped)} row{'s' if len(dropped) != 1 else ''} less unique")
    return out


def _n(n: int, word: str, plural: str | None = None) -> str:
    return f"{n:,} {word if n == 1 else plural or word + 's'}"


def totals_line(review: Review) -> str:
    """The review's totals in words — the CLI's text and the app's review screen both print
    this line, and it counts what `--format json` sums in its summary."""
    c = review.counts()
    n = len(review.stores)
    parts = [f"{len(review.changed)} of {_n(n, 'source')} changed", _n(c["records"], "record"),
             _n(c["rows"], "index row"), _n(c["introduced"], "new finding"), f"{c['resolved']:,} resolved"]
    if c["queries"]:
        parts.append(_n(c["queries"], "golden query", "golden queries") + " changed")
    return " · ".join(parts)


def worse_all(review: Review) -> list[str]:
    """What got worse in every changed source, each phrase after its source (one source: bare)."""
    changed = review.changed
    return [f"{s.source}: {w}" if len(changed) > 1 else w for s in changed for w in worse(s)]


def _title(review: Review) -> str:
    return f"{review.base} ({review.commit[:7]}) → work tree"


# ------------------------------------------------------------------ text


def render_text(console, review: Review) -> None:
    """Each change on its line, wrapped between its phrases under where they began (a count never
    away from its word, a long path cut in its middle): fits any width."""
    from rich.text import Text

    from .findings_report import print_indented, print_phrases

    changed = review.changed
    print_indented(console, Text.assemble(("curator review ", "bold"), (_title(review), "bold underline"),
                                          ("  (token counts estimated)" if review.estimated else "")), 0)
    print_phrases(console, totals_line(review).split(" · "), 2)
    for a in review.agents:  # each agent's start-up change from its instruction files
        style = "error" if a.delta > 0 else "success" if a.delta < 0 else ""
        words = [f.words() for f in a.files]
        first = Text(f"start-up {a.delta:+,} tokens" + (f": {words[0]}" if words else ""), style=style)
        print_phrases(console, [first, *words[1:]], 4, sep=", ", head=Text.assemble("  ", (a.agent, "bold"), " "))
    if not review.stores:
        console.print(Text("no memory sources in this repository (.serena/memories, .claude/memory, "
                           "docs/*-experience)", style="dim"))
        return
    if not changed:
        console.print(Text("✔ no memory changes against " + review.base, style="bold success"))
        return
    for s in changed:
        console.print()
        console.print(Text.assemble((s.source, "bold"), f"  ({s.kind}, {s.status})"))
        if s.records:
            console.print(Text("  Records", style="bold"))
            for c in s.records:
                mark = Text.assemble("    ", (f"{MARK[c.change]} {c.change:<9}", STYLE[c.change]), " ")
                print_phrases(console, record_parts(c), 16, sep="  ", head=mark)
        if s.rows:
            console.print(Text("  Index rows", style="bold"))
            for r in s.rows:
                mark = Text.assemble("    ", (f"{MARK[r.change]} {r.change:<12}", STYLE[r.change]), " ")
                print_phrases(console, row_line(r).split("  "), 19, sep="  ", head=mark)
        moved = [b for b in s.budgets if b.delta or b.crossed]
        if moved:
            console.print(Text("  Tokens", style="bold"))
            for b in moved:
                print_indented(console, Text(budget_line(b), style="bold error" if b.crossed else ""), 4)
        if s.introduced or s.resolved:
            console.print(Text(f"  Findings  {len(s.introduced)} new · {len(s.resolved)} resolved", style="bold"))
            for f in s.introduced:
                icon, style = SEV[f.severity]
                print_phrases(console, finding_line(f).split("  ", 2), 15, sep="  ",
                              head=Text.assemble("    ", (f"{icon} new      ", style)))
            for f in s.resolved:
                print_phrases(console, finding_line(f).split("  ", 2), 15, sep="  ",
                              head=Text.assemble("    ", ("✔ resolved ", "success")))
        if s.queries:
            console.print(Text("  Golden queries", style="bold"))
            for q in s.queries:
                style = {"worse": "error", "better": "success"}.get(q.verdict, "dim")
                rank = f"rank {q.rank_before or '–'} → {q.rank_after or '–'}"
                print_phrases(console, [f"“{q.query}”", rank, Text(f"now: {', '.join(q.after[:3]) or 'nothing'}",
                                                                   style="dim")], 14, sep="  ",
                              head=Text.assemble("    ", (f"{q.verdict:<9}", style), " "))
        bad = worse(s)
        print_indented(console, Text("worse: " + "; ".join(bad), style="bold error") if bad
                       else Text("nothing got worse", style="success"), 2)


# ------------------------------------------------------------------ markdown


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def render_markdown(review: Review) -> str:
    out = [f"## curator review: {_title(review)}", ""]
    if review.agents:  # each agent's start-up change from its instruction files
        out += ["| agent | start-up before | after | Δ | files |", "|---|---:|---:|---:|---|"]
        out += [f"| {a.agent} | {a.before:,} | {a.after:,} | {_signed(a.delta)} | "
                f"{_md(', '.join(f.words() for f in a.files))} |" for a in review.agents]
        out.append("")
    changed = review.changed
    if not changed:
        out.append("No memory changes." if review.stores else "No memory sources in this repository.")
        return "\n".join(out) + "\n"
    c = review.counts()
    out.append(f"{len(changed)} source{'s' if len(changed) != 1 else ''} changed · {c['records']} records · "
               f"{c['rows']} index rows · **{c['introduced']} new findings** · {c['resolved']} resolved")
    for s in changed:
        out += ["", f"### `{s.source}` ({s.kind}, {s.status})", ""]
        bad = worse(s)
        out.append("**Worse:** " + "; ".join(bad) if bad else "Nothing got worse.")
        if s.records:
            out += ["", "| change | record |", "|---|---|"]
            out += [f"| {c.change} | {_md(record_line(c))} |" for c in s.records]
        if s.rows:
            out += ["", "| change | index row |", "|---|---|"]
            out += [f"| {c.change} | {_md(row_line(c))} |" for c in s.rows]
        moved = [b for b in s.budgets if b.delta or b.crossed]
        if moved:
            out += ["", "| tokens | before | after | Δ | cap |", "|---|---:|---:|---:|---:|"]
            out += [f"| {b.what}{' ⚠️' if b.crossed else ''} | {b.before:,} | {b.after:,} | {_signed(b.delta)} | "
                    f"{f'{b.cap:,}' if b.cap else ''} |" for b in moved]
        if s.introduced or s.resolved:
            out += ["", "| finding | where | message |", "|---|---|---|"]
            for f in s.introduced:
                where = f"{f.path}:{f.line}" if f.line else f.path
                out.append(f"| {SEV[f.severity][0]} new `{f.check}` | `{_md(where)}` | {_md(f.message)} |")
            for f in s.resolved:
                where = f"{f.path}:{f.line}" if f.line else f.path
                out.append(f"| ✔ resolved `{f.check}` | `{_md(where)}` | {_md(f.message)} |")
        if s.queries:
            out += ["", "| golden query | verdict | rank | top results now |", "|---|---|---|---|"]
            out += [f"| {_md(q.query)} | {q.verdict} | {q.rank_before or '–'} → {q.rank_after or '–'} | "
                    f"{_md(', '.join(q.after[:3]))} |" for q in s.queries]
    return "\n".join(out) + "\n"
