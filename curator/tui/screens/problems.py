"""Every finding, grouped by severity and check, filterable; Enter jumps to the place."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Input, Static

from ...checks import CHECKS
from ...live.scope import Scoped
from ...model.findings import Severity
from ..flows.repository import is_instruction
from ..messages import FixFindings
from ..widgets import RowTable, TextBox
from ..widgets.table import clip, clip_paths
from .base import SCOPE_BINDING, FindingRows, LoadingPane

SEV = {Severity.ERROR: ("✖ error", "bold error"), Severity.WARNING: ("▲ warning", "warning"), Severity.INFO: ("● info", "info")}


SEVERITIES = Binding.Group("Severities")


class ProblemsScreen(FindingRows):
    BINDINGS = [
        SCOPE_BINDING,
        Binding("slash", "focus_filter", "Filter", id="filter-problems", tooltip="Filter findings by text"),
        Binding("e", "toggle_severity('error')", "Errors", id="toggle-errors", group=SEVERITIES, tooltip="Show or hide errors"),
        Binding("w", "toggle_severity('warning')", "Warnings", id="toggle-warnings", group=SEVERITIES, tooltip="Show or hide warnings"),
        Binding("i", "toggle_severity('info')", "Infos", id="toggle-infos", group=SEVERITIES, tooltip="Show or hide infos"),
        Binding("enter", "jump", "Jump", id="jump-to-problem", tooltip="Open the file at this finding", show=False),
        Binding("x", "fix_one", "Fix", id="fix-problem", tooltip="Preview and apply this finding's fix"),
        Binding("X", "fix_check", "Fix check", id="fix-check", tooltip="Preview and apply every fix of this check"),
        Binding("P", "app.prune", "Prune", id="open-prune", show=False, tooltip="Pick transient records to archive or delete"),
    ]
    HELP = ("Every finding in the scope written at the top (the whole repository, or the memory system s "
            "narrowed it to). / filters (Esc or ↓ goes back); e / w / i toggle severities; Enter jumps.")
    AUTO_FOCUS = "#problems"  # the table, never the filter: j/k/1-5 are keys here, not text

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.hidden: set[str] = set()
        self.shown: list[Scoped] = []
        self._room = -1  # the width the table's rows were last cut for

    def compose_body(self) -> ComposeResult:
        with Vertical(id="problems-body"):
            yield LoadingPane()
            with Horizontal(id="problems-bar"):
                yield TextBox(placeholder="/ filter: check id, path or words", id="problem-filter",
                              leave_to="#problems")
                yield Static("", id="problem-counts")
            yield RowTable(id="problems", cursor_type="row", zebra_stripes=True)
            yield Static("", id="problem-detail")

    def show_instructions(self, model) -> None:
        for pane in self.query(LoadingPane):
            pane.display = False
        self.refilter()

    def show(self, workspace) -> None:
        self.refilter()
        if not self.live:  # (a change seen on disk never moves the focus, e.g. out of the filter)
            self.query_one(DataTable).focus()

    @on(Input.Changed, "#problem-filter")
    def _filter_changed(self) -> None:
        self.refilter()

    @on(Input.Submitted, "#problem-filter")
    def _filter_done(self) -> None:
        self.query_one(DataTable).focus()

    def _repository(self):
        """The session whose findings are listed (None: nothing loaded yet)."""
        ws, repo = self.app.workspace, self.app.workbench
        if ws is None or repo is None:
            model = self.app.context_model
            if repo is not None or model is None or not model.agents:
                return None
            from ...live.instructions import instructions_workbench

            repo = instructions_workbench(model)  # no memory: the instruction findings alone
        return repo

    def all_findings(self) -> list:
        """Every finding in the scope, unfiltered (`scope.Scoped` rows)."""
        from ...live.scope import scoped_findings

        repo = self._repository()
        return scoped_findings(repo, self.app.scope) if repo is not None else []

    def refilter(self) -> None:
        from ...live.scope import scope_name, short_name

        repo = self._repository()
        if repo is None:
            return
        scope = self.app.scope
        everything = self.all_findings()
        words = self.query_one("#problem-filter", Input).value.lower().split()
        items = []
        for x in everything:
            f = x.finding
            if f.severity.label in self.hidden:
                continue
            hay = f"{f.check} {x.where} {f.message} {f.target or ''}".lower()
            if all(w in hay for w in words):
                items.append(x)
        table = self.query_one(RowTable)
        row = table.cursor_row
        before = self.shown[row] if 0 <= row < len(self.shown) else None
        self.shown = items
        room = self._room = table.size.width or self.size.width
        narrow = room < 110  # the severity as its icon, the check id in the detail: the message keeps the room
        many = scope is None and len(repo.loaded()) > 1
        names = {i: short_name(src.spec) for i, src in repo.loaded()}
        # the source column labels a row: its path is the one inside that source (as the tree shows it)
        wheres = [(x.where if x.source is None else x.finding.path if x.finding.path != "." else "(store)")
                  + (f":{x.finding.line}" if x.finding.line else "") for x in items]
        columns: list[tuple[str | Text, int | None]] = [("" if narrow else "severity", 1 if narrow else 9)]
        # no source: found across sources, or in the instruction files (`curator context`)
        labels = [names.get(x.source) or ("context" if x.finding.check.startswith(("instructions.", "skills."))
                                          else "across") for x in items]
        if many:  # as wide as every label it shows (`context` is not `conte…`)
            columns.append(("source", min(8, max((len(n) for n in labels), default=6))))
        if not narrow:
            columns.append(("check", min(24, max((len(x.finding.check) for x in items), default=5))))
        columns += [("x", 1), ("where", min(max(22, room * 3 // 10), max((len(w) for w in wheres), default=5))),
                    ("message", None)]
        widths = table.set_columns(columns, room)
        wheres = clip_paths(wheres, widths[len(columns) - 2])  # two rows never look the same
        for i, (x, where, source) in enumerate(zip(items, wheres, labels, strict=True)):
            f = x.finding
            label, style = SEV[f.severity]
            cells = [clip(label.split()[0] if narrow else label, widths[0], style)]
            if many:
                cells.append(clip(source, widths[1], "dim"))
            if not narrow:
                cells.append(clip(f.check, widths[len(cells)]))
            cells.append(Text("x", style="bold success") if f.fix is not None else Text(""))
            cells.append(clip(where, widths[len(cells)]))
            cells.append(clip(f.message, widths[len(cells)]))
            table.add_row(*cells, key=str(i))
        if items:
            # the same finding stays under the cursor when a new snapshot moves it (or keeps it)
            same = next((i for i, x in enumerate(items) if x == before), None) if before is not None else None
            table.move_cursor(row=same if same is not None else min(row, len(items) - 1))
        hidden = f" · hidden: {', '.join(sorted(self.hidden))}" if self.hidden else ""
        self.query_one("#problem-counts", Static).update(
            Text.assemble(f"{len(items)} of {len(everything)}{hidden} · ",
                          (scope_name(repo, scope) if repo.sources else "the instruction files", "bold"),
                          (" · s scope" if len(repo.loaded()) > 1 else "", "dim")))
        self._detail(table.cursor_row if items else None)

    def on_resize(self) -> None:
        if self.app.workspace is not None or self.app.context_model is not None:
            self.call_after_refresh(self._refit)

    def _refit(self) -> None:
        """Fill the table again only when its width changed (the first layout after mounting
        usually gives the width the rows were already cut for: 2,000 rows cost ~0.3 s)."""
        table = self.query_one(RowTable)
        if (table.size.width or self.size.width) != self._room:
            self.refilter()

    def _detail(self, index: int | None) -> None:
        detail = self.query_one("#problem-detail", Static)
        if index is None or index >= len(self.shown):
            detail.update(Text("no findings match", style="dim"))
            return
        x = self.shown[index]
        f = x.finding
        label, style = SEV[f.severity]
        text = Text()
        text.append(f"{label}  {f.check}", style=style)
        spec = CHECKS.get(f.check)
        if spec:
            ws = self.app.workspace
            text.append(f" — {spec.text(config=ws.store.config if ws else None)}", style="dim")
        where = x.where if f.path != "." else "the whole store:" if x.where == "." else f"{x.where} — the whole store:"
        text.append(f"\n{where}" + (f":{f.line}" if f.line else ""), style="bold")
        text.append(f"  {f.message}")
        if f.suggestion:
            text.append(f"\nsuggestion: {f.suggestion}", style="success")
        if f.fix is not None:
            text.append(f"\nfix: {f.fix.description}", style="bold success")
            text.append(f"  (x applies it after a diff preview; `curator fix --check {f.check}`)", style="dim")
        detail.update(text)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._detail(event.cursor_row)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_jump()

    def action_focus_filter(self) -> None:
        self.query_one("#problem-filter", Input).focus()

    def action_toggle_severity(self, severity: str) -> None:
        self.hidden ^= {severity}
        self.refilter()

    def scoped_row(self):
        table = self.query_one(DataTable)
        if not self.shown or table.cursor_row >= len(self.shown):
            return None
        return self.shown[table.cursor_row]

    def action_fix_check(self) -> None:
        row = self.scoped_row()
        if row is not None and is_instruction(row.finding):  # every one of the check, as `curator fix --check`
            f = row.finding
            same = [x.finding for x in self.all_findings() if x.finding.check == f.check and x.finding.fix is not None]
        else:
            f = self._current()
            if f is None:
                return
            ws = self.app.workspace
            same = [g for g in ws.findings if g.check == f.check and g.fix is not None] if ws is not None else []
        if not same:
            self.by_hand(f)  # (a collision: its row's keyword editor)
            return
        self.post_message(FixFindings(same))
