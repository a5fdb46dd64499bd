"""CuratorApp: registration, global bindings and the workers that load and re-check the store."""

from __future__ import annotations

from pathlib import Path

from textual import work
from textual.app import App
from textual.binding import Binding
from textual.signal import Signal

from .commands import CuratorCommands
from .config import Config
from .screens import BudgetsScreen, HelpScreen, MainScreen, ProblemsScreen, RetrievalLabScreen
from .screens.review import ReviewScreen
from .screens.sessions import SessionsScreen
from .settings import Settings, load_settings, save_settings
from .themes import DEFAULT_THEME, available_themes

SCREENS_GROUP = Binding.Group("Screens", compact=True)  # "1234 Screens": the footer fits 80 columns


class CuratorApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "curator"
    COMMANDS = App.COMMANDS | {CuratorCommands}
    MODES = {
        "store": MainScreen,
        "problems": ProblemsScreen,
        "budgets": BudgetsScreen,
        "lab": RetrievalLabScreen,
        "sessions": SessionsScreen,
        "review": ReviewScreen,
    }
    DEFAULT_MODE = "store"
    BINDINGS = [
        Binding("1", "switch_mode('store')", "Store", id="show-store", group=SCREENS_GROUP, tooltip="The store tree and the selected file"),
        Binding("2", "switch_mode('problems')", "Problems", id="show-problems", group=SCREENS_GROUP, tooltip="Every finding"),
        Binding("3", "switch_mode('budgets')", "Budgets", id="show-budgets", group=SCREENS_GROUP, tooltip="Tokens, budgets and the cost model"),
        Binding("4", "switch_mode('lab')", "Lab", id="show-lab", group=SCREENS_GROUP, tooltip="What would the agent retrieve?"),
        Binding("5", "switch_mode('sessions')", "Sessions", id="show-sessions", group=SCREENS_GROUP,
                tooltip="The agent's sessions: browse, search, mine", show=False),
        Binding("f1,question_mark", "help", "Help", id="help", tooltip="Keys and what this screen is for"),
        Binding("ctrl+r", "reload_store", "Reload", id="reload-store", tooltip="Re-read the store and re-run the checks", show=False),
        Binding("ctrl+t", "next_theme", "Theme", id="next-theme", tooltip="Cycle through the themes", show=False),
        Binding("ctrl+z", "undo", "Undo", id="undo", tooltip="Undo the last curator operation (repeatable)"),
        Binding("q", "quit", "Quit", id="quit", tooltip="Leave curator"),
    ]

    def __init__(
        self,
        store_root: Path,
        *,
        given: str | None = None,
        config: Config | None = None,
        token_counter=None,
        theme: str | None = None,
        notice: str | None = None,
        remember_theme: bool = True,
        layout=None,
    ) -> None:
        super().__init__()
        self.store_root = Path(store_root)
        self.layout = layout  # model.sources.Layout: every memory system of the repository
        self.repo = None  # the headless session (curator.session.Session) once loaded
        self.given = given or str(store_root)
        self.store_config = config
        self.token_counter = token_counter
        self.requested_theme = theme
        self.notice = notice
        self.remember_theme = remember_theme
        self.workspace = None
        self.workspace_signal: Signal = Signal(self, "workspace")
        self.load_error: str | None = None
        self._themes_ready = False
        self.sessions = None  # the session tier (curator.sessions.SessionsService), indexed in a worker
        self.sessions_signal: Signal = Signal(self, "sessions")
        self._role_theme_pushed = False
        self._watch_stop = None  # threading.Event of the running watcher
        self._proposal = None  # (plan, dialog, replan, then_open) while a plan is previewed
        self.live_workspace = None  # the last workspace a change seen on disk (or a re-check) made

    # -- worker → UI hand-offs ---------------------------------------------------------

    def hand_off(self, callback, *args, **kwargs):
        """Run `callback(*args, **kwargs)` on the UI thread from a worker or the watcher and
        return its result — or None, quietly, once the app is leaving or has left (the loop
        stopped or closed): a thread that finishes after quit never prints a traceback, nor
        waits forever on a loop that will not run its call."""
        import asyncio
        from concurrent.futures import CancelledError
        from functools import partial

        from textual._callback import invoke

        loop = self._loop
        if loop is None or loop.is_closed() or self._exit or self._closing or self._closed:
            return None
        call = partial(callback, *args, **kwargs)

        async def run():
            if self._exit:  # quit while this call waited: the screens are going
                return None
            with self._context():
                return await invoke(call)

        try:
            future = asyncio.run_coroutine_threadsafe(run(), loop)
        except RuntimeError:  # closed in between
            return None
        while True:
            try:
                return future.result(timeout=0.1)
            except TimeoutError:
                if loop.is_closed() or not loop.is_running() or self._closed:
                    future.cancel()
                    return None
            except CancelledError:  # the loop cancelled it while closing
                return None

    # -- start-up ------------------------------------------------------------

    def on_mount(self) -> None:
        import sys

        # workers (loading, searching) and the UI share the GIL: hand it over sooner than the
        # default 5 ms so a search finishes within a frame while the UI keeps drawing
        sys.setswitchinterval(0.0005)
        themes, failures = available_themes()
        for t in themes:
            self.register_theme(t.to_textual())
        if failures:
            lines = "\n".join(f"{p.name}: {why}" for p, why in failures)
            self.notify(f"Some theme files could not be loaded:\n{lines}", severity="warning", timeout=8)
        wanted = self.requested_theme or load_settings().theme or DEFAULT_THEME
        if wanted not in self.available_themes:
            self.notify(f"Unknown theme {wanted!r}; using {DEFAULT_THEME}", severity="warning")
            wanted = DEFAULT_THEME if DEFAULT_THEME in self.available_themes else "textual-dark"
        self.theme = wanted
        self.role_styles()
        self._themes_ready = True
        if self.notice:
            self.notify(self.notice, timeout=6)
        self.load_store()
        from .sessions.service import SessionsService

        self.sessions = SessionsService(self.store_root)
        self.index_sessions()  # beside the store load: the sessions list never waits for it

    def on_notify(self, event) -> None:
        """One toast at a time: a new one replaces the last (an error stays until it times out,
        unless another error replaces it), so toasts never pile up over the content."""
        new = event.notification
        for old in list(self._notifications):
            if old is not new and (old.severity != "error" or new.severity == "error"):
                self._unnotify(old, refresh=False)
        self._refresh_notifications()

    def role_styles(self) -> None:
        """Role styles ("bold error", "success", ...) follow the current theme's colours."""
        from .reports.styles import rich_theme

        if self._role_theme_pushed:
            self.console.pop_theme()
        self.console.push_theme(rich_theme(self.current_theme))
        self._role_theme_pushed = True

    def watch_theme(self, theme: str) -> None:
        self.role_styles()
        if self._themes_ready and self.remember_theme:
            save_settings(Settings(theme=theme))

    @work(thread=True, exclusive=True, exit_on_error=False, group="load")
    def load_store(self) -> None:
        from .model.sources import discover
        from .session import open_session

        def progress(what: str, fraction: float) -> None:
            self.hand_off(self._progress, what, fraction)

        try:
            from .curation import CurationError, recover

            if self.layout is None and not self.store_root.is_dir():
                raise RuntimeError(f"store not found: {self.given}")
            layout = self.layout or discover(self.store_root)
            if not layout.memory_sources():
                raise RuntimeError(f"no agent memory found in {self.given}")
            for spec in layout.memory_sources():
                if spec.read_only or not Path(spec.root).is_dir():
                    continue
                try:
                    recovered = recover(Path(spec.root))
                except (CurationError, OSError) as exc:  # e.g. a symlinked .curator: reading still works
                    recovered = []
                    self.hand_off(self.notify, f"Writing to {spec.rel} is off: {exc}",
                                          severity="warning", timeout=10, markup=False)
                if recovered:
                    self.hand_off(self.notify, f"Recovered an interrupted operation in {spec.rel} "
                                          f"({', '.join(recovered)}): it is as it was before it.",
                                          severity="warning", timeout=10, markup=False)
                for note in getattr(recovered, "notes", []):
                    self.hand_off(self.notify, note, severity="warning", timeout=10, markup=False)
            session = open_session(layout, given=self.given, config=self.store_config,
                                   token_counter=self.token_counter, progress=progress, prefer=self.store_root)
            if session.workspace is None:
                errors = "; ".join(f"{s.name}: {s.error}" for s in session.sources if s.error)
                raise RuntimeError(errors or "no memory store found")
        except Exception as exc:  # noqa: BLE001 - shown to the user, never a traceback
            self.hand_off(self._load_failed, str(exc))
            return
        self.hand_off(self._loaded_repo, session)

    def _loaded_repo(self, session) -> None:
        import gc

        self.repo = session
        self.store_root = Path(session.sources[session.current].spec.root)
        self._loaded(session.workspace)
        # the loaded snapshots live on: later collections need not scan them again (a change
        # on disk makes a new snapshot sharing most records, so this is done once per load)
        gc.freeze()
        self.start_watching()

    # -- the watcher: changes on disk become new snapshots ----------------------

    watch_events = None  # tests: a callable(roots, stop) yielding batches of changed paths

    def start_watching(self) -> None:
        """Follow every source on disk (off with CURATOR_NO_WATCH=1 unless a test gives its own
        event source in `watch_events`)."""
        import os
        import threading

        self.stop_watching()
        if self.repo is None or (os.environ.get("CURATOR_NO_WATCH") and self.watch_events is None):
            return
        stop = threading.Event()
        self._watch_stop = stop
        session = self.repo

        def swaps(found) -> None:
            if not stop.is_set():
                self.hand_off(self._swapped, found)

        def failed(exc: Exception) -> None:
            if not stop.is_set():
                self.hand_off(self.notify, f"Watching the store stopped working: {exc}",
                                      severity="warning", timeout=10, markup=False)

        thread = threading.Thread(target=session.watch, args=(swaps, stop, self.watch_events, failed),
                                  name="curator-watch", daemon=True)
        thread.start()
        self._watch_thread = thread

    _watch_thread = None

    def stop_watching(self):
        """Stop the watcher; returns its thread (on quit it is joined before the loop closes,
        so a batch being read is never handed to a closed loop)."""
        if self._watch_stop is not None:
            self._watch_stop.set()
            self._watch_stop = None
        thread, self._watch_thread = self._watch_thread, None
        return thread

    async def _on_exit_app(self) -> None:
        import asyncio

        thread = self.stop_watching()
        if thread is not None and thread.is_alive():  # the loop keeps running while it ends
            await asyncio.to_thread(thread.join, 1.0)
        if self.repo is not None:
            self.repo.flush()
        await super()._on_exit_app()

    def _swapped(self, swaps) -> None:
        """New snapshots (seen on disk, re-checked or written by us): the screens re-render from
        the current one, keeping selection and scroll; an open plan over a changed file is made
        again."""
        session = self.repo
        if session is None:
            return
        mine = [s for s in swaps if s.index == session.current]
        if mine:
            self.live_workspace = session.workspace  # screens update it in place (CuratorScreen.live)
            self._loaded(session.workspace)
        else:
            self.workspace_signal.publish(self.workspace)  # badges of the other sources
        self._replan_if_touched([p for s in mine for p in s.paths])

    def select_source(self, index: int) -> bool:
        """Make another source current: the screens and the write path follow it."""
        repo = self.repo
        if repo is None or index == repo.current or not (0 <= index < len(repo.sources)):
            return False
        if repo.sources[index].workspace is None:
            self.notify(f"{repo.sources[index].name} could not be loaded: {repo.sources[index].error}",
                        severity="warning")
            return False
        repo.current = index
        self.store_root = Path(repo.sources[index].spec.root)
        self.switching_source = True  # screens re-render for it; the tree keeps its shape
        try:
            self._loaded(repo.workspace)
        finally:
            self.switching_source = False
        return True

    switching_source = False

    @property
    def read_only(self) -> bool:
        repo = self.repo
        return bool(repo is not None and repo.sources[repo.current].spec.read_only)

    def _progress(self, what: str, fraction: float) -> None:
        progress = getattr(self.screen, "progress", None)
        if progress:
            progress(what, fraction)

    _open_after_load: str | None = None

    def _loaded(self, ws) -> None:
        self.workspace = ws
        self.workspace_signal.publish(ws)
        path, self._open_after_load = self._open_after_load, None
        if path and path in ws.store.records:
            self.open_path(path)
        if self.sessions is not None and self.sessions.indexed:
            self.sessions.usage_for(ws.store)  # records may have moved: map the reads again
            self.sessions_signal.publish(self.sessions)

    @work(thread=True, exclusive=True, exit_on_error=False, group="sessions")
    def index_sessions(self) -> None:
        """Transcripts: a quick list first (peeks), then every file streamed, with progress."""
        import time

        from textual.worker import get_current_worker

        svc, worker, last = self.sessions, get_current_worker(), [0.0]

        def progress(what: str, fraction: float) -> None:
            if time.monotonic() - last[0] > 0.3:
                last[0] = time.monotonic()
                self.hand_off(self.sessions_signal.publish, svc)

        try:
            svc.quick()
            self.hand_off(self.sessions_signal.publish, svc)
            svc.build(progress, lambda: worker.is_cancelled)
        except Exception as exc:  # noqa: BLE001 - shown to the user, never a traceback
            self.hand_off(self.notify, f"Could not read the agent's transcripts: {exc}", severity="warning")
            return
        self.hand_off(self._sessions_indexed)

    def _sessions_indexed(self) -> None:
        if self.workspace is not None:
            self.sessions.usage_for(self.workspace.store)
        self.sessions_signal.publish(self.sessions)

    def _load_failed(self, message: str) -> None:
        self.load_error = message
        self.notify(f"Could not open the store: {message}", severity="error", timeout=15)
        self._progress(f"could not open the store: {message}", 0)

    @work(thread=True, exclusive=False, exit_on_error=False, group="recheck")
    def recheck(self, path: str) -> None:
        """Re-read one file of the current source (F5): a new snapshot if it changed."""
        session = self.repo
        if session is None or session.workspace is None:
            return
        swap = session.recheck(session.current, [path])
        if swap is not None:
            self.hand_off(self._swapped, [swap])
        self.hand_off(self.notify, f"re-checked {path}", timeout=2)

    def on_worker_state_changed(self, event) -> None:
        """Every worker's failure, in one place: a notice naming what failed (never a thread
        that dies silently)."""
        from textual.worker import WorkerState

        if event.state != WorkerState.ERROR:
            return
        worker = event.worker
        error = worker.error
        what = worker.name or worker.group or "a background task"
        self.notify(f"{what} failed: {type(error).__name__}: {error}", severity="error", timeout=10,
                    markup=False, title="curator")

    # -- actions ---------------------------------------------------------------

    def check_action(self, action: str, parameters) -> bool | None:
        from .widgets.text_box import typing_hides

        # in a text box, 1-4 and q are typed: don't show (or run) them as app keys
        return not typing_hides(self, action)

    def action_reload_store(self) -> None:
        self.notify("re-reading the store…", timeout=2)
        self.load_store()
        if self.sessions is not None and self.sessions.indexed:
            self.index_sessions()  # new or grown transcripts (unchanged ones come from the cache)

    def action_next_theme(self) -> None:
        names = sorted(self.available_themes)
        ours = [n for n in names if n.startswith("curator-")] or names
        i = ours.index(self.theme) if self.theme in ours else -1
        self.theme = ours[(i + 1) % len(ours)]
        self.notify(f"theme: {self.theme}", timeout=2)

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            return
        screen = self.screen
        focused = screen.focused
        text = getattr(screen, "HELP", "") or ""
        if focused is not None and getattr(focused, "HELP", None):
            text += "\n\n" + focused.HELP
        rows, seen, screens = [], set(), []
        for active in screen.active_bindings.values():
            b = active.binding
            if b.action in seen or not b.description:
                continue
            if not b.id or b.id.startswith("table-") or b.id.startswith("tree-") or b.id.startswith("leave-box"):
                continue  # generic movement keys are one line of the help, not a page each
            seen.add(b.action)
            if b.group is SCREENS_GROUP:  # 1 2 3 4: one line for the four screens
                screens.append((b.key_display or self.get_key_display(b), b.description))
                continue
            rows.append((b.key_display or self.get_key_display(b), b.tooltip or b.description))
        if screens:
            rows.append((" ".join(k for k, _ in screens), " · ".join(d for _, d in screens)))
        self.push_screen(HelpScreen(text, rows))

    # -- the write path: every change is a previewed plan --------------------------

    def propose(self, plan, then_open: str | None = None, replan=None) -> None:
        """Show a plan's diff; apply it (in a worker) only if the user confirms; then show
        `then_open` (e.g. the memory a promote made). `replan(workspace)` makes the plan again
        from a newer snapshot: when a file it changes is modified on disk while the diff is
        shown, the plan is made again (and the user told), never applied over the change."""
        from .dialogs import DiffDialog

        if self.read_only:
            self.notify("This source is read-only (it lives outside the repository)", severity="warning")
            return
        if plan is None:
            return
        if plan.empty:
            self.notify("nothing to change", timeout=3)
            return
        dialog = DiffDialog(plan)
        self._proposal = (plan, dialog, replan, then_open)

        def decided(ok: bool | None) -> None:
            if self._proposal is not None and self._proposal[1] is dialog:
                self._proposal = None
            if ok:
                self.apply_plan(plan, then_open, replan)

        self.push_screen(dialog, decided)

    def plan_from(self, make, then_open: str | None = None) -> None:
        """Plan with `make(workspace)` on the current snapshot and propose it (made again by
        the same function if a file it changes is modified outside while it is shown)."""
        if self.workspace is None:
            return
        plan = self.plan_or_notify(make, self.workspace)
        self.propose(plan, then_open, make)

    def _replan_if_touched(self, paths, why: str = "changed on disk") -> None:
        proposal = self._proposal
        if proposal is None or not paths:
            return
        plan, dialog, replan, then_open = proposal
        hit = sorted({e.path for e in plan.edits} & set(paths))
        if not hit:
            return
        self._proposal = None
        if dialog.is_attached and self.screen is dialog:
            dialog.dismiss(None)
        self._replan(hit, replan, then_open, why)

    def _replan(self, hit, replan, then_open, why: str) -> None:
        names = ", ".join(hit[:3]) + (f" and {len(hit) - 3} more" if len(hit) > 3 else "")
        if replan is None or self.workspace is None:
            self.notify(f"{names} {why}; nothing was written — make the change again", severity="warning",
                        timeout=10, markup=False)
            return
        self.notify(f"{names} {why}; the plan was made again from what is on disk now", severity="warning",
                    timeout=10, markup=False)
        self.propose(self.plan_or_notify(replan, self.workspace), then_open, replan)

    def plan_or_notify(self, fn, *args, **kwargs):
        from .curation import CurationError

        try:
            return fn(*args, **kwargs)
        except CurationError as exc:
            self.notify(str(exc), severity="error", timeout=8, markup=False)
            return None

    @work(thread=True, exclusive=True, exit_on_error=False, group="write")
    def apply_plan(self, plan, then_open: str | None = None, replan=None) -> None:
        from .curation import ChangedOnDisk, CurationError
        from .curation.replan import PlanChanged, apply_replanning

        session = self.repo
        index = session.current

        def fresh(paths):  # the snapshot as it is now (shown too, as the watcher would)
            swap = session.recheck(index, paths)
            if swap is not None:
                self.hand_off(self._swapped, [swap])
            return session.sources[index].workspace

        try:
            (jid, swap), plan = apply_replanning(session.sources[index].root, session.apply, plan, fresh, replan)
        except PlanChanged as exc:  # the new diff (made again from the snapshot now shown), for approval
            self.hand_off(self._after_refused, None, [exc.path], replan, then_open)
            return
        except ChangedOnDisk as exc:  # edited outside since the plan was made: never overwritten
            changed = session.recheck(index, [e.path for e in plan.edits])
            self.hand_off(self._after_refused, changed, [getattr(exc, "path", str(exc))], replan, then_open)
            return
        except (CurationError, OSError) as exc:
            self.hand_off(self.notify, f"Nothing was written: {exc}", severity="error", timeout=10, markup=False)
            return
        self.hand_off(self.notify, f"{plan.title} — applied as {jid}; ctrl+z undoes it", timeout=6, markup=False)
        self._open_after_load = then_open
        self.hand_off(self._swapped, [swap] if swap is not None else [])
        self.hand_off(self._open_pending)

    def _after_refused(self, swap, hit, replan, then_open) -> None:
        if swap is not None:
            self._swapped([swap])
        self._replan([str(h) for h in hit], replan, then_open, "changed on disk after the plan was made")

    def _open_pending(self) -> None:
        path, self._open_after_load = self._open_after_load, None
        if path and self.workspace is not None and path in self.workspace.store.records:
            self.open_path(path)

    @work(thread=True, exclusive=True, exit_on_error=False, group="write")
    def action_undo(self) -> None:
        from .curation import CurationError

        session = self.repo
        if session is None:
            return
        try:
            entry, swap = session.undo()
        except (CurationError, OSError) as exc:
            self.hand_off(self.notify, str(exc), severity="warning", timeout=6, markup=False)
            return
        self.hand_off(self.notify, f"undone: {entry.meta.get('title')}", timeout=5, markup=False)
        for note in entry.notes:  # untrusted journal entries set aside first: never silent
            self.hand_off(self.notify, note, severity="warning", timeout=10, markup=False)
        if swap is not None:
            self.hand_off(self._swapped, [swap])

    def action_history(self) -> None:
        from .curation import history
        from .dialogs import HistoryDialog

        self.push_screen(HistoryDialog(history(self.store_root)))

    def action_tiers(self) -> None:
        from .budgets import startup_load
        from .dialogs import TiersDialog
        from .model.tiering import decide
        from .reports.tiers_report import tiers_json

        if self.workspace is not None:
            store = self.workspace.store
            self.push_screen(TiersDialog(tiers_json(store, decide(store), startup_load(store))))

    def action_prune(self) -> None:
        from .curation import plan_prune_paths
        from .dialogs import PruneDialog

        ws = self.workspace
        if ws is None:
            return

        def chosen(choice) -> None:
            if choice is not None:
                self.plan_from(lambda w: plan_prune_paths(w.store, choice.paths, choice.archive))

        self.push_screen(PruneDialog(ws.store), chosen)

    def action_refresh_counts(self) -> None:
        from .curation import plan_refresh

        self.plan_from(lambda w: plan_refresh(w.store, w.findings))

    def fix_findings(self, findings, safe_only: bool = False) -> None:
        from .curation import plan_fixes

        checks = None if safe_only else {f.check for f in findings}  # picked findings opt in to their fixes
        picked = {(f.check, f.path, f.target) for f in findings}

        def make(w):
            # made again on a newer snapshot: the same findings as they are there now
            now = [f for f in w.findings if (f.check, f.path, f.target) in picked] if w is not first else findings
            return plan_fixes(w.store, now, checks, counter=w.store.counter)

        first = self.workspace
        self.plan_from(make)

    def action_fix_all(self) -> None:
        if self.workspace is not None:
            self.fix_findings(self.workspace.findings, safe_only=True)

    def promote(self, path: str) -> None:
        from .curation import plan_promote
        from .dialogs import PromoteDialog

        ws = self.workspace
        if ws is None:
            return
        rec = ws.store.records.get(path)
        if rec is None or rec.tier not in ("transient", "reflexion") or rec.level != 2:
            self.notify("Pick a transient or reflexion record to promote", severity="warning")
            return

        def planner(choice):
            return plan_promote(ws.store, path, choice.dest, choice.index, choice.keywords,
                                choice.source_action, counter=ws.store.counter)

        def chosen(choice) -> None:
            if choice is not None and choice.plan is not None:
                made = [e.path for e in choice.plan.edits if e.action == "create" and not e.path.startswith(".curator/")]

                def again(w):
                    return plan_promote(w.store, path, choice.dest, choice.index, choice.keywords,
                                        choice.source_action, counter=w.store.counter)

                self.propose(choice.plan, then_open=made[0] if made else None, replan=again)

        self.push_screen(PromoteDialog(ws.store, path, planner), chosen)

    def edit_keywords(self, index: str, line: int) -> None:
        from .curation import plan_keywords
        from .curation.keywords import RowRef
        from .dialogs import KeywordDialog

        ws = self.workspace
        idx = ws.store.domain_indexes.get(index) if ws else None
        row = next((r for r in idx.rows if r.line == line), None) if idx else None
        if row is None or not row.links:
            self.notify("Keywords are edited on a domain-index row", severity="warning")
            return
        target = row.links[0].target
        chosen_row = RowRef(index, line, row.raw)  # this row, not the first one for its target

        def chosen(keywords) -> None:
            if keywords:
                self.plan_from(lambda w: plan_keywords(w.store, index, target, keywords, row=chosen_row))

        self.push_screen(KeywordDialog(ws.store, index, line, target, row.keywords), chosen)

    def open_path(self, path: str, line: int | None = None) -> None:
        """Show a file on the store screen (from problems, budgets, the lab or the palette)."""

        async def go() -> None:
            await self.switch_mode("store")
            screen = self.screen
            if isinstance(screen, MainScreen):
                screen.open_path(path, line)

        self.run_worker(go(), group="navigate", exclusive=True)


def make_app(store_root: Path | str, **options) -> CuratorApp:
    """Build the app (used by the CLI and by tests, which pass a fake token counter). Options are
    CuratorApp's: given, config, token_counter, theme, notice, remember_theme, layout (every
    memory system of a repository; default: what `store_root` holds)."""
    return CuratorApp(Path(store_root), **options)
