"""Review: the memory's changes against git HEAD, grouped (records, index rows, tokens, findings,
golden queries); the highlighted change's file diff beside them; Enter opens the file. In the
whole-repository scope every memory system's changes, each under its name, and each agent's
start-up change from the instruction files (as `curator review` on the repository)."""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.coordinate import Coordinate
from textual.widgets import DataTable, Static

from ...model.findings import Severity
from ..messages import OpenPath
from ..widgets import RowTable
from ..widgets.fitting import Phrases
from .base import SCOPE_BINDING, CuratorScreen, LoadingPane

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
        SCOPE_BINDING,
        Binding("r", "refresh_review", "Refresh", id="refresh-review", tooltip="Compare with git HEAD again"),
        Binding("enter", "open_change", "Open", id="open-change", tooltip="Open the changed file", show=False),
    ]
    HELP = ("The memory's changes against git HEAD (staged and unstaged), grouped: records, index rows, "
            "tokens against their caps, findings new and resolved, golden queries whose results changed. "
            "In the whole repository every memory system's changes, each under its name, and each agent's "
            "start-up change from the instruction files; s narrows to one memory system. "
            "The highlighted change's file diff shows on the right; Enter opens the file. "
            "Same as `curator review` on the command line (on the repository, or on one memory folder).")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.review = None
        self.store_review = None
        self.whole = False  # the review covers the whole repository (every memory system)
        self.files: dict[str, tuple] = {}  # row key → (StoreReview or AgentChange, path or None)
        self.heads: set[str] = set()  # the rows naming a memory system
        self.idents: dict[str, tuple] = {}  # row key → the change's identity (keys are positions)

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
    ReviewScreen #review-panes.-stacked { layout: vertical; }
    ReviewScreen #review-panes.-stacked > #review-changes { width: 1fr; height: 3fr; }
    ReviewScreen #review-panes.-stacked > #review-diff-scroll { width: 1fr; height: 2fr; border-left: none;
        border-top: solid $panel; }
    """
    STACKED_BELOW = 110  # narrower: the diff goes under the changes (each gets the whole width)

    def on_resize(self, event) -> None:
        self.query_one("#review-panes").set_class(event.size.width < self.STACKED_BELOW, "-stacked")

    def on_mount(self) -> None:
        self.query_one("#review-panes").set_class(self.app.size.width < self.STACKED_BELOW, "-stacked")

    def show(self, workspace) -> None:
        self.run_review(*self._target(workspace))

    def _target(self, workspace):
        """(folder to review, whole?): the repository when the scope is whole and it holds more
        than one memory system, else the current memory system's folder (today's one-store view)."""
        from ...live.scope import is_source

        repo = self.app.workbench  # (the instruction files' scope: the repository, each agent's start-up)
        if not is_source(self.app.scope) and repo is not None and len(repo.loaded()) > 1:
            return repo.layout.root, True
        return workspace.store.root, False

    def action_refresh_review(self) -> None:
        ws = self.app.workspace
        if ws is not None:
            self.query_one("#review-summary", Static).update("comparing with git HEAD…")
            self.run_review(*self._target(ws))

    @work(thread=True, exclusive=True, exit_on_error=False, group="review", description="review changes")
    def run_review(self, root, whole: bool = False) -> None:
        from textual.worker import get_current_worker

        from ...base.tokens import estimating
        from ...review import GitError, review_repository

        try:
            review = review_repository(root, "HEAD", token_counter=self.app.token_counter, persist=not estimating(),
                                       meaning=self.app.load_options.meaning)
        except GitError as exc:
            self.app.hand_off(self._failed, str(exc))
            return
        except Exception as exc:  # noqa: BLE001 - shown on the screen, never a traceback
            self.app.hand_off(self._failed, f"review failed: {exc}")
            return
        if not get_current_worker().is_cancelled:  # another scope came meanwhile: its review wins
            self.app.hand_off(self._reviewed, review, whole)

    def _failed(self, message: str) -> None:
        self.query_one("#review-summary", Static).update(Text(f"No review: {message}", style="warning"))
        self.query_one(DataTable).clear()

    def _reviewed(self, review, whole: bool = False) -> None:
        from ...reports.review_report import totals_line, worse, worse_all

        self.review, self.whole = review, whole
        changed = review.changed
        self.store_review = changed[0] if changed else None
        # phrases wrapped between phrases only: a total is never cut, never split from its word
        summary = [Text.assemble(("against ", ""), (f"{review.base} ({review.commit[:7]})", "bold"))]
        table = self.query_one(DataTable)
        # a re-run (r, or the watcher's swap after an edit) keeps the cursor on the same change
        at = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value if table.row_count else None
        was = self.idents.get(at) if at is not None else None
        table.clear()
        self.files, self.heads, self.idents = {}, set(), {}
        bad = []
        if whole or len(changed) > 1:
            summary += [Text(p) for p in totals_line(review).split(" · ")]
            bad = worse_all(review)
        elif self.store_review is not None:
            s = self.store_review
            summary += [Text(_n(len(s.records), 'record')), Text(_n(len(s.rows), 'row')),
                        Text(_n(len(s.introduced), 'new finding')), Text(f"{len(s.resolved)} resolved")]
            bad = worse(s)
        if self.store_review is None and not (whole and review.agents):
            summary.append(Text("✔ no changes to the " + ("memory" if whole else "store"), style="bold success"))
            self.query_one("#review-summary", Static).update(Phrases(summary))
            self.query_one("#review-diff", Static).update("")
            return
        summary.append(Text("worse: " + "; ".join(bad) if bad else "nothing got worse",
                            style="bold error" if bad else "success"))
        self.query_one("#review-summary", Static).update(Phrases(summary))
        if whole or len(changed) > 1:  # (one folder may hold several stores: docs/*-experience)
            self._fill_whole(table, review, agents=whole)
        else:
            self._fill(table, self.store_review, "")
        again = next((k for k, ident in self.idents.items() if ident == was), None) if was else None
        if again is not None:
            table.move_cursor(row=table.get_row_index(again))
        elif table.row_count > 1 and (first := table.coordinate_to_cell_key(Coordinate(0, 0)).row_key.value) \
                is not None and first in self.heads:
            table.move_cursor(row=1)  # past the first system's name, onto its first change
        table.focus()
        self._show_diff(table)

    def _fill(self, table, s, prefix: str) -> None:
        last = None
        for key, group, (label, kind), what, path in change_rows(s):
            table.add_row(Text(group if group != last else "", style="bold"), Text(label, style=STYLE.get(kind, "")),
                          what, key=prefix + key)
            last = group
            self.files[prefix + key] = (s, path)
            # the same change in the next review: its store, group, kind and file (else its place)
            self.idents[prefix + key] = (s.source, group, kind, path or key)

    def _fill_whole(self, table, review, agents: bool = True) -> None:
        """Each agent's start-up change first (the instruction files), then every changed memory
        system under a row naming it, its changes grouped beneath."""
        for i, a in enumerate(review.agents if agents else ()):
            files = ", ".join(f.words() for f in a.files)
            table.add_row(Text("start-up" if i == 0 else "", style="bold"),
                          Text(f"{a.delta:+,} tok", style="error" if a.delta > 0 else "success" if a.delta < 0 else ""),
                          f"{a.agent}: {files}", key=f"a{i}")
            self.files[f"a{i}"] = (a, None)
            self.idents[f"a{i}"] = ("agent", a.agent)
        for si, s in enumerate(review.changed):
            # the memory system's name heads its changes (in the widest column: names run long)
            # what changed in it, the counts that are not 0 (the summary above says the rest): whole at 80 columns
            counts = [_n(n, word) for n, word in ((len(s.records), "record"), (len(s.rows), "row"),
                                                  (len(s.introduced), "new finding")) if n]
            counts += [f"{len(s.resolved)} resolved"] if s.resolved else []
            table.add_row(Text(""), Text(s.status, style="dim"),
                          Text.assemble((s.source, "bold underline"), (f"  {' · '.join([s.kind, *counts])}", "dim")),
                          key=f"s{si}")
            self.files[f"s{si}"] = (s, None)
            self.heads.add(f"s{si}")
            self.idents[f"s{si}"] = ("source", s.source)
            self._fill(table, s, f"s{si}.")

    def on_data_table_row_highlighted(self, event) -> None:
        self._show_diff(event.data_table)

    def _show_diff(self, table) -> None:
        from ...reports.diff_report import FittedDiff
        from ...review.agent_startup import AgentChange

        key = self.highlighted_key()
        if key is None and table.row_count:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        owner, path = self.files.get(key, (None, None)) if key is not None else (None, None)
        body = Text()
        if isinstance(owner, AgentChange):  # what the agent loads at start-up, file by file
            body.append(f"{owner.agent} start-up: {owner.before:,} → {owner.after:,} tokens\n", style="bold")
            for f in owner.files:
                body.append(f"  {f.words()}\n")
            body.append("(7 shows what each agent loads)", style="dim")
        elif key in self.heads:  # a memory system's name row
            from ...reports.review_report import worse

            bad = worse(owner)
            body.append(f"{owner.source} ({owner.kind}, {owner.status})\n", style="bold")
            body.append("worse: " + "; ".join(bad) if bad else "nothing got worse", style="error" if bad else "success")
        elif owner is not None and path:
            diff = owner.file_diff(path)
            if diff:  # each line fitted to the pane, never wrapped
                self.query_one("#review-diff", Static).update(FittedDiff(diff))
                return
            body.append(f"{path}: unchanged (the change is elsewhere)", style="dim")
        self.query_one("#review-diff", Static).update(body)

    def action_open_change(self) -> None:
        key = self.highlighted_key()
        owner, path = self.files.get(key, (None, None)) if key is not None else (None, None)
        if not path:
            return
        repo, ws = self.app.workbench, self.app.workspace
        where = self.review.repo / owner.source / path if self.review is not None else None
        if repo is not None and where is not None:  # the file's own memory system, made current
            # (review names a file inside the folder it found in git, the session inside its store)
            hit = repo.locate(where)
            if hit is None and where.is_file():  # e.g. a store deeper than the app looks for stores
                self.notify(f"{owner.source}/{path} is in no memory system the app loaded "
                            f"(`curator {owner.source}` opens that one)", severity="warning")
                return
            if hit is not None:
                if hit[0] != repo.current:
                    self.app.select_source(hit[0])
                ws, path = self.app.workspace, hit[1]
        if ws is not None and path in ws.store.records:
            self.post_message(OpenPath(path))
        else:
            self.notify(f"{path} is not in the store now (removed)", severity="warning")

    def on_data_table_row_selected(self, event) -> None:
        self.action_open_change()
