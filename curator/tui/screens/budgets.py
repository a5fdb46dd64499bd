"""Budgets: start-up load and the lines past its cap, tiers and domains as bars, a size
histogram, the store's growth over its git history as a sparkline (read in a worker), the
largest files and ADR-017's cost model per domain."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Sparkline, Static

from ...budgets import size_histogram
from ...budgets.growth import Growth, store_growth
from ...reports.adr_links import linked
from ...reports.tokens_report import COST_KEY
from ..widgets import RowTable
from ..widgets.budget_bar import compact
from ..widgets.table import clip, clip_paths
from .base import SCOPE_BINDING, CuratorScreen, LoadingPane, cursor_kept


def bars(items: list[tuple[str, int]], room: int, colour: str) -> Table:
    """Horizontal bars sized to `room` columns: label, bar, number (bars relative to the largest)."""
    label_w = min(max((len(label) for label, _ in items), default=4), 18, max(9, room // 3))
    num_w = max((len(compact(n)) for _, n in items), default=1)
    width = max(3, room - label_w - num_w - 2)
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True, overflow="ellipsis", width=label_w)
    grid.add_column(no_wrap=True, width=width)
    grid.add_column(justify="right", no_wrap=True, width=num_w)
    top = max((n for _, n in items), default=0) or 1
    for label, n in items:
        filled = max(1 if n else 0, round(width * n / top))
        grid.add_row(label, Text("█" * filled, style=colour), compact(n))
    return grid


class BudgetsScreen(CuratorScreen):
    BINDINGS = [
        SCOPE_BINDING,
        Binding("f", "focus_files", "Files", id="focus-largest", tooltip="Focus the largest files table"),
        Binding("enter", "open_highlighted", "Open", id="open-largest", tooltip="Open the highlighted file", show=False),
    ]
    HELP = ("Where the tokens go. Bars are relative to the largest item; the error colour means over budget. "
            "Growth: the size of the memory files at commits of the store's git history, then now.")
    _growth_root = None
    _growth_reading: tuple | None = None  # (the snapshot, its worker) of the last history read started

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="budgets-body"):
            yield LoadingPane()
            yield Static(id="startup")
            with Horizontal(id="budget-bars"):
                yield Static(id="tier-bars", classes="budget-panel")
                yield Static(id="domain-bars", classes="budget-panel")
                yield Static(id="histogram", classes="budget-panel")
            yield Static(id="budget-key")
            with Vertical(id="growth"):
                yield Static(Text("Growth over git history", style="bold"), id="growth-title")
                yield Sparkline([], id="growth-line")
                yield Static(id="growth-legend")
            with Horizontal(id="budget-tables"):
                with Vertical(classes="budget-table"):
                    yield Static("[b]Largest files[/b]")
                    files = RowTable(id="largest", cursor_type="row", zebra_stripes=True)
                    # fixed widths: a long path must not push the numbers out of the pane
                    files.add_column("file", width=34, key="file")
                    files.add_column("tokens", width=7, key="tokens")
                    files.add_column("tier", width=9, key="tier")
                    yield files
                with Vertical(classes="budget-table"):
                    yield Static(linked("ADR-017 cost model: loading one entry", "bold"), id="cost-title")
                    cost = RowTable(id="cost", cursor_type="row", zebra_stripes=True)
                    # fitted to the pane: a long index name is cut in its middle, never the numbers
                    cost.add_columns(("index", "index"), "n", "tiered", "+L0", "whole", "saves", "even at")
                    yield cost
                    yield Static(Text(COST_KEY, style="dim"), id="cost-key")

    def on_resize(self) -> None:
        # below 110 columns the two tables stack, each at full width, so no number is cut
        self.set_class(self.size.width < 110, "-narrow")

    def show(self, workspace) -> None:
        store, report = workspace.store, workspace.report
        theme = self.app.current_theme
        from ...budgets.startup import startup_of

        st = startup_of(store)  # the number the header, the overview and `curator tokens` show
        over = st.over
        head = Text(no_wrap=True, overflow="ellipsis")
        colour = "error" if over else "success"
        head.append("Start-up load  ", style="bold")
        cap = st.cap_tokens
        if cap is not None:
            used = st.capped  # the part the budget governs (all of it, but for Serena's list beside an index)
            if st.beside:  # the total first, as every face gives it, then the budgeted part (fits 80 columns)
                head.append(f"{st.tokens:,} tokens · ", style="bold")
            head.append(f"{used:,} / {cap:,} " + ("budgeted" if st.beside else "tokens"), style=f"bold {colour}")
            head.append("  over budget" if over else "  within budget", style=colour)
            width = 40
            filled = round(width * min(used, cap) / max(cap, 1))
            head.append("\n" + "█" * filled, style=colour)
            head.append("░" * (width - filled), style="dim")
            if used > cap:
                head.append("▶" * min(10, round(10 * (used - cap) / max(cap, 1)) or 1), style="bold " + colour)
        else:  # a cap in lines or records, or none: the number and what it is
            head.append(f"{st.tokens:,} tokens", style="bold")
            room = max(30, self.size.width - 6)
            if len(st.what) + 30 <= room:
                head.append(f"  {st.what}", style="dim")
            else:  # a long why ("nothing: committed …") wrapped under the number, never cut at the edge
                import textwrap

                head.append("".join(f"\n  {ln}" for ln in textwrap.wrap(st.what, room)), style="dim")
        for path, n in st.files[:8]:  # the largest are in the table below; `curator tokens` lists all
            head.append(f"\n  {path}  ", style="")
            head.append(f"{n:,}", style="dim")
        if len(st.files) > 8:
            head.append(f"\n  … and {len(st.files) - 8} more files loaded at start-up", style="dim")
        if st.beside and cap is not None:  # beside the budget: Serena's activation next to the index
            head.append(f"\n  + {st.beside_what}  ", style="")
            head.append(f"{st.beside:,}", style="dim")
        if st.past_cap:
            head.append(f"\n{st.past_cap_lines} line(s) fall past the cap:", style="bold " + (theme.warning or "warning"))
            for c in st.past_cap[:8]:
                head.append(f"\n  {c.path}:{c.line}  ", style="bold")
                head.append(c.text.strip()[:90], style="dim")
            if len(st.past_cap) > 8:
                head.append(f"\n  … and {len(st.past_cap) - 8} more", style="dim")
        self.query_one("#startup", Static).update(self._every_source() + head)
        primary = theme.primary or "info"
        room = max(20, (self.size.width - 6) // 3 - 2)
        # as in the tree: indexes on their own line, each tier its memories
        index_tokens: dict[str, int] = {}
        for rec in store.records.values():
            if rec.readable and rec.level < 2:
                index_tokens[rec.tier] = index_tokens.get(rec.tier, 0) + (rec.tokens or 0)
        tier_items = {t: n - index_tokens.get(t, 0) for t, n in report.tiers.items()}
        if index_tokens:
            tier_items["indexes"] = sum(index_tokens.values())
        tiers = sorted(tier_items.items(), key=lambda kv: -kv[1])
        self.query_one("#tier-bars", Static).update(self._panel("Tokens per tier", bars(tiers, room, primary)))
        domains = list(report.domain_tokens.items())[:12]
        self.query_one("#domain-bars", Static).update(self._panel("Tokens per domain", bars(domains, room, theme.accent or "accent")))
        hist = size_histogram(store)
        legend = Text("Tiers count memories, indexes on their own line (as in the tree). Domains: ", style="dim")
        legend.append("name", style="bold")
        legend.append(" = a domain index and the memories it routes to; ", style="dim")
        legend.append("name/", style="bold")
        legend.append(" = a folder no index routes to.", style="dim")
        self.query_one("#budget-key", Static).update(legend)
        self._start_growth(store)
        self.query_one("#histogram", Static).update(
            self._panel("Memory sizes (tokens)", bars(hist, room, theme.secondary or "secondary"))
        )
        files = self.query_one("#largest", DataTable)
        with cursor_kept(files):
            files.clear()
            rows = self._largest()
            self._files = rows
            names = clip_paths([r[1] for r in rows], 34)  # two rows never look the same
            for (key, _shown, tier, n, over), name in zip(rows, names, strict=True):
                files.add_row(clip(name, 34, "bold error" if over else ""), Text(f"{n:,}", justify="right"), tier,
                              key=key)
        cost = self.query_one("#cost", DataTable)
        with cursor_kept(cost):
            cost.clear()
            for d in report.domains:
                cost.add_row(
                    d.index, str(d.entries), f"{d.tiered_cached:,.0f}", f"{d.tiered_uncached:,.0f}",
                    f"{d.memory_tokens:,}", f"{d.savings_cached:.0f}%/{d.savings_uncached:.0f}%",
                    str(d.break_even) if d.break_even else "never", key=d.index,
                )

    def _sources(self):
        """(index, source) of the scope: every loaded source in the whole repository, else one."""
        repo = self.app.workbench
        if repo is None:
            return []
        from ...live.scope import is_source

        scope = self.app.scope  # (the instruction files' scope: every memory system's budgets)
        return [(i, src) for i, src in repo.loaded() if not is_source(scope) or i == scope]

    def _every_source(self) -> Text:
        """In the whole repository: each memory system's start-up load first (the details below
        are the current one's: s walks through them)."""
        from ...budgets.startup import startup_of

        out = Text(no_wrap=True, overflow="ellipsis")
        sources = self._sources()
        repo = self.app.workbench
        if repo is None or len(sources) < 2:
            return out
        out.append("Start-up load of every memory system", style="bold")
        for _, src in sources:
            st = startup_of(src.workspace.store)
            out.append(f"\n  {src.name}  ", style="bold")
            if st.beside and st.cap_tokens:  # the total, then the index against its budget
                out.append(f"{st.tokens:,} tokens", style="bold")
                out.append(f" ({st.capped:,} of {st.cap_tokens:,} in budget)", style="bold error" if st.over else "success")
            else:
                out.append(f"{st.tokens:,} tokens" + (f" of {st.cap_tokens:,}" if st.cap_tokens else ""),
                           style="bold error" if st.over else "success")
            cap = "" if st.cap_tokens else f"  cap: {st.cap_label}"
            out.append(cap + (f"; {st.past_cap_lines} lines past it" if st.past_cap_lines else ""), style="dim")
        out.append(f"\n\nBelow: {repo.sources[repo.current].name}", style="bold")
        out.append("  (s: one memory system at a time; Largest files: all of them)\n\n", style="dim")
        return out

    def _largest(self) -> list[tuple[str, str, str, int, bool]]:
        """(row key, path shown, tier, tokens, over budget): the scope's largest files; in the
        whole repository every source's, each path with its source's folder."""
        repo = self.app.workbench
        sources = self._sources()
        many = len(sources) > 1
        rows = []
        for i, src in sources:
            report = src.workspace.report
            over = {p for p, *_ in report.over_budget}
            pre = src.name.rstrip("/") + "/" if many else ""
            rows += [(f"{i}\t{p}", pre + p, tier, n, p in over) for p, tier, n in report.files[:200]]
        if repo is None:  # (a lone store, no workbench: its report alone)
            ws = self.app.workspace
            report = ws.report if ws is not None else None
            rows = [(f"{0}\t{p}", p, t, n, False) for p, t, n in report.files[:200]] if report is not None else []
        return sorted(rows, key=lambda r: -r[3])[:200]

    def _open_key(self, key: str | None) -> None:
        if not key or "\t" not in key:
            return
        i, path = key.split("\t", 1)
        repo = self.app.workbench
        if repo is not None and int(i) != repo.current:
            self.app.select_source(int(i))
        self.app.open_path(path)

    def action_open_highlighted(self) -> None:
        self._open_key(self.highlighted_key())

    def on_data_table_row_selected(self, event) -> None:
        self._open_key(event.row_key.value)

    def _start_growth(self, store) -> None:
        reading = self._growth_reading
        if reading is not None and reading[0] is store and not reading[1].is_finished:
            return  # this very snapshot's history is being read: reading it again would cancel that
        root = store.root
        if root != self._growth_root:  # another store: what was shown is not its history
            self._growth_root = root
            self.query_one("#growth-line", Sparkline).display = False
            self.query_one("#growth-legend", Static).display = False
            self.query_one("#growth-title", Static).update(
                Text.assemble(("Growth over git history", "bold"), ("  reading the git history…", "dim")))
        self._growth_reading = (store, self._read_growth(root, store.today))

    @work(thread=True, exclusive=True, exit_on_error=False, group="growth", description="read growth")
    def _read_growth(self, root, today) -> None:
        from textual.worker import get_current_worker

        growth = store_growth(root, today=today)
        if not get_current_worker().is_cancelled:
            self.app.hand_off(self._show_growth, root, growth)

    def _show_growth(self, root, growth: Growth) -> None:
        if root != self._growth_root or not self.is_mounted:
            return
        line = self.query_one("#growth-line", Sparkline)
        legend = self.query_one("#growth-legend", Static)
        title = Text(growth.title(), style="bold")
        if growth:
            line.data = [p.bytes for p in growth.points]
            legend.update(Text(growth.legend(), style="dim"))
        else:  # one line: the title and why there is nothing to draw
            title.append("  " + growth.legend(), style="dim")
        line.display = legend.display = bool(growth)
        self.query_one("#growth-title", Static).update(title)

    @staticmethod
    def _panel(title: str, body) -> Table:
        t = Table.grid()
        t.add_row(Text(title, style="bold"))
        t.add_row(body)
        return t

    def action_focus_files(self) -> None:
        self.query_one("#largest", DataTable).focus()
