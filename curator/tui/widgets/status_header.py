"""The header line: store, totals, findings and the start-up load as a budget bar."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from .budget_bar import BudgetBar, compact


class StatusHeader(Horizontal):
    DEFAULT_CSS = """
    StatusHeader { height: 1; background: $panel; padding: 0 1; }
    StatusHeader > #title { width: auto; text-style: bold; color: $primary; }
    StatusHeader > #totals { width: auto; padding: 0 1; color: $text-muted; }
    StatusHeader > BudgetBar { min-width: 16; }
    """

    def compose(self) -> ComposeResult:
        yield Static("curator", id="title")
        yield Static("loading…", id="totals")
        yield BudgetBar("start-up", id="header-startup")

    def show(self, workspace) -> None:
        """The scope's health: the whole repository (every source, as `curator check` counts
        it) unless the user narrowed it to one source (the app's `scope`)."""
        from ...live.scope import INSTRUCTIONS, scope_name, scope_totals, startup_overs
        from ...model.findings import Severity

        store, report = workspace.store, workspace.report
        repo = getattr(self.app, "workbench", None)
        scope = getattr(self.app, "scope", None)
        whole = repo is not None and scope is None and len(repo.loaded()) > 1
        if repo is not None:
            t = scope_totals(repo, scope if scope is not None or whole else repo.current)
            given = "repository" if whole else scope_name(repo, scope if scope is not None else repo.current)
            files, tokens, est = t["files"], t["tokens"], t["estimated"]
            counts = (t["errors"], t["warnings"], t["infos"])
        else:
            c = workspace.counts()
            given, files, tokens, est = store.given, len(store.records), report.total, report.estimated
            counts = (c[Severity.ERROR], c[Severity.WARNING], c[Severity.INFO])
        width = self.app.size.width  # (this header may not be laid out yet)
        room = max(12, width // 4)  # the totals and the start-up bar matter more
        if scope == INSTRUCTIONS and len(given) > room:
            given = "instructions"  # (not `…les, across systems`)
        if len(given) > room:
            given = "…" + given[-(room - 1):]
        self.query_one("#title", Static).update(given if width < 100 else f"curator · {given}")
        # the instruction files' tokens are each agent's start-up (the bar's note), never one sum
        tok = "" if scope == INSTRUCTIONS else f"{'~' if est else ''}{compact(tokens)} tok · "
        self.query_one("#totals", Static).update(f"{files:,} files · {tok}✖{counts[0]} ▲{counts[1]} ●{counts[2]}")
        bar = self.query_one(BudgetBar)
        bar.display = True  # (hidden while there was no memory store)
        if scope == INSTRUCTIONS:  # each agent's start-up, as the Context view shows it
            model = getattr(self.app, "context_model", None) or getattr(repo, "instructions", None)
            agents = [(ctx.label, ctx.startup_tokens) for name, ctx in (model.agents.items() if model else ())
                      if name != "serena"]
            bar.label, bar.used, bar.budget, bar.past, bar.beside = "", 0, 0, 0, 0
            bar.note = "start-up " + " · ".join(f"{label} {compact(n)}" for label, n in agents) if agents else ""
            return
        if whole:  # one bar cannot hold every source's cap: say how many are over
            over, n = startup_overs(repo, None)
            bar.label, bar.used, bar.budget, bar.past, bar.beside = "", 0, 0, 0, 0
            bar.note = f"start-up over cap: {over} of {n}" if over else f"start-up within cap: {n} of {n}"
            return
        from ...budgets.startup import startup_of

        st = startup_of(store)  # the number the overview, Budgets and `curator tokens` show
        bar.note, bar.unit = "", ""
        bar.label = "start-up"
        bar.past = st.past_cap_lines  # Claude Code's MEMORY.md: lines past 200 / 25 KB
        bar.used, bar.budget, bar.beside = st.tokens, st.cap_tokens or 0, st.beside if st.cap_tokens else 0

    def show_instructions(self, model) -> None:
        """No memory store: the repository's name, its agents and its instruction findings (as
        `curator check` counts them there)."""
        from pathlib import Path

        from ...model.findings import Severity

        n = len(model.agents)
        counts = [sum(1 for f in model.findings if f.severity == s) for s in (Severity.ERROR, Severity.WARNING,
                                                                              Severity.INFO)]
        self.query_one("#title", Static).update(Path(model.root).name or "curator")
        self.query_one("#totals", Static).update(
            f"no memory store · {n} agent{'s' if n != 1 else ''} · ✖{counts[0]} ▲{counts[1]} ●{counts[2]}")
        self.query_one(BudgetBar).display = False  # no memory system: no start-up bar of one
