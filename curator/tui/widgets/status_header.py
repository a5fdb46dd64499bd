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
        from ...model.findings import Severity

        store, report = workspace.store, workspace.report
        c = workspace.counts()
        est = "~" if report.estimated else ""
        given = store.given
        width = self.app.size.width  # (this header may not be laid out yet)
        room = max(12, width // 4)  # the totals and the start-up bar matter more
        if len(given) > room:
            given = "…" + given[-(room - 1):]
        self.query_one("#title", Static).update(given if width < 100 else f"curator · {given}")
        total = compact(report.total)
        self.query_one("#totals", Static).update(
            f"{len(store.records):,} files · {est}{total} tok · "
            f"✖{c[Severity.ERROR]} ▲{c[Severity.WARNING]} ●{c[Severity.INFO]}"
        )
        from ...budgets.startup import startup_of

        st = startup_of(store)  # the number the overview, Budgets and `curator tokens` show
        bar = self.query_one(BudgetBar)
        bar.label = "start-up"
        bar.past = st.past_cap_lines  # Claude Code's MEMORY.md: lines past 200 / 25 KB
        bar.used, bar.budget = st.tokens, st.cap_tokens or 0
