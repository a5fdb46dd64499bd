"""`curator tokens` output: the budget report as JSON or as Rich text."""

from __future__ import annotations

from ..budgets import BudgetReport
from ..budgets.growth import Growth
from ..model.store import Store
from .fitting import middle_cut


def tokens_json(store: Store, report: BudgetReport, top: int | None = None, growth: Growth | None = None) -> dict:
    from ..budgets.startup import startup_of

    files = report.files if top is None else report.files[:top]
    out = {
        "store": store.given,
        "encoding": report.encoding,
        "total": report.total,
        "tiers": report.tiers,
        "domains": [
            {"domain": name, "tokens": tokens, "kind": domain_kind(name)} for name, tokens in report.domain_tokens.items()
        ],
        "files": [{"path": p, "tier": t, "tokens": n} for p, t, n in files],
        "startup": startup_of(store).to_json(),  # the number every face shows
        "cost_model": [
            {
                "index": d.index,
                "domain": d.domain,
                "entries": d.entries,
                "l0_tokens": report.l0_tokens,
                "index_tokens": d.index_tokens,
                "consolidated_tokens": d.memory_tokens,
                "avg_entry_tokens": round(d.avg_entry, 1),
                "tiered_cached": round(d.tiered_cached, 1),
                "tiered_uncached": round(d.tiered_uncached, 1),
                "savings_cached_pct": round(d.savings_cached, 1),
                "savings_uncached_pct": round(d.savings_uncached, 1),
                "break_even_entries": d.break_even,
            }
            for d in report.domains
        ],
        "over_budget": [
            {"path": p, "tokens": n, "budget": b, "what": w} for p, n, b, w in report.over_budget
        ],
    }
    if growth is not None:  # oldest first, the work tree last (commit null); [] with the reason
        out["growth"] = growth.to_json()
        out["growth_commits"] = growth.commits
        out["growth_note"] = growth.reason or None
    return out


def growth_line(growth: Growth, width: int = 80):
    """One line: the store's size then → now over its git history (or why there is none); the
    number of commits when it fits."""
    from rich.text import Text

    line = Text("Growth  ", style="bold")
    line.append(growth.legend(), style="" if growth else "dim")
    if growth:
        n = growth.sampled
        more = f"  ({n} of {growth.commits} commits)" if growth.commits > n else f"  ({n} commit{'s' if n != 1 else ''})"
        if line.cell_len + len(more) <= width:
            line.append(more, style="dim")
    return line


def bar(value: int, total: int, width: int = 24) -> str:
    if total <= 0:
        return ""
    filled = round(width * min(value, total) / total)
    return "█" * filled + "░" * (width - filled)


# keys to the tables (shared with the app's budgets screen)
COST_KEY = ("n = entries in the index · tiered = tokens to load one entry: the L1 index and an "
            "average entry, L0 cached · +L0 = the same with L0 not cached · whole = the domain "
            "loaded as one file · saves = tiered against whole (L0 cached/not) · even at = entries "
            "retrieved at which tiered stops paying (ADR-017)")
DOMAIN_KEY = ("name = a domain index and the memories it routes to · name/ = a folder whose "
              "memories no index routes to")


def legend(console, text: str) -> None:
    """A dim key under a table, wrapped and indented to the console width."""
    from rich.padding import Padding
    from rich.text import Text

    console.print(Padding(Text(text, style="dim"), (0, 0, 0, 2), expand=False))


