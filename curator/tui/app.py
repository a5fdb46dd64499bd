"""CuratorApp: registration, global bindings, themes, toasts and what the screens show. It owns
its work as objects: the background work (`background.Background`), the two watchers
(`watchers.Watchers`), and the flows (`flows`: curation, repository fixes, fixes, undo; the
dialogs' choices in `choices.Choices`), which talk to it through the port it implements
(`flows.port.Port`: show a diff and ask, notify, refresh, work off the UI thread)."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App
from textual.message import Message
from textual.notifications import Notify
from textual.signal import Signal

from ..base.children import stop_all
from ..base.config import Config
from ..live import semantic_embedder
from ..model.loader import LoadOptions
from . import messages as msg
from . import navigate, views
from .app_state import AppState
from .background import Background
from .choices import Choices
from .dialogs import DiffDialog
from .flows.curation import Curation
from .flows.fixes import Fixes
from .flows.repository import RepositoryFixes
from .flows.undo import Undo
from .keys import APP_BINDINGS, SCREENS_GROUP
from .palette import CuratorCommands
from .screens import HelpScreen
from .screens.help import help_for
from .settings import Settings, save_settings
from .themes import install as install_themes
from .themes import role_styles
from .toasts import Toasts
from .watchers import Watchers

if TYPE_CHECKING:
    from textual.await_complete import AwaitComplete

    from ..live.workspace import Workspace
    from ..transcripts.service import SessionsService


class CuratorApp(AppState):
    CSS_PATH = "app.tcss"
    TITLE = "curator"
    COMMANDS = App.COMMANDS | {CuratorCommands}
    SCREENS = views.VIEWS  # (views.py: one stack, each view made on its first visit and kept)
    BINDINGS = APP_BINDINGS  # (keys.py: the screens' keys 1-7, help, reload, theme, undo, quit)

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
        self.workbench = None  # the workbench (curator.live.workbench.Workbench) once loaded
        self.given = given or str(store_root)
        self.store_config = config
        self.token_counter = token_counter
        # how the workbench loads each source, built once from the app's settings
        self.load_options = LoadOptions(given=self.given, config=config, token_counter=token_counter,
                                        meaning=semantic_embedder)
        self.requested_theme = theme
        self.notice = notice
        self.remember_theme = remember_theme
        self.workspace = None
        self.workspace_signal: Signal = Signal(self, "workspace")
        self.load_error: str | None = None
        self._themes_ready = False
        self.transcripts: SessionsService | None = None  # the session tier, indexed in a worker
        self.transcripts_signal: Signal = Signal(self, "transcripts")
        self.context_model = None  # the instruction files' context model, built in a worker
        self.context_signal: Signal = Signal(self, "context")
        self.proof = None  # the sessions held against the model (curator.proof.Proof), built in a worker
        self.proof_signal: Signal = Signal(self, "proof")
        self._role_theme_pushed = False
        self._toasts = Toasts(self)
        self.live_workspace: Workspace | None = None  # the last workspace a change seen on disk (or a re-check) made
        self.watch_events = None  # tests: a callable(roots, stop) yielding batches of changed paths
        self.instruction_events = None  # tests: a callable(places, stop) yielding batches of changed paths
        self.background = Background(self)
        self.watchers = Watchers(self)
        self.curation = Curation(self)
        self.repository = RepositoryFixes(self, self.curation)
        self.fixes = Fixes(self, self.curation, self.repository)
        self.undo = Undo(self, self.repository)
        self.choices = Choices(self, self.curation, self.undo)
        # the theme is chosen before the app runs: set in on_mount, Textual re-parsed every source
        self.theme, self._theme_warnings = install_themes(self, theme)

    def on_mount(self) -> None:
        import sys

        # workers (loading, searching) and the UI share the GIL: hand it over sooner than the
        # default 5 ms so a search finishes within a frame while the UI keeps drawing
        sys.setswitchinterval(0.0005)
        for text, severity, timeout in self._theme_warnings:
            self.notify(text, severity=severity, timeout=timeout)  # type: ignore[arg-type]
        self._role_theme_pushed = role_styles(self, self._role_theme_pushed)
        self._themes_ready = True
        # (the notice is the first screen's one-line banner, never also a toast)
        self.push_screen(views.FIRST)  # over Textual's blank base screen (views.py says why)
        self.background.load_store()
        from ..transcripts.service import SessionsService

        self.transcripts = SessionsService(self.store_root)
        self.background.index_transcripts()  # beside the store load: the sessions list never waits for it

    def on_notify(self, event: Notify) -> None:
        self._toasts.notified(event)  # one toast at a time (`toasts.Toasts`)

    @property
    def toasts(self) -> list:
        """The notifications on screen now (tests read them)."""
        return self._toasts.on_screen()

    def watch_theme(self, theme: str) -> None:
        self._role_theme_pushed = role_styles(self, self._role_theme_pushed)
        if self._themes_ready and self.remember_theme:
            save_settings(Settings(theme=theme))

    def _swapped(self, swaps) -> None:
        """New snapshots (seen on disk, re-checked or written by us): the screens re-render from the
        current one, keeping selection and scroll; an open plan over a changed file is made again."""
        bench = self.workbench
        if bench is None:
            return
        from ..live.instructions import with_memory

        model = with_memory(self.context_model, bench, swaps)  # Serena's start-up follows its memory
        if model is not None:
            self.context_model = model
            self.context_signal.publish(model)
        mine = [s for s in swaps if s.index == bench.current]
        if mine:
            self.live_workspace = bench.workspace  # screens update it in place (CuratorScreen.live)
            self._loaded(bench.workspace)
        else:
            self.workspace_signal.publish(self.workspace)  # badges of the other sources
        self.curation.replan_if_touched([p for s in mine for p in s.paths])

    def select_source(self, index: int) -> bool:
        """Make another source current: the screens and the write path follow it."""
        bench = self.workbench
        if bench is None or index == bench.current or not (0 <= index < len(bench.sources)):
            return False
        if bench.sources[index].workspace is None:
            self.notify(f"{bench.sources[index].name} could not be loaded: {bench.sources[index].error}",
                        severity="warning")
            return False
        bench.current = index
        self.store_root = Path(bench.sources[index].spec.root)
        self.switching_source = True  # screens re-render for it; the tree keeps its shape
        try:
            self._loaded(bench.workspace)
        finally:
            self.switching_source = False
        return True

    switching_source = False
    scope = None  # (app_state.AppState.scope)
    notice_seen = False

    def action_cycle_scope(self) -> None:
        """s: the whole repository → each memory system → the instruction files → the whole."""
        from ..live.scope import next_scope

        if self.workbench is not None:
            self.set_scope(next_scope(self.workbench, self.scope))

    def set_scope(self, scope) -> None:
        """Narrow the screens to one source (it becomes current) or to the instruction files, or
        widen them to all; each screen writes the scope it shows."""
        from ..live.scope import is_source

        self.scope = scope
        if not is_source(scope) or not self.select_source(scope):
            self.workspace_signal.publish(self.workspace)  # the screens re-render for the scope

    def get_line_filters(self):
        """Textual's filters, and the one that draws any control character a repository's text
        brought into a line as its picture (never sent to the terminal: `tui/escape_filter.py`)."""
        from .escape_filter import VisibleControls

        if self._visible_controls is None:
            self._visible_controls = VisibleControls()
        return [*super().get_line_filters(), self._visible_controls]

    _visible_controls = None

    @property
    def read_only(self) -> bool:
        bench = self.workbench
        return bool(bench is not None and bench.sources[bench.current].spec.read_only)

    def _progress(self, what: str, fraction: float) -> None:
        progress = getattr(self.screen, "progress", None)
        if progress:
            progress(what, fraction)

    def _loaded(self, ws) -> None:
        self.workspace = ws
        self.workspace_signal.publish(ws)
        path, self.curation.open_after_load = self.curation.open_after_load, None
        if path and path in ws.store.records:
            self.open_path(path)
        if self.transcripts is not None and self.transcripts.indexed:
            self.transcripts.usage_for(ws.store)  # records may have moved: map the reads again
            self.transcripts_signal.publish(self.transcripts)

    # -- actions ---------------------------------------------------------------

    def check_action(self, action: str, parameters) -> bool | None:
        from .widgets.text_box import typing_hides

        # in a text box, 1-4 and q are typed: don't show (or run) them as app keys
        return not typing_hides(self, action)

    def action_reload_store(self) -> None:
        self.notify("re-reading the store…", timeout=2)
        self.background.load_store()
        if self.transcripts is not None and self.transcripts.indexed:
            self.background.index_transcripts()  # new or grown transcripts (unchanged ones come from the cache)

    def action_next_theme(self) -> None:
        names = sorted(self.available_themes)
        ours = [n for n in names if n.startswith("curator-")] or names
        i = ours.index(self.theme) if self.theme in ours else -1
        self.theme = ours[(i + 1) % len(ours)]
        self.notify(f"theme: {self.theme}", timeout=2)

    @property
    def current_view(self) -> str:
        return views.current(self)

    def show_view(self, name: str) -> AwaitComplete:
        return views.show(self, name)

    action_show_view = show_view  # keys 1-7 and the palette

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(help_for(self, self.screen, SCREENS_GROUP))

    def open_path(self, path: str, line: int | None = None) -> None:
        """Show a file on the store screen (from problems, budgets, the lab or the palette)."""
        self.run_worker(navigate.open_path(self, path, line), group="navigate", exclusive=True)

    # -- what the screens ask for ------------------------------------------------------------

    def on_open_path(self, message: msg.OpenPath) -> None:
        self.open_path(message.path, message.line)

    def on_select_source(self, message: msg.SelectSource) -> None:
        self.select_source(message.index)

    def on_show_sessions(self, message: msg.ShowSessions) -> None:
        """The Sessions screen, narrowed to the sessions that loaded a file."""
        self.run_worker(navigate.show_sessions(self, message.path, message.session_ids), group="navigate",
                        exclusive=True)

    def on_propose(self, message: msg.Propose) -> None:
        self.curation.propose(message.plan)

    def on_fix_findings(self, message: msg.FixFindings) -> None:
        self.fixes.fix_findings(message.findings, message.safe_only)

    def on_promote(self, message: msg.Promote) -> None:
        self.choices.promote(message.path)

    def on_edit_keywords(self, message: msg.EditKeywords) -> None:
        self.choices.edit_keywords(message.index, message.line)

    def on_recheck(self, message: msg.Recheck) -> None:
        self.background.recheck(message.path)

    # -- what the workers and the watchers tell (on the UI thread) -----------------------------

    def on_later(self, message: msg.Later) -> None:
        message.fn(*message.args, **message.kwargs)

    def on_notice(self, message: msg.Notice) -> None:
        self.notify(message.text, **message.options)

    def on_swapped(self, message: msg.Swapped) -> None:
        self._swapped(message.swaps)

    def on_instructions_changed(self, message: msg.InstructionsChanged) -> None:
        self.instructions_changed(message.paths)

    def on_worker_state_changed(self, event) -> None:
        self.background.state_changed(event)  # every worker's failure, said in one place

    # -- the flows' port (flows.port.Port) and the workers' way back --------------------------

    def show_diff(self, plan, decided, *, prefix: str = "", store: str | None = None) -> DiffDialog:
        dialog = DiffDialog(plan, prefix=prefix, store=store)
        self.push_screen(dialog, decided)
        return dialog

    def withdraw(self, shown) -> None:
        if shown.is_attached and self.screen is shown:
            shown.dismiss(None)

    def ask(self, dialog, decided=None) -> None:
        self.push_screen(dialog, decided)

    def refresh_views(self, swaps: list) -> None:
        self._swapped(swaps)

    def instructions_changed(self, paths) -> None:
        self.background.load_context(live=True)
        root = self.repository.root()
        if root is not None:  # an instruction fix shown as a diff over a file just changed: made again
            inside = [Path(p) for p in paths if Path(p).is_relative_to(root)]
            self.curation.replan_if_touched([p.relative_to(root).as_posix() for p in inside], root=root)

    def in_background(self, fn, *args) -> None:
        """A write, off the UI thread: one at a time (the "write" group)."""
        self.in_worker(fn, *args, group="write")

    def in_worker(self, fn, *args, group: str, exclusive: bool = True) -> None:
        """`fn(*args)` on a worker's thread; its failure is a notice (`on_worker_state_changed`)."""
        self.run_worker(partial(fn, *args), name=fn.__name__.lstrip("_"), group=group, exclusive=exclusive,
                        # a description of our own: Textual's default is repr(work), which would write out
                        # the whole store when it is an argument (tens of MB at 10,000 memories)
                        description=fn.__name__, exit_on_error=False, thread=True)

    def later(self, fn, *args, **kwargs) -> None:
        self.tell(msg.Later(fn, *args, **kwargs))

    def tell(self, message: Message) -> None:
        """Post `message` to the app from any thread; nothing once the app has left."""
        try:
            self.post_message(message)
        except RuntimeError:  # the loop closed in between: nobody is left to tell
            pass

    def hand_off(self, callback, *args, **kwargs):
        """Run `callback(*args, **kwargs)` on the UI thread from a worker (Textual's `call_from_thread`)
        and return its result — None, quietly, once the app is leaving or has left. The app's own
        workers post messages instead (`tell`); screens use this for a result they draw themselves."""
        if not self.is_running:
            return None
        try:
            return self.call_from_thread(callback, *args, **kwargs)
        except RuntimeError:  # the loop stopped or closed in between
            return None

    def exit(self, *args, **kwargs) -> None:
        self.watchers.leave()
        stop_all()  # a first load or a reading in a child: the worker waiting on it returns at once
        super().exit(*args, **kwargs)

    async def on_unmount(self) -> None:
        """The app is leaving (its loop still runs): wait for the watcher, keep what was learnt."""
        await self.watchers.left()
        if self.workbench is not None:
            self.workbench.flush()

    # -- the flows' actions (keys, the palette) ------------------------------------------

    def action_undo(self) -> None:
        self.undo.undo()

    def action_history(self) -> None:
        self.choices.history()

    def action_tiers(self) -> None:
        self.choices.tiers()

    def action_prune(self) -> None:
        self.choices.prune()

    def action_refresh_counts(self) -> None:
        self.fixes.refresh_counts()

    def action_fix_all(self) -> None:
        self.fixes.fix_all()


def make_app(store_root: Path | str, **options) -> CuratorApp:
    """Build the app (the CLI; tests pass a fake token counter). Options are CuratorApp's: given,
    config, token_counter, theme, notice, remember_theme, layout (default: what `store_root` holds)."""
    return CuratorApp(Path(store_root), **options)
