"""`curator tokens` output: the budget report as JSON or as Rich text."""

from __future__ import annotations

from ..budgets import BudgetReport
from ..budgets.growth import Growth
from ..model.store import Store


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


def render_tokens(console, store: Store, report: BudgetReport, top: int = 15, growth: Growth | None = None) -> None:
    from rich.table import Table
    from rich.text import Text

    est = " (estimated: no tokenizer could load)" if report.estimated else ""
    console.print(
        Text.assemble(
            ("curator tokens ", "bold"),
            (store.given, "bold underline"),
            f"  {report.total:,} tokens · {report.encoding}{est}",
        )
    )
    if growth is not None:
        console.print(growth_line(growth, console.width))
    render_startup(console, store)
    def table(title: str, *cols: str) -> Table:
        # headers are single words and never wrap: a header broken mid-word reads as two
        t = Table(title=title, title_justify="left", title_style="bold", box=None, pad_edge=False)
        for i, c in enumerate(cols):
            t.add_column(c, justify="left" if i == 0 else "right", no_wrap=True,
                         overflow="ellipsis" if i == 0 else "fold", min_width=len(c))
        return t

    tiers = table("Tiers", "tier", "tokens", "")
    for tier, n in sorted(report.tiers.items(), key=lambda kv: -kv[1]):
        tiers.add_row(tier, f"{n:,}", bar(n, report.total, 20))
    console.print()
    console.print(tiers)

    domains = table("Domains", "domain", "from", "tokens", "")
    for name, n in report.domain_tokens.items():
        kind = domain_kind(name)
        label = "domain index" if kind == "index" else "folder, no index"
        domains.add_row(name, label, f"{n:,}", bar(n, report.total, 20))
    console.print()
    console.print(domains)
    if any(name.endswith("/") for name in report.domain_tokens):
        legend(console, DOMAIN_KEY)

    files = table(f"Largest files (top {min(top, len(report.files))} of {len(report.files)})", "file", "tier", "tokens")
    over = {p for p, *_ in report.over_budget}
    for path, tier, n in report.files[:top]:
        files.add_row(Text(path, style="error" if path in over else ""), tier, f"{n:,}")
    console.print()
    console.print(files)

    if not report.domains:  # no keyword index: no tiered retrieval to cost
        return
    cost = table(
        f"ADR-017 cost model per domain (L0 = {report.l0_tokens:,} tokens)",
        "index", "n", "tiered", "+L0", "whole", "saves", "even at",
    )
    for d in report.domains:
        cost.add_row(
            d.index, str(d.entries), f"{d.tiered_cached:,.0f}", f"{d.tiered_uncached:,.0f}",
            f"{d.memory_tokens:,}", f"{d.savings_cached:.0f}%/{d.savings_uncached:.0f}%",
            str(d.break_even) if d.break_even else "never",
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

    st = startup_of(store)
    style = "bold error" if st.over else "bold success"
    console.print()
    console.print(Text("Start-up load", style="bold"))
    line = Text("  ")
    if st.cap_tokens is not None:
        line.append(bar(st.tokens, max(st.cap_tokens, st.tokens)), style=style)
        line.append(f"  {st.tokens:,} / {st.cap_tokens:,} tokens")
        line.append(" — over budget" if st.over else " — within budget", style=style)
    else:
        line.append(f"{st.tokens:,} tokens", style="bold")
        said = st.cap_label in st.what or st.cap_label == "no cap"
        line.append(f" — {st.what}" + ("" if said else f"; cap: {st.cap_label}"), style="dim")
    console.print(line)
    for path, n in st.files:
        console.print(f"    {path:<40} {n:>7,}")
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