def render_tokens(console, store: Store, report: BudgetReport, top: int = 15, growth: Growth | None = None,
                  name: str | None = None) -> None:
    """`name`: the store as the repository names it (`.serena/memories`), else as given."""
    from rich.table import Table
    from rich.text import Text

    from .findings_report import print_indented

    est = " (estimated: no tokenizer could load)" if report.estimated else ""
    head = Text.assemble(("curator tokens ", "bold"), (name or store.given, "bold underline"))
    total = Text(f"{report.total:,} tokens · {report.encoding}{est}")
    if head.cell_len + 2 + total.cell_len <= console.width:  # one line when it fits, else two whole ones
        console.print(Text.assemble(head, "  ", total), no_wrap=True)
    else:
        print_indented(console, head, 0)
        print_indented(console, total, 2)
    if growth is not None:
        console.print(growth_line(growth, console.width))
    render_startup(console, store)
    def table(title: str, cols: tuple, rows: list) -> Table:
        """Headers are single words and never wrap (a header broken mid-word reads as two); every
        column but the first is as wide as its widest cell, and the first (a name, a path) gives
        way, cut in its middle: a narrow terminal never cuts a tier or a number."""
        widths = [max([len(c)] + [Text(str(r[i])).cell_len if not isinstance(r[i], Text) else r[i].cell_len
                                  for r in rows]) for i, c in enumerate(cols)]
        room = max(12, console.width - sum(widths[1:]) - 2 * (len(cols) - 1))
        t = Table(title=title, title_justify="left", title_style="bold", box=None, pad_edge=False)
        for i, c in enumerate(cols):
            t.add_column(c, justify="left" if i == 0 else "right", no_wrap=True,
                         min_width=widths[i] if i else None, max_width=room if not i else None)
        for r in rows:
            first = r[0]
            if isinstance(first, Text):
                first = Text(middle_cut(first.plain, room), style=first.style)
            else:
                first = middle_cut(str(first), room)
            t.add_row(first, *r[1:])
        return t

    tiers = table("Tiers", ("tier", "tokens", ""), [
        (tier, f"{n:,}", bar(n, report.total, 20)) for tier, n in sorted(report.tiers.items(), key=lambda kv: -kv[1])])
    console.print()
    console.print(tiers)

    domains = table("Domains", ("domain", "from", "tokens", ""), [
        (name, "domain index" if domain_kind(name) == "index" else "folder, no index", f"{n:,}", bar(n, report.total, 20))
        for name, n in report.domain_tokens.items()])
    console.print()
    console.print(domains)
    if any(name.endswith("/") for name in report.domain_tokens):
        legend(console, DOMAIN_KEY)

    over = {p for p, *_ in report.over_budget}
    files = table(f"Largest files (top {min(top, len(report.files))} of {len(report.files)})", ("file", "tier", "tokens"),
                  [(Text(path, style="error" if path in over else ""), tier, f"{n:,}") for path, tier, n in report.files[:top]])
    console.print()
    console.print(files)

    if not report.domains:  # no keyword index: no tiered retrieval to cost
        return
    cost = table(
        f"ADR-017 cost model per domain (L0 = {report.l0_tokens:,} tokens)",
        ("index", "n", "tiered", "+L0", "whole", "saves", "even at"),
        [(d.index, str(d.entries), f"{d.tiered_cached:,.0f}", f"{d.tiered_uncached:,.0f}", f"{d.memory_tokens:,}",
          f"{d.savings_cached:.0f}%/{d.savings_uncached:.0f}%", str(d.break_even) if d.break_even else "never")
         for d in report.domains],
    )
    console.print()
    console.print(cost)
    legend(console, COST_KEY)


def agents_json(model) -> list[dict]:
    """Each agent's start-up load (`ContextModel.startup_tokens`, as `curator context` gives it)."""
    return [{"agent": name, "label": ctx.label, "version": ctx.version,
             "startup": {"tokens": model.startup_tokens(name), "bytes": ctx.startup_bytes,
                         "files": [{"path": e.path, "tokens": e.tokens} for e in ctx.startup]}}
            for name, ctx in model.agents.items()]


def render_agents(console, model) -> None:
    from rich.text import Text

    for name, ctx in model.agents.items():
        line = Text("  ")
        line.append(f"{ctx.label:<22}", style="bold")
        line.append(f" agent · start-up {model.startup_tokens(name):,} tok from {len(ctx.startup)} file"
                    f"{'s' if len(ctx.startup) != 1 else ''}")
        console.print(line)


def render_startup(console, store: Store) -> None:
    """What the agent loads at start-up (`budgets.startup.startup_of`: the number the app's
    header, overview and Budgets show), against its cap where it has one in tokens."""
    from rich.text import Text

    from ..budgets.startup import startup_of
    from .findings_report import print_indented

    st = startup_of(store)
    style = "bold error" if st.over else "bold success"
    console.print()
    console.print(Text("Start-up load", style="bold"))
    line = Text()
    if st.cap_tokens is not None:
        line.append(bar(st.capped, max(st.cap_tokens, st.capped)), style=style)
        line.append(f"  {st.capped:,} / {st.cap_tokens:,} tokens")
        line.append(" — over budget" if st.over else " — within budget", style=style)
    else:
        line.append(f"{st.tokens:,} tokens", style="bold")
        said = st.cap_label in st.what or st.cap_label == "no cap"
        line.append(f" — {st.what}" + ("" if said else f"; cap: {st.cap_label}"), style="dim")
    print_indented(console, line, 2)
    room = max(20, min(60, console.width - 4 - 8))  # the path gives way (in its middle), never the count
    width = min(room, max((len(p) for p, _ in st.files), default=0))
    for path, n in st.files:
        console.print(f"    {middle_cut(path, room):<{width}} {n:>7,}", no_wrap=True)
    if st.beside:  # loaded too, under no budget: the total is every face's start-up number
        print_indented(console, Text(f"+ {st.beside:,} tokens beside the budget: {st.beside_what}", style="dim"), 2)
        print_indented(console, Text(f"= {st.tokens:,} tokens at start-up", style="bold"), 2)
    if st.past_cap:
        console.print(Text(f"  {st.past_cap_lines} line(s) fall past the cap:", style="warning"))
        for c in st.past_cap[:12]:
            console.print(
                Text(f"    {c.path}:{c.line}  ", style="bold") + Text(c.text.strip(), style="dim"),
                no_wrap=True,
                overflow="ellipsis",
            )
        if len(st.past_cap) > 12:
            console.print(Text(f"    … and {len(st.past_cap) - 12} more", style="dim"))


def domain_kind(name: str) -> str:
    """`git` is a domain index's domain; `git/` and `(top level)` are folders of memories no
    domain index routes to (budgets.domain_tokens names them so)."""
    return "folder" if name.endswith("/") or name.startswith("(") else "index"
