"""Drift: each memory system's start-up load over git history as a chart (read in a worker),
the commits that grew it most, and every finding that says two things are out of step (index
rows and files, stale token counts, MEMORY.md and its topic files, entries and summaries,
instruction files that were copies), narrowed by kind (t) and text (/) as `curator drift --kind
--text` narrows it. Enter opens the file; x fixes the finding."""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Input, Static
from textual_plotext import PlotextPlot

from ...live.drift import drift_findings, filter_drift, kind_id, startup_history
from ..widgets import RowTable, TextBox
from ..widgets.table import clip, clip_paths
from .base import SCOPE_BINDING, FindingRows, LoadingPane

ICON = {2: ("✖", "bold error"), 1: ("▲", "warning"), 0: ("●", "info")}  # by Severity


class DriftScreen(FindingRows):
    BINDINGS = [
        SCOPE_BINDING,
        Binding("slash", "focus_filter", "Filter", id="filter-drift", tooltip="Filter by kind, check, path or words"),
        Binding("t", "cycle_kind", "Kind", id="cycle-drift-kind", tooltip="Kind of drift: all → each kind → all"),
        Binding("x", "fix_one", "Fix", id="fix-drift", tooltip="Preview and apply this finding's fix"),
        Binding("enter", "jump", "Open", id="open-drift", tooltip="Open the file at this finding", show=False),
    ]
    # (short: F1 shows it with the keys on one 80×24 screen)
    HELP = ("What is out of step. The chart: each memory system's start-up load at each commit (≈ tokens at "
            "today's tokens per byte), ending on today's number; the commits that grew it most. The table: "
            "index rows ↔ files, stale counts, MEMORY.md ↔ topic files, entries ↔ summaries, broken links, "
            "copies that diverged. Enter opens the file. CLI: `curator drift --kind KIND --text WORDS`.")
    AUTO_FOCUS = "#drift-table"

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.shown: list = []
        self.kind: str | None = None  # the one kind shown (t cycles it), None: every kind
        self._histories_for: tuple[tuple[int, int], ...] | None = None  # (source, its store) the chart is of

    def compose_body(self) -> ComposeResult:
        with Vertical(id="drift-body"):
            yield LoadingPane()
            with Horizontal(id="drift-bar"):
                yield TextBox(placeholder="/ filter", id="drift-filter", leave_to="#drift-table")
                yield Static(id="drift-scope")
            yield PlotextPlot(id="drift-chart")
            yield Static(id="drift-grew")
            yield RowTable(id="drift-table", cursor_type="row", zebra_stripes=True)
            yield Static(id="drift-detail")

    def show(self, workspace) -> None:
        from ...live.scope import scope_name, short_name

        repo = self.app.workbench
        if repo is None:
            return
        scope = self.app.scope
        every = drift_findings(repo, scope)
        self.kinds = list(dict.fromkeys(k for k, _ in every))  # what t cycles through: the kinds here
        text = self.query_one("#drift-filter", Input).value
        items = filter_drift(every, [self.kind] if self.kind else (), text)
        table = self.query_one(RowTable)
        row = table.cursor_row
        room = table.size.width or self.size.width
        self.shown = items
        kinds = max((len(k) for k, _ in items), default=4)
        widths = table.set_columns([("", 1), ("out of step", min(kinds, 22)), ("where", max(22, room * 3 // 10)),
                                    ("x", 1), ("message", None)], room)
        names = {i: short_name(src.spec) for i, src in repo.loaded()}
        many = scope is None and len(names) > 1
        # the source's short name, then the path inside it (as the tree and Problems show it),
        # cut in the middle so the name and the line number stay — or where it differs from the
        # others', when two would look the same
        prefixes = [f"{names[x.source]} " if many and x.source is not None else "" for _, x in items]
        paths = [(x.where if x.source is None else x.finding.path) + (f":{x.finding.line}" if x.finding.line else "")
                 for _, x in items]
        cuts = {}
        for width in {widths[2] - len(n) for n in prefixes}:
            cuts[width] = clip_paths(paths, width)
        for i, (kind, x) in enumerate(items):
            f = x.finding
            icon, style = ICON.get(int(f.severity), ("·", ""))
            name = prefixes[i]
            where = Text(name, style="dim").append_text(clip(cuts[widths[2] - len(name)][i], widths[2] - len(name)))
            table.add_row(clip(icon, 1, style), clip(kind, widths[1]), where,
                          Text("x", style="bold success") if f.fix is not None else Text(""),
                          clip(f.message, widths[4]), key=str(i))
        if items:
            table.move_cursor(row=min(max(row, 0), len(items) - 1))
        self._detail(table.cursor_row if items else None)
        narrowed = self.kind is not None or text.split()
        head = Text.assemble((f"{len(items)} of {len(every)}" if narrowed else f"{len(items)}", "bold"),
                             (" out of step", "bold"))
        if self.kind:
            head.append(" · ").append(kind_id(self.kind), style="bold accent")
        # (the bar shares its line with the filter: the scope in a few words)
        head.append(" · ").append("whole repository" if many else scope_name(repo, scope), style="bold")
        if len(repo.loaded()) > 1 and not self.kind:  # (the footer says it too: room for the kind)
            head.append("  s scope", style="dim")
        self.query_one("#drift-scope", Static).update(head)
        key = tuple((i, id(s.workspace.store)) for i, s in repo.loaded()
                    if s.workspace is not None and (scope is None or i == scope))  # (loaded: each has one)
        if key != self._histories_for:  # committed history changes only with the files
            self._histories_for = key
            self.query_one("#drift-grew", Static).update(Text("reading the git history…", style="dim"))
            self._read_histories([(repo.sources[i].name, ws.store) for i, _ in key
                                  if (ws := repo.sources[i].workspace) is not None])

    @work(thread=True, exclusive=True, exit_on_error=False, group="drift-history", description="read histories")
    def _read_histories(self, stores) -> None:
        from textual.worker import get_current_worker

        histories = [(name, startup_history(store)) for name, store in stores]
        if not get_current_worker().is_cancelled:
            self.app.hand_off(self._show_histories, histories)

    def _show_histories(self, histories) -> None:
        if not self.is_mounted:
            return
        chart = self.query_one(PlotextPlot)
        plt = chart.plt
        plt.clear_data()
        plt.clear_figure()
        drawn = [(n, h) for n, h in histories if h.points]
        chart.display = bool(drawn)  # no history anywhere: the line below says why, the table gets the rows
        dates = sorted({p.date for _, h in drawn for p in h.points})
        for name, h in drawn:
            xs = [dates.index(p.date) for p in h.points]
            plt.plot(xs, [p.approx_tokens for p in h.points], label=name, marker="braille")
        if dates:
            step = max(1, len(dates) // 4)
            ticks = list(range(0, len(dates), step))
            plt.xticks([float(i) for i in ticks], [dates[i][2:] for i in ticks])
            top = max(p.approx_tokens for _, h in drawn for p in h.points) or 1
            plt.yticks([0, top // 2, top], ["0", f"{top // 2:,}", f"{top:,}"])
        plt.title("start-up load, ≈ tokens, over git history")
        chart.refresh()
        lines = Text(no_wrap=True, overflow="ellipsis")
        grew = sorted(((d, name, p) for name, h in drawn for p, d in h.grew_most(2)), key=lambda g: -g[0])[:3]
        if grew:
            lines.append("grew most: ", style="bold")
        for i, (d, name, p) in enumerate(grew):
            lines.append(("\n" if i else "") + f"+{d:,} tok ", style="bold warning")
            lines.append(f"{name} {p.date} {p.commit[:7] if p.commit else 'work tree'} ", style="dim")
            lines.append(p.subject)
        missing = [f"{n}: {h.reason}" for n, h in histories if not h.points and h.reason]
        if missing:
            lines.append(("\n" if grew else "") + "no chart for " + "; ".join(missing), style="dim")
        self.query_one("#drift-grew", Static).update(lines)

    def _detail(self, index: int | None) -> None:
        """The highlighted finding whole: the table cuts its message."""
        text = Text(no_wrap=False)
        if index is not None and index < len(self.shown):
            kind, x = self.shown[index]
            f = x.finding
            text.append(f"{x.where}{':' + str(f.line) if f.line else ''}  ", style="bold")
            text.append(f.message)
            if f.fix is not None:
                text.append(f"  x: {f.fix.description}", style="success")
        self.query_one("#drift-detail", Static).update(text)

    @on(Input.Changed, "#drift-filter")
    def _filter_changed(self) -> None:
        self._redraw()

    @on(Input.Submitted, "#drift-filter")
    def _filter_done(self) -> None:
        self.query_one(DataTable).focus()

    def _redraw(self) -> None:
        if self.app.workspace is not None:
            self.show(self.app.workspace)

    def action_focus_filter(self) -> None:
        self.query_one("#drift-filter", Input).focus()

    def action_cycle_kind(self) -> None:
        """Every kind → each kind present in the scope, in the table's order → every kind."""
        order = [None, *getattr(self, "kinds", [])]
        i = order.index(self.kind) if self.kind in order else 0
        self.kind = order[(i + 1) % len(order)]
        self._redraw()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._detail(event.cursor_row)

    def scoped_row(self):
        table = self.query_one(DataTable)
        if not self.shown or table.cursor_row >= len(self.shown):
            return None
        return self.shown[table.cursor_row][1]

    def on_data_table_row_selected(self, event) -> None:
        self.action_jump()
