"""The app's background work: loading every source, the watcher that turns changes on disk into
new snapshots, the transcripts' index and one-file re-checks. Each runs on a thread and tells the
app what happened by posting a message (`curator.tui.messages`); the handlers below run on the
UI thread. A mixin of `CuratorApp`: `self` is the app."""

from __future__ import annotations

import time
from pathlib import Path

from textual import work
from textual.message import Message

from . import messages as msg


class AppWorkers:
    session = None  # the live session (curator.live.session.Session) once loaded
    watch_events = None  # tests: a callable(roots, stop) yielding batches of changed paths
    _watch_stop = None  # threading.Event of the running watcher
    _watch_thread = None
    _leaving_watcher = None  # the watcher's thread, stopped when the app began to leave

    # -- from a thread to the UI ------------------------------------------------------

    def tell(self, message: Message) -> None:
        """Post `message` to the app from any thread; nothing once the app has left."""
        try:
            self.post_message(message)
        except RuntimeError:  # the loop closed in between: nobody is left to tell
            pass

    def hand_off(self, callback, *args, **kwargs):
        """Run `callback(*args, **kwargs)` on the UI thread from a worker (Textual's
        `call_from_thread`) and return its result — None, quietly, once the app is leaving or
        has left. The app's own workers post messages instead (`tell`); screens use this for a
        result they draw themselves."""
        if not self.is_running:
            return None
        try:
            return self.call_from_thread(callback, *args, **kwargs)
        except RuntimeError:  # the loop stopped or closed in between
            return None

    # -- loading ------------------------------------------------------------------------

    @work(thread=True, exclusive=True, exit_on_error=False, group="load")
    def load_store(self) -> None:
        from ..curation import CurationError, recover
        from ..live.session import open_session
        from ..model.sources import discover

        last = [0.0]

        def progress(what: str, fraction: float) -> None:
            # a large store's walk reports thousands of times a second: a few a second are shown
            now = time.monotonic()
            if now - last[0] >= 0.05 or fraction >= 1:
                last[0] = now
                self.tell(msg.LoadProgress(what, fraction))

        def warn(text: str, severity: str = "warning") -> None:
            from ..reports.escape import visible

            self.tell(msg.Notice(visible(text), severity=severity, timeout=10, markup=False))

        try:
            if self.layout is None and not self.store_root.is_dir():
                raise RuntimeError(f"store not found: {self.given}")
            layout = self.layout or discover(self.store_root)
            _recover_repository(Path(layout.root), warn)
            if not layout.memory_sources():
                self.tell(msg.LoadFailed(f"no agent memory found in {self.given}", no_memory=True))
                return
            for spec in layout.memory_sources():
                if spec.read_only or not Path(spec.root).is_dir():
                    continue
                try:
                    recovered = recover(Path(spec.root))
                except (CurationError, OSError) as exc:  # e.g. a symlinked .curator: reading still works
                    recovered = []
                    warn(f"Writing to {spec.rel} is off: {exc}")
                if recovered:
                    warn(f"Recovered an interrupted operation in {spec.rel} "
                         f"({', '.join(recovered)}): it is as it was before it.")
                for note in getattr(recovered, "notes", []):
                    warn(note)
            session = open_session(layout, given=self.given, config=self.store_config,
                                   token_counter=self.token_counter, progress=progress, prefer=self.store_root)
            if session.workspace is None:
                errors = "; ".join(f"{s.name}: {s.error}" for s in session.sources if s.error)
                raise RuntimeError(errors or "no memory store found")
        except Exception as exc:  # noqa: BLE001 - shown to the user, never a traceback
            self.tell(msg.LoadFailed(str(exc)))
            return
        self.tell(msg.Loaded(session))

    def on_load_progress(self, message: msg.LoadProgress) -> None:
        self._progress(message.what, message.fraction)

    def on_loaded(self, message: msg.Loaded) -> None:
        import gc

        session = message.session
        self.session = session
        self.store_root = Path(session.sources[session.current].spec.root)
        self._loaded(session.workspace)
        # the loaded snapshots live on: later collections need not scan them again (a change
        # on disk makes a new snapshot sharing most records, so this is done once per load)
        gc.freeze()
        self.start_watching()
        self.load_context()

    # -- the instruction files: what each agent loads (the Context view, tree and overview) --

    _context_asked = 0  # load_context calls so far: only the latest one's model is shown
    _instruction_stop = None  # threading.Event of the running instruction watcher
    _instruction_places = None  # what it follows (context.watched.WatchPlaces)
    instruction_events = None  # tests: a callable(places, stop) yielding batches of changed paths

    def load_context(self, live: bool = False) -> None:
        """Build the instruction files' context model in a worker (`live`: again, after a change)."""
        self._context_asked += 1
        self._build_context(live, self._context_asked)

    @work(thread=True, exclusive=False, exit_on_error=False, group="context")
    def _build_context(self, live: bool, generation: int) -> None:
        from ..live.instructions import load_context
        from ..model.sources import discover

        try:
            layout = self.session.layout if self.session is not None else self.layout or discover(self.store_root)
            model = load_context(layout, self.token_counter)
        except Exception as exc:  # noqa: BLE001 - shown to the user, never a traceback
            self.tell(msg.Notice(f"Could not read the instruction files: {exc}", severity="warning",
                                 markup=False))
            model = None
        self.tell(msg.ContextLoaded(model, live, generation))

    def on_context_loaded(self, message: msg.ContextLoaded) -> None:
        if message.generation < self._context_asked:
            return  # a newer model is on its way
        self.context_model = message.model
        self.watch_instructions(message.model)
        if self.session is not None and message.model is not None:
            self.session.set_instructions(message.model)  # its findings: the header's and Problems' counts
        self.context_signal.publish(message.model)
        self.load_proof()
        if message.live:
            if self.workspace is not None:
                self.workspace_signal.publish(self.workspace)  # counts with the instruction findings
            return
        if self.session is not None:
            return
        if message.model is not None and message.model.agents:
            # no memory to show, but instruction files: what each agent loads is the screen
            self.notify("No agent memory here: showing what each agent loads from its instruction files.",
                        timeout=8)
            self.switch_mode("context")
        elif self.load_error:
            self.notify(f"Could not open the store: {self.load_error}", severity="error", timeout=15)

    # -- the instruction watcher: CLAUDE.md, AGENTS.md, rules, skills edited on disk -----------

    def watch_instructions(self, model) -> None:
        """Follow the places `model` names (again only when they changed); off with
        CURATOR_NO_WATCH=1 unless a test gives its own event source."""
        import os
        import threading

        from ..context.watched import watch_places
        from ..live.instruction_watch import watch_instructions

        if model is None or (os.environ.get("CURATOR_NO_WATCH") and self.instruction_events is None):
            return self.stop_watching_instructions()
        places = watch_places(model)
        if self._instruction_stop is not None and places == self._instruction_places:
            return None  # the same places: the running watcher judges by the current model
        self.stop_watching_instructions()
        stop = threading.Event()
        self._instruction_stop, self._instruction_places = stop, places

        def changed(paths) -> None:
            if not stop.is_set():
                self.tell(msg.InstructionsChanged(paths))

        def failed(exc: Exception) -> None:
            self.tell(msg.Notice(f"Watching the instruction files stopped working: {exc}", severity="warning",
                                 timeout=10, markup=False))

        threading.Thread(target=watch_instructions, args=(lambda: self.context_model, changed, stop, self.instruction_events, failed),
                         name="curator-watch-instructions", daemon=True).start()
        return None

    def stop_watching_instructions(self) -> None:
        if self._instruction_stop is not None:
            self._instruction_stop.set()
        self._instruction_stop = self._instruction_places = None

    def on_instructions_changed(self, message: msg.InstructionsChanged) -> None:
        self.load_context(live=True)
        root = self.repository_root()
        if root is not None:  # an instruction fix shown as a diff over a file just changed: made again
            inside = [Path(p) for p in message.paths if Path(p).is_relative_to(root)]
            self._replan_if_touched([p.relative_to(root).as_posix() for p in inside], root=root)

    def on_load_failed(self, message: msg.LoadFailed) -> None:
        self.load_error = message.error
        if not message.no_memory:  # (no memory: an error only when no instruction file shows either)
            self.notify(f"Could not open the store: {message.error}", severity="error", timeout=15)
        self._progress(f"could not open the store: {message.error}", 0)
        if self.store_root.is_dir():
            self.load_context()  # a repository of instruction files only still has its Context view

    def on_notice(self, message: msg.Notice) -> None:
        self.notify(message.text, **message.options)

    def on_swapped(self, message: msg.Swapped) -> None:
        self._swapped(message.swaps)

    # -- the watcher: changes on disk become new snapshots ----------------------------

    def start_watching(self) -> None:
        """Follow every source on disk (off with CURATOR_NO_WATCH=1 unless a test gives its own
        event source in `watch_events`)."""
        import os
        import threading

        self.stop_watching()
        if self.session is None or (os.environ.get("CURATOR_NO_WATCH") and self.watch_events is None):
            return
        stop = threading.Event()
        self._watch_stop = stop
        session = self.session

        def swaps(found) -> None:
            if not stop.is_set():
                self.tell(msg.Swapped(found))

        def failed(exc: Exception) -> None:
            if not stop.is_set():
                self.tell(msg.Notice(f"Watching the store stopped working: {exc}", severity="warning",
                                     timeout=10, markup=False))

        thread = threading.Thread(target=session.watch, args=(swaps, stop, self.watch_events, failed),
                                  name="curator-watch", daemon=True)
        thread.start()
        self._watch_thread = thread

    def stop_watching(self):
        """Stop the watcher; returns its thread (on quit it is joined before the loop closes,
        so a batch being read is never handed to a closed loop)."""
        if self._watch_stop is not None:
            self._watch_stop.set()
            self._watch_stop = None
        thread, self._watch_thread = self._watch_thread, None
        return thread

    def exit(self, *args, **kwargs) -> None:
        self._leaving_watcher = self.stop_watching() or self._leaving_watcher  # no new batch is read
        self.stop_watching_instructions()
        super().exit(*args, **kwargs)

    async def on_unmount(self) -> None:
        """The app is leaving (its loop still runs): wait for the watcher, keep what was learnt."""
        import asyncio

        thread = self.stop_watching() or self._leaving_watcher
        if thread is not None and thread.is_alive():
            await asyncio.to_thread(thread.join, 1.0)
        if self.session is not None:
            self.session.flush()

    # -- the agent's transcripts, one-file re-checks ------------------------------------

    @work(thread=True, exclusive=True, exit_on_error=False, group="transcripts")
    def index_transcripts(self) -> None:
        """Transcripts: a quick list first (peeks), then every file streamed, with progress."""
        from textual.worker import get_current_worker

        svc, worker, last = self.transcripts, get_current_worker(), [0.0]

        def progress(what: str, fraction: float) -> None:
            if time.monotonic() - last[0] > 0.3:
                last[0] = time.monotonic()
                self.tell(msg.TranscriptsChanged())

        try:
            svc.quick()
            self.tell(msg.TranscriptsChanged())
            svc.build(progress, lambda: worker.is_cancelled)
        except Exception as exc:  # noqa: BLE001 - shown to the user, never a traceback
            self.tell(msg.Notice(f"Could not read the agent's transcripts: {exc}", severity="warning"))
            return
        self.tell(msg.TranscriptsChanged(done=True))

    def on_transcripts_changed(self, message: msg.TranscriptsChanged) -> None:
        if message.done and self.workspace is not None:
            self.transcripts.usage_for(self.workspace.store)
        self.transcripts_signal.publish(self.transcripts)
        if message.done:
            self.load_proof()

    _proof_asked = 0

    def load_proof(self) -> None:
        """Hold the sessions against the model, once both are ready (again when either changes)."""
        svc, model = self.transcripts, self.context_model
        if svc is None or not svc.indexed or model is None or "claude-code" not in model.agents:
            return
        self._proof_asked += 1
        self._prove(model.root, list(svc.sessions), self._proof_asked)

    @work(thread=True, exclusive=False, exit_on_error=False, group="proof")
    def _prove(self, root: str, sessions: list, generation: int) -> None:
        from ..proof import prove

        try:
            proof = prove(root, sessions, token_counter=self.token_counter)
        except Exception as exc:  # noqa: BLE001 - shown to the user, never a traceback
            self.tell(msg.Notice(f"Could not hold the sessions against the model: {exc}", severity="warning",
                                 markup=False))
            proof = None
        self.tell(msg.ProofLoaded(proof, generation))

    def on_proof_loaded(self, message: msg.ProofLoaded) -> None:
        if message.generation < self._proof_asked:
            return
        self.proof = message.proof
        self.proof_signal.publish(message.proof)

    @work(thread=True, exclusive=False, exit_on_error=False, group="recheck")
    def recheck(self, path: str) -> None:
        """Re-read one file of the current source (F5): a new snapshot if it changed."""
        session = self.session
        if session is None or session.workspace is None:
            return
        swap = session.recheck(session.current, [path])
        if swap is not None:
            self.tell(msg.Swapped([swap]))
        self.tell(msg.Notice(f"re-checked {path}", timeout=2))

    def on_recheck(self, message: msg.Recheck) -> None:
        self.recheck(message.path)

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


def _recover_repository(root: Path, warn) -> None:
    """An instruction-file fix a kill interrupted is rolled back as the app opens (never
    waiting), or each file left missing is named with how to put it back — as every command does."""
    from ..curation.recovery import recover_now

    try:
        done = recover_now(root)
    except OSError as exc:
        warn(f"Could not check the repository's journal: {exc}")
        return
    if done:
        back = ", ".join(done.restored) or "its files"
        warn(f"Recovered an interrupted fix of the instruction files ({', '.join(done)}): {back} put back.")
    for note in done.notes:  # a file left missing, with the `mv` that puts it back: an error, so no later
        warn(note, "error")  # toast of the load (one at a time) replaces it
