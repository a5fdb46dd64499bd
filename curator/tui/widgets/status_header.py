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
        bar = self.query_one(BudgetBar)
        fmt = getattr(store, "format", "serena-tiered")
        if fmt == "serena-tiered":
            bar.label = "start-up"
            bar.used, bar.budget = report.startup.tokens, report.startup.budget
        elif fmt == "claude" and store.l0 is not None and store.l0.path in store.records:
            # Claude Code's loader cap is in lines (and 25 KB): show MEMORY.md's lines against it
            from ...model.formats import CLAUDE_CAP_LINES, claude_cap_line

            text = store.records[store.l0.path].text
            first = claude_cap_line(text)  # the byte cap can bind before the line cap
            bar.label = "MEMORY.md lines"
            bar.used = len(text.splitlines())
            bar.budget = CLAUDE_CAP_LINES if first is None else min(CLAUDE_CAP_LINES, first - 1)
        else:
            bar.used, bar.budget = 0, 0  # no start-up cap in this format (the overview says why)
