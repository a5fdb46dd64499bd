"""Retrieval lab: a query box that re-ranks as you type (debounced, off the UI thread), the
fused list beside each source's list, the route trace with tokens, and "why not this one?"."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Input, Static
from textual.widgets.input import Selection
from textual.worker import get_current_worker

from ...base.children import Stopped
from ...reports.retrieval_report import (
    explanations,
    readable_terms,
    surface_forms,
)
from ..messages import OpenPath
from ..widgets import PathBox, RowTable, TextBox
from ..widgets.pane_title import PaneTitle
from .base import SCOPE_BINDING, CuratorScreen, LoadingPane
from .lab_engines import LabEngines, Superseded
from .lab_tables import fill_fused, fill_sources, show_sources
from .lab_text import (
    reason_text,
    result_name,
    same_snapshots,
    scores,
    source_label,
    trace_text,
    why_text,
)

if TYPE_CHECKING:
    from textual.timer import Timer

    from ...retrieval.multi import Engine
    from ...retrieval.results import SearchResult

DEBOUNCE = 0.15  # seconds of quiet typing before a search runs
SOURCES = ("route", "bm25", "prior", "semantic", "graph")  # each one's own list, shown while it runs


class RetrievalLabScreen(CuratorScreen):
    BINDINGS = [
        SCOPE_BINDING,
        Binding("slash", "focus_query", "Query", id="focus-query", tooltip="Type a query"),
        Binding("y", "focus_why", "Why not?", id="why-not", tooltip="Ask why a memory did not come back"),
        Binding("enter", "open_highlighted", "Open", id="open-result", tooltip="Open the highlighted memory", show=False),
    ]
    # (short: F1 shows it with the keys on one 80×24 screen)
    HELP = (
        "Type a query: results update as you type, ranked as `curator retrieve` ranks them — by route (rte: "
        "the ADR-017 keyword walk), bm25 (full text), prior (pri), semantic (sem: meaning) and graph (gph: "
        "links), fused into one list. Below it, why the highlighted result came back; with golden-queries.yaml, "
        "what `curator eval` scores (hit@1/hit@5/MRR@10). y asks why a memory did not come back; s: the whole "
        "repository or one memory system."
    )

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.engine = None
        self.engine_store = None
        self.engines: list[Engine] | None = None  # the whole repository: each loaded source's `multi.Engine` (fused as `curator retrieve`)
        self._wanted = None  # what the engines are built for: a store, or every loaded source's
        self.golden = None  # the eval report on the store's golden queries, if it has them
        self.result: SearchResult | None = None
        self._searched: str | None = None  # the words of the results shown
        self._timer: Timer | None = None
        self.last_ms = 0.0
        self.changed_at = self.shown_at = 0.0
        self.forms: dict[str, str] = {}
        self.reasons: dict[str, list[str]] = {}  # each shown hit's own reasons (reports.retrieval_report)
        self.unavailable = ""  # why the semantic source is not running, when it should
        self.builder: LabEngines | None = None  # builds the engines off the UI thread (lab_engines.py)
        self._ready_title = "fused"  # the title the lab shows before any query

    def compose_body(self) -> ComposeResult:
        with Vertical(id="lab-body"):
            yield LoadingPane()
            yield TextBox(placeholder="query, e.g. “undo a botched history rewrite” (Esc leaves)", id="lab-query",
                          leave_to="#fused", compact=True)
            with Horizontal(id="lab-columns"):
                with Vertical(id="lab-fused"):
                    yield PaneTitle("fused", classes="lab-title", id="lab-fused-title")
                    # one cell between columns, not two: every rank column fits at 80 columns
                    yield RowTable(id="fused", cursor_type="row", zebra_stripes=True, cell_padding=0)
                    yield Static(id="lab-reason")  # the highlighted result's own reasons
                # can_focus off: Tab goes from the results straight to the why-not box
                with VerticalScroll(id="lab-side", can_focus=False):
                    yield PaneTitle("why not this one?", classes="lab-title")
                    yield PathBox(placeholder="a path (Tab completes, Enter asks)", id="why-path", leave_to="#fused",
                                  compact=True)
                    yield Static(id="why")
                    yield PaneTitle("route trace", classes="lab-title")
                    yield Static(id="trace")
            with Horizontal(id="lab-sources"):
                for s in SOURCES:
                    with Vertical(classes="lab-source", id=f"src-{s}-list"):
                        yield Static(s, classes="lab-title", id=f"src-{s}-title")
                        yield RowTable(id=f"src-{s}", cursor_type="row", show_header=False)

    def on_resize(self) -> None:
        # a short terminal keeps the fused list and the why-not answer; the per-source lists
        # (their ranks are in the fused list too) come back when there is room
        show_sources(self, SOURCES, self.size.height >= 30)

    def _whole(self) -> list | None:
        """Every loaded source as (name, kind, prefix, store) when the app's scope is the whole
        repository of several memory systems; None: one source (the current one) is searched."""
        from ...live.scope import is_source, prefix_of

        repo = getattr(self.app, "workbench", None)
        if repo is None or is_source(self.app.scope) or len(repo.loaded()) < 2:
            return None
        single = bool(getattr(repo.layout, "single", False))
        return [(s.name, s.spec.kind, prefix_of(s.spec, single), s.workspace.store) for _, s in repo.loaded()]

    def show(self, workspace) -> None:
        whole = self._whole()
        if whole is None:
            paths = [p for p, r in workspace.store.records.items() if r.level == 2]
            wanted = workspace.store
        else:
            paths = [pre + p for _, _, pre, st in whole for p, r in st.records.items() if r.level == 2]
            wanted = tuple(st for *_, st in whole)
        self.query_one("#why-path", PathBox).choices = paths
        if not same_snapshots(self._wanted, wanted) or self.engine is None:
            # a new snapshot or scope: its own engine(s) (the old ones keep answering for the old
            # snapshot, never for files that have gone, until the new ones are ready)
            self._wanted = wanted
            self.builder = self.builder or LabEngines(self)
            self.builder.build(workspace.store, whole)
        if not self.live:
            self.query_one("#lab-query", Input).focus()  # (a change seen on disk never moves it)

    def _engines_ready(self, engines, wanted) -> None:
        if not same_snapshots(self._wanted, wanted):
            return  # a newer snapshot or another scope came while these were built
        self.result = None  # the last result was the old engines': searched again below
        self.engines, self.engine, self.engine_store = engines, engines[0].engine, None
        self._ready(engines[0].engine, sum(len(e.engine.docs) for e in engines), None)

    def _engine_ready(self, engine, store, report=None) -> None:
        ws = self.app.workspace
        if ws is not None and ws.store is not store or self._wanted is not store:
            return  # a newer snapshot (or the whole scope) came while this one's engine was built
        if engine is not self.engine or self.result and ("semantic" in self.result.per_source) != bool(getattr(engine, "semantic", None)):
            self.result = None  # the old engine's, or the words engine's before meaning started: again below
        self.engines = None
        self.engine, self.engine_store = engine, store
        self._ready(engine, len(engine.docs), report)

    def _ready(self, engine, docs: int, report) -> None:
        self.golden = report
        # with the store's golden queries, each list's title carries the numbers `curator eval` prints
        title = f"fused · {docs:,} loadable memories"
        if report is not None:
            title += f" · golden {scores(report, 'fused')} (hit@1/hit@5/MRR@10, {report.queries} queries)"
        self._ready_title = title
        self._title(title)
        weights = engine.weights()
        running = self._ranking_sources(engine)
        for s in SOURCES:  # each source's weight in the fusion (0: shown, explained, not fused)
            self.query_one(f"#src-{s}-list").display = s in running  # a source that is off has no list
            extra = f" · {scores(report, s)}" if report is not None and s in report.scores else ""
            self.query_one(f"#src-{s}-title", Static).update(f"{s} · weight {weights.get(s, 1.0):g}{extra}")
        if self.query_one("#lab-query", Input).value.strip():
            self.run_search(self.query_one("#lab-query", Input).value)

    def _ranking_sources(self, engine) -> tuple[str, ...]:
        """The sources this engine (or any of the whole repository's) ranks with."""
        engines = [e.engine for e in self.engines] if self.engines is not None else [engine]
        graph = any(e.semantic is not None and e.weights().get("graph", 0) > 0 for e in engines)
        return tuple(dict.fromkeys(s for e in engines for s in e.sources)) + (("graph",) if graph else ())

    def _title(self, text: str, first: bool = False) -> None:
        # the lab searches the app's scope (s cycles it): the whole repository or one memory
        # system, named after the text when it comes `first` (progress: seen at 80 columns)
        repo = getattr(self.app, "workbench", None)
        if repo is not None and len(repo.loaded()) > 1:
            from ...live.scope import scope_name, short_name

            scope = scope_name(repo, None) if self.engines is not None else short_name(repo.sources[repo.current].spec)
            text = f"{text} · {scope}" if first else f"{scope} · {text}"
        self.query_one("#lab-fused-title", Static).update(text)

    # -- searching -------------------------------------------------------------

    @on(Input.Changed, "#lab-query")
    def _query_changed(self, event: Input.Changed) -> None:
        self.changed_at = time.perf_counter()  # for the benchmark: typing → results shown
        if self._timer is not None:
            self._timer.stop()
        if not event.value.strip():
            self._cleared()
            return
        self._timer = self.set_timer(DEBOUNCE, lambda: self.run_search(event.value))
        LabEngines.read_ahead(self.engine, self.engines, event.value)

    def _cleared(self) -> None:
        """No words: no results (the last query's would stand under an empty box), no search on its way."""
        self.workers.cancel_group(self, "lab-search")
        if self.result is None and not self.query_one("#fused", RowTable).row_count:
            return  # nothing shown (a new engine's search may be on its way: cancelled above)
        self.result, self._searched, self.reasons = None, None, {}
        for table in self.query(RowTable):
            table.clear()
        for pane in ("#lab-reason", "#trace", "#why"):
            self.query_one(pane, Static).update("")
        self._title(self._ready_title)

    @on(Input.Submitted, "#lab-query")
    def _query_submitted(self, event: Input.Submitted) -> None:
        if self._timer is not None:
            self._timer.stop()
        self.run_search(event.value)
        self.query_one("#fused", DataTable).focus()

    @work(thread=True, exclusive=True, group="lab-search", exit_on_error=False, description="search")
    def run_search(self, query: str) -> None:
        engine, engines = self.engine, self.engines
        if engine is None or not query.strip():
            return
        def show(*shown) -> None:  # (newer words are searched: an older search finishing last is dropped)
            if not get_current_worker().is_cancelled:
                self.app.hand_off(self._show_result, *shown)

        try:  # the words' ranking first when the model has passages to read for these words
            show(*LabEngines.search(self.app, engine, engines, query, words_first=show))
        except (Superseded, Stopped):  # a newer search took over; the app is leaving
            return
        except Exception as exc:  # said where the results go, not swallowed by the worker
            self.app.hand_off(self._title, f"the search failed: {type(exc).__name__}: {exc}")
            raise

    def _show_result(self, result, elapsed_ms: float, also=()) -> None:
        if not self.query_one("#lab-query", Input).value.strip():
            return  # the words were cleared while they were searched
        again = self._searched == result.query  # the same words on a newer snapshot: keep the cursor
        self._searched = result.query
        self.result, self.last_ms = result, elapsed_ms
        self.forms = forms = surface_forms(result.query)
        self.reasons = explanations(result, forms)[0]  # each hit's own, as `curator retrieve` prints them
        fused = self.query_one("#fused", RowTable)
        room = self.query_one("#lab-fused").size.width
        fill_fused(fused, result, room, again, self.result_name)
        self._reason()
        if self.query_one("#lab-sources").display:  # not filled while hidden (~2 ms a search)
            fill_sources(self, SOURCES, result)
        self.query_one("#trace", Static).update(trace_text(result, also, self.query_one("#trace").size.width))
        n = len(result.hits)
        words = f"words: {' '.join(readable_terms(result)[:8])}"
        self._title(f"fused · {n} result(s) · {words}")
        why = self.query_one("#why-path", Input).value.strip()
        if why:
            self._explain(why)
        self.shown_at = time.perf_counter()

    @on(DataTable.RowHighlighted, "#fused")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._reason()

    def _reason(self) -> None:
        """Under the results: why the highlighted one came back — its full path, its fused score
        and rank in every source, then its own reasons (the lines `curator retrieve` prints)."""
        out = self.query_one("#lab-reason", Static)
        table = self.query_one("#fused", RowTable)
        hits = {h.path: h for h in self.result.hits} if self.result is not None else {}
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value if table.row_count else None
        h = hits.get(key) if key is not None else None
        if h is None:
            out.update("")
            return
        within = source_label(self.engines, self.app.workbench, h.path) if self.engines is not None else None
        text = reason_text(self.result, h, self.reasons.get(h.path, []), self.forms, within, out.size.width)
        if self.unavailable:
            text.append(f"\nsemantic source unavailable: {self.unavailable}", style="warning")
        out.update(text)

    # -- why not? ----------------------------------------------------------------

    @on(Input.Submitted, "#why-path")
    def _why_submitted(self, event: Input.Submitted) -> None:
        self._explain(event.value.strip())

    def _explain(self, path: str) -> None:
        out = self.query_one("#why", Static)
        if self.engine is None or self.result is None:
            out.update(Text("type a query first (/): the answer says why this memory is not among its results",
                            style="warning"))
            return
        if self.engines is not None:  # the whole repository: the path in any source
            from ...retrieval.multi import explain

            hops = explain(self.engines, path, self.result)
        else:
            hops = self.engine.explain(path, self.result.query, self.result)
        out.update(why_text(path, hops, self.forms))

    def result_name(self, path: str, tail: str | None = None) -> str:
        return result_name(self.engines, self.app.workbench, path, tail)

    def _open(self, key: str | None) -> None:
        """Open a result; in the whole repository, in its own source (made current)."""
        from ...retrieval.multi import locate

        if not key:
            return
        if self.engines is None:
            if self.app.workspace is not None and key in self.app.workspace.store.records:
                self.post_message(OpenPath(key))
            return
        bench = self.app.workbench
        if bench is None:
            return
        e, rel = locate(self.engines, key)
        index = next((i for i, s in bench.loaded() if e is not None and s.name == e.name), None)
        if index is not None:
            if index != bench.current:
                self.app.select_source(index)
            self.post_message(OpenPath(rel))

    def action_open_highlighted(self) -> None:
        self._open(self.highlighted_key())

    def on_data_table_row_selected(self, event) -> None:
        self._open(event.row_key.value)

    # -- actions -------------------------------------------------------------------

    def action_focus_query(self) -> None:
        self.query_one("#lab-query", Input).focus()

    def action_focus_why(self) -> None:
        key = self.highlighted_key()
        box = self.query_one("#why-path", Input)
        if key:
            box.value = key
            # selected, the cursor at its start: a typed path replaces it, an arrow keeps it to edit
            box.selection = Selection(len(key), 0)
            self._explain(key)
        box.focus()
