"""Review: the store's changes against git HEAD, grouped (records, index rows, tokens, findings,
golden queries); the highlighted change's file diff beside them; Enter opens the file."""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Static

from ...model.findings import Severity
from ..messages import OpenPath
from ..widgets import RowTable
from .base import CuratorScreen, LoadingPane

SEV = {Severity.ERROR: ("✖", "bold error"), Severity.WARNING: ("▲", "warning"), Severity.INFO: ("●", "info")}


def change_rows(store_review):
    """(key, group, change, what, file) for every change, grouped; file is the store path whose
    diff explains the change (None for totals)."""
    from ...reports.review_report import MARK, budget_line, record_line, row_line

    s = store_review
    out = []
    for i, c in enumerate(s.records):
        out.append((f"r{i}", "records", (f"{MARK[c.change]} {c.change}", c.change), record_line(c), c.path))
    for i, c in enumerate(s.rows):
        out.append((f"x{i}", "index rows", (f"{MARK[c.change]} {c.change}", c.change), row_line(c), c.index))
    for i, b in enumerate(s.budgets):
        if b.delta or b.crossed:
            out.append((f"b{i}", "tokens", ("over cap" if b.crossed else "delta", "crossed" if b.crossed else ""),
                        budget_line(b), None))
    for i, f in enumerate(s.introduced):
        where = f"{f.path}:{f.line}" if f.line else f.path
        out.append((f"n{i}", "findings", (f"{SEV[f.severity][0]} new", "new"), f"{f.check}  {where}  {f.message}", f.path))
    for i, f in enumerate(s.resolved):
        where = f"{f.path}:{f.line}" if f.line else f.path
        out.append((f"g{i}", "findings", ("✔ resolved", "resolved"), f"{f.check}  {where}  {f.message}", f.path))
    for i, q in enumerate(s.queries):
        rank = f"rank {q.rank_before or '–'} → {q.rank_after or '–'}"
        out.append((f"q{i}", "golden queries", (q.verdict, q.verdict), f"“{q.query}”  {rank}", None))
    return out


def _n(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


STYLE = {"added": "success", "modified": "warning", "renamed": "info", "moved": "accent", "removed": "error",
         "re-pointed": "info", "re-keyworded": "warning", "new": "bold error", "resolved": "success",
         "crossed": "bold error", "worse": "error", "better": "success"}


class ReviewScreen(CuratorScreen):
    BINDINGS = [
        Binding("r", "refresh_review", "Refresh", id="refresh-review", tooltip="Compare the store with git HEAD again"),
        Binding("enter", "open_change", "Open", id="open-change", tooltip="Open the changed file", show=False),
    ]
    HELP = ("The store's changes against git HEAD (staged and unstaged), grouped: records, index rows, "
            "tokens against their caps, findings new and resolved, golden queries whose results changed. "
            "The highlighted change's file diff shows on the right; Enter opens the file. "
            "Same as `curator review` on the command line.")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.review = None
        self.store_review = None
        self.files: dict[str, str | None] = {}

    def compose_body(self) -> ComposeResult:
        with Vertical(id="review-body"):
            yield LoadingPane()
            yield Static("comparing with git HEAD…", id="review-summary")
            with Horizontal(id="review-panes"):
                table = RowTable(id="review-changes", cursor_type="row", zebra_stripes=True)  # cut cells end in …
                table.add_columns("group", "change", "what")
                yield table
                with VerticalScroll(id="review-diff-scroll"):
                    yield Static("", id="review-diff")

    DEFAULT_CSS = """
    ReviewScreen #review-summary { height: auto; padding: 0 1; }
    ReviewScreen #review-panes { height: 1fr; }
    ReviewScreen #review-changes { width: 3fr; }
    ReviewScreen #review-diff-scroll { width: 2fr; border-left: solid $panel; padding: 0 1; }
    """

    def show(self, workspace) -> None:
        self.run_review(workspace.store.root)

    def action_refresh_review(self) -> None:
        ws = self.app.workspace
        if ws is not None:
            self.query_one("#review-summary", Static).update("comparing with git HEAD…")
            self.run_review(ws.store.root)

    @work(thread=True, exclusive=True, exit_on_error=False, group="review")
    def run_review(self, root) -> None:
        from ...review import GitError, review_repository

        try:
            review = review_repository(root, "HEAD", token_counter=self.app.token_counter)
        except GitError as exc:
            self.app.hand_off(self._failed, str(exc))
            return
        except Exception as exc:  # noqa: BLE001 - shown on the screen, never a traceback
            self.app.hand_off(self._failed, f"review failed: {exc}")
            return
        self.app.hand_off(self._reviewed, review)

    def _failed(self, message: str) -> None:
        self.query_one("#review-summary", Static).update(Text(f"No review: {message}", style="warning"))
        self.query_one(DataTable).clear()

    def _reviewed(self, review) -> None:
        from ...reports.review_report import worse

        self.review = review
        changed = review.changed
        self.store_review = changed[0] if changed else None
        summary = Text.assemble(("against ", ""), (f"{review.base} ({review.commit[:7]})", "bold"), "  ")
        table = self.query_one(DataTable)
        table.clear()
        self.files = {}
        if self.store_review is None:
            summary.append("✔ no changes to the store", style="bold success")
            self.query_one("#review-summary", Static).update(summary)
            self.query_one("#review-diff", Static).update("")
            return
        s = self.store_review
        bad = worse(s)
        summary.append(f"{_n(len(s.records), 'record')} · {_n(len(s.rows), 'row')} · "
                       f"{_n(len(s.introduced), 'new finding')} · {len(s.resolved)} resolved  ")
        summary.append("worse: " + "; ".join(bad) if bad else "nothing got worse",
                       style="bold error" if bad else "success")
        self.query_one("#review-summary", Static).update(summary)
        last = None
        for key, group, (label, kind), what, path in change_rows(s):
            table.add_row(Text(group if group != last else "", style="bold"), Text(label, style=STYLE.get(kind, "")),
                          what, key=key)
            last = group
            self.files[key] = path
        table.focus()
        self._show_diff(table)

    def on_data_table_row_highlighted(self, event) -> None:
        self._show_diff(event.data_table)

    def _show_diff(self, table) -> None:
        from ...reports.diff_report import STYLES

        key = self.highlighted_key()
        if key is None and table.row_count:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        path = self.files.get(key)
        body = Text()
        if self.store_review is not None and path:
            diff = self.store_review.file_diff(path)
            for line in diff.splitlines():
                body.append(line + "\n", style=next((st for prefix, st in STYLES if line.startswith(prefix)), "dim"))
            if not diff:
                body.append(f"{path}: unchanged (the change is elsewhere)", style="dim")
        self.query_one("#review-diff", Static).update(body)

    def action_open_change(self) -> None:
        path = self.files.get(self.highlighted_key())
        ws = self.app.workspace
        if path and ws is not None and path in ws.store.records:
            self.post_message(OpenPath(path))
        elif path:
            self.notify(f"{path} is not in the store now (removed)", severity="warning")

    def on_data_table_row_selected(self, event) -> None:
        self.action_open_change()
