"""The first screen's right pane: every memory system of the repository at a glance — records,
tokens, what the agent loads at start-up against its cap, findings by severity — and the five
worst problems."""

from __future__ import annotations

from rich.console import Group
from rich.padding import Padding
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from ...model.findings import Finding, Severity
from .budget_bar import compact
from .fitting import FirstThatFits, KeyLine

SEVERITY_STYLE = {Severity.ERROR: "bold error", Severity.WARNING: "warning", Severity.INFO: "info"}
ICON = {Severity.ERROR: "✖", Severity.WARNING: "▲", Severity.INFO: "●"}


def worst(session, n: int = 5) -> list[tuple[str, Finding]]:
    """(source name, finding) of the most severe findings, errors first, one per check where
    possible so the list shows different kinds of trouble."""
    pool = []
    for _, src in session.loaded():
        for f in src.workspace.findings:
            pool.append((src.name, f))
    pool += [("", f) for f in session.cross]
    pool.sort(key=lambda p: (-int(p[1].severity), p[1].check, p[1].path))
    out, seen = [], set()
    for name, f in pool:
        if f.check not in seen:
            out.append((name, f))
            seen.add(f.check)
        if len(out) == n:
            return out
    for item in pool:
        if item not in out:
            out.append(item)
        if len(out) == n:
            break
    return out


def _marks(line: Text, counts) -> None:
    marks = [(f"{ICON[s]}{counts[s]}", SEVERITY_STYLE[s]) for s in (Severity.ERROR, Severity.WARNING, Severity.INFO)
             if counts[s]]
    for i, (mark, style) in enumerate(marks):
        line.append(("" if i == 0 else " ") + mark, style=style)
    if not marks:
        line.append("✔ no findings", style="success")


def totals_line(indent: str, files: int, memories: int, tokens: int, counts) -> FirstThatFits:
    """files (memories) · tokens · marks; narrower: "mem", then no memory count."""
    out = []
    for words in (f" ({memories:,} memories)", f" ({memories:,} mem)", ""):
        line = Text(f"{indent}{files:,} files{words} · {compact(tokens)} tok · ")
        _marks(line, counts)
        out.append(line)
    return FirstThatFits(*out)


def agent_lines(model) -> list:
    """Each agent's start-up load from the instruction files (`ContextModel.startup_tokens`, the
    number `curator context` and the Context view show)."""
    if model is None or not model.agents:
        return []
    out: list = [Text("Agents", style="bold")]
    for name, ctx in model.agents.items():
        n = len(ctx.startup)
        lines = []
        for more in (f" · {n} file{'s' if n != 1 else ''} · {len(ctx.on_demand)} on demand",
                     f" · {n} file{'s' if n != 1 else ''}", ""):  # narrower: less said, never wrapped
            line = Text(f"{ctx.label:<15} start-up: ")
            line.append(f"{model.startup_tokens(name):,} tokens", style="bold")
            line.append(more, style="dim")
            lines.append(line)
        out.append(Padding(FirstThatFits(*lines), (0, 0, 0, 2)))
    return [*out, Text("")]


def render_overview(repo, title: str, context=None) -> Group:
    """The repository's health and its worst problems first (above the fold at 80×24), then one
    block per source (wraps well at 80 columns, where a table would cut numbers), then each
    agent's start-up load from the instruction files (`context`, once it is built)."""
    from ...budgets.startup import startup_of
    from ...live.scope import scope_counts, scope_totals

    parts: list = [Text(title, style="bold")]
    if len(repo.loaded()) > 1:  # counted as `curator check` sums the sources
        t = scope_totals(repo, None)
        # files as the header counts them; of them the memories (indexes aside)
        parts.append(totals_line("", t["files"], t["records"], t["tokens"], scope_counts(repo, None)))
    bad = worst(repo)
    if bad:
        parts += [Text(""), Text("Worst problems · 2 lists all", style="bold")]
        for name, f in bad:
            line = Text(f"{ICON[f.severity]} ", style=SEVERITY_STYLE[f.severity], no_wrap=True, overflow="ellipsis")
            where = f"{name}/{f.path}" if name and name != "." else f.path
            where = where.removesuffix("/.") if where != "." else "the store"  # a store-wide finding
            line.append(f"{f.check} ", style="bold")
            line.append(f"{where}{':' + str(f.line) if f.line else ''}", style="dim")
            parts.append(line)
            parts.append(Text(f"    {f.message}", no_wrap=True, overflow="ellipsis"))
    parts.append(Text(""))
    for src in repo.sources:
        head = Text(src.name, style="bold", no_wrap=True, overflow="ellipsis")  # one line: the rest is below
        head.append(f"  {src.spec.label}", style="dim")
        parts.append(head)
        ws = src.workspace
        if ws is None:
            parts += [Text(f"  cannot load: {src.error}", style="error"), Text("")]
            continue
        store = ws.store
        st = startup_of(store)
        memories = sum(1 for r in store.records.values() if r.level == 2)
        parts.append(totals_line("  ", len(store.records), memories, store.total_tokens, ws.counts()))
        start = Text("start-up: ")
        start.append(f"{st.tokens:,} tokens", style="bold")
        if st.cap_tokens is not None and st.beside:  # the budget governs the index, not Serena's list
            start.append(f" — {st.what}: {st.capped:,}", style="dim")
            start.append(f" of {st.cap_tokens:,}", style="error" if st.over else "dim")
            start.append(f"; {st.beside_what}: {st.beside:,}", style="dim")
        else:
            if st.cap_tokens is not None:
                start.append(f" of {st.cap_tokens:,}", style="error" if st.over else "")
            start.append(f" — {st.what}", style="dim")
        if st.past_cap_lines:  # which cap: the store's token budget, or Claude Code's auto-memory lines
            cap = f"its {st.cap_tokens:,}-token budget" if st.cap_tokens else "Claude Code's auto-memory cap"
            start.append(f"; {st.past_cap_lines} lines past {cap} are never seen", style="warning")
        parts += [Padding(start, (0, 0, 0, 2)), Text("")]  # wrapped lines keep the block's indent
    parts += agent_lines(context)
    parts.append(KeyLine([("↑↓", "walk the tree"), ("Enter", "unfolds"), ("2", "problems"), ("3", "budgets"),
                          ("4", "lab"), ("5", "sessions"), ("6", "drift"), ("7", "context"),
                          ("ctrl+p", "commands"), ("f1", "help")]))
    return Group(*parts)


class Overview(VerticalScroll):
    """Scrollable so a long list of sources never cuts the worst problems off."""

    DEFAULT_CSS = "Overview { padding: 0 1; } Overview > Static { width: 100%; }"

    def compose(self):
        yield Static(id="overview-body")

    def show(self, session, title: str) -> None:
        model = getattr(self.app, "context_model", None)
        self.query_one("#overview-body", Static).update(render_overview(session, title, model))
