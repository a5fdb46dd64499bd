"""The app's background work: loading every source, the instruction files' context model, the
transcripts' index, the sessions held against the model and one-file re-checks. Each runs on a
worker's thread and hands what it found back to this object on the UI thread (`app.later`: a
message, so no thread waits for the UI loop); notices are messages too. The app owns one `Background`."""

from __future__ import annotations

import time
from pathlib import Path

from . import messages as msg

QUIET = 0.25  # seconds of a load that show no progress (a quick load never draws a moving bar)


def paced(every: float):
    """`due(last=False)`: whether a progress report goes to the screen now — none in the first
    QUIET seconds (each report re-lays the screen out: ~8% of the sample's start-up, for a bar
    nobody sees), then at most one every `every` seconds (a large store's walk reports thousands
    a second); `last`: the final report of a step, let through once the quiet start is over."""
    start = time.monotonic()
    shown = [start]

    def due(last: bool = False) -> bool:
        now = time.monotonic()
        if now - start < QUIET or (now - shown[0] < every and not last):
            return False
        shown[0] = now
        return True

    return due


def _after_first_load(layout, app, progress):
    """The progress of the app's own load: a large store's first load runs in a child first
    (live/first_load.py: the cold run's memory goes back when it exits), then the app's load,
    from the caches it left, fills the rest of the bar."""
    from ..live import first_load

    if not first_load.wanted(layout, app.load_options):
        return progress
    if not first_load.load_elsewhere(Path(layout.root), app.given, progress):
        return progress  # loaded here, cold, as before (the bar starts again)
    share = first_load.SHARE
    return lambda what, fraction: progress(what, share + (1 - share) * fraction)


class Background:
    def __init__(self, app) -> None:
        self.app = app
        self.context_asked = 0  # load_context calls so far: only the latest one's model is shown
        self.proof_asked = 0

    # -- loading ------------------------------------------------------------------------

    def load_store(self) -> None:
        self.app.in_worker(self._load_store, group="load")

    def _load_store(self) -> None:
        from ..base.children import Stopped
        from ..curation import CurationError, recover
        from ..curation.journal import Recovered
        from ..live.workbench import open_workbench
        from ..model.sources import discover

        app, due = self.app, paced(0.05)

        def progress(what: str, fraction: float) -> None:
            if due(last=fraction >= 1):
                app.later(app._progress, what, fraction)

        def warn(text: str, severity: str = "warning") -> None:
            from ..reports.escape import visible

            app.tell(msg.Notice(visible(text), severity=severity, timeout=10, markup=False))

        try:
            if app.layout is None and not app.store_root.is_dir():
                raise RuntimeError(f"store not found: {app.given}")
            layout = app.layout or discover(app.store_root)
            _recover_repository(Path(layout.root), warn)
            if not layout.memory_sources():
                app.later(self.load_failed, f"no agent memory found in {app.given}", True)
                return
            for spec in layout.memory_sources():
                if spec.read_only or not Path(spec.root).is_dir():
                    continue
                try:
                    recovered = recover(Path(spec.root))
                except (CurationError, OSError) as exc:  # e.g. a symlinked .curator: reading still works
                    recovered = Recovered()
                    warn(f"Writing to {spec.rel} is off: {exc}")
                if recovered:
                    warn(f"Recovered an interrupted operation in {spec.rel} "
                         f"({', '.join(recovered)}): it is as it was before it.")
                for note in getattr(recovered, "notes", []):
                    warn(note)
            bench = open_workbench(layout, app.load_options, progress=_after_first_load(layout, app, progress),
                                   prefer=app.store_root)
            if bench.workspace is None:
                errors = "; ".join(f"{s.name}: {s.error}" for s in bench.sources if s.error)
                raise RuntimeError(errors or "no memory store found")
        except Stopped:
            return  # the app is leaving
        except Exception as exc:  # noqa: BLE001 - shown to the user, never a traceback
            app.later(self.load_failed, str(exc), False)
            return
        app.later(self.loaded, bench)

    def loaded(self, bench) -> None:
        import gc

        app = self.app
        app.workbench = bench
        app.store_root = Path(bench.sources[bench.current].spec.root)
        app._loaded(bench.workspace)
        # the loaded snapshots live on: later collections need not scan them again (a change
        # on disk makes a new snapshot sharing most records, so this is done once per load)
        gc.freeze()
        app.watchers.start()
        self.load_context()

    def load_failed(self, error: str, no_memory: bool) -> None:
        app = self.app
        app.load_error = error
        if not no_memory:  # (no memory: an error only when no instruction file shows either)
            app.notify(f"Could not open the store: {error}", severity="error", timeout=15)
        app._progress(f"could not open the store: {error}", 0)
        if app.store_root.is_dir():
            self.load_context()  # a repository of instruction files only still has its Context view

    # -- the instruction files: what each agent loads (the Context view, tree and overview) --

    def load_context(self, live: bool = False) -> None:
        """Build the instruction files' context model in a worker (`live`: again, after a change)."""
        self.context_asked += 1
        self.app.in_worker(self._build_context, live, self.context_asked, group="context", exclusive=False)

    def _build_context(self, live: bool, generation: int) -> None:
        from ..live.instructions import load_context
        from ..model.sources import discover

        app = self.app
        try:
            layout = app.workbench.layout if app.workbench is not None else app.layout or discover(app.store_root)
            model = load_context(layout, app.token_counter)
        except Exception as exc:  # noqa: BLE001 - shown to the user, never a traceback
            app.tell(msg.Notice(f"Could not read the instruction files: {exc}", severity="warning",
                                markup=False))
            model = None
        app.later(self.context_loaded, model, live, generation)

    def context_loaded(self, model, live: bool, generation: int) -> None:
        app = self.app
        if generation < self.context_asked:
            return  # a newer model is on its way
        app.context_model = model
        app.watchers.follow_instructions(model)
        if app.workbench is not None and model is not None:
            app.workbench.set_instructions(model)  # its findings: the header's and Problems' counts
        app.context_signal.publish(model)
        self.load_proof()
        if live:
            if app.workspace is not None:
                app.workspace_signal.publish(app.workspace)  # counts with the instruction findings
            return
        if app.workbench is not None:
            return
        if model is not None and model.agents:
            # no memory to show, but instruction files: what each agent loads is the screen
            app.notify("No agent memory here: showing what each agent loads from its instruction files.",
                       timeout=8)
            app.show_view("context")
        elif app.load_error:
            app.notify(f"Could not open the store: {app.load_error}", severity="error", timeout=15)

    # -- the agent's transcripts, the proof, one-file re-checks ----------------------------

    def index_transcripts(self) -> None:
        self.app.in_worker(self._index_transcripts, group="transcripts")

    def _index_transcripts(self) -> None:
        """Transcripts: a quick list first (peeks), then every file streamed, with progress."""
        from textual.worker import get_current_worker

        app = self.app
        svc, worker, due = app.transcripts, get_current_worker(), paced(0.3)

        def progress(what: str, fraction: float) -> None:
            if due():
                app.later(self.transcripts_changed, False)

        try:
            svc.quick()
            app.later(self.transcripts_changed, False)
            svc.build(progress, lambda: worker.is_cancelled)
        except Exception as exc:  # noqa: BLE001 - shown to the user, never a traceback
            app.tell(msg.Notice(f"Could not read the agent's transcripts: {exc}", severity="warning"))
            return
        app.later(self.transcripts_changed, True)

    def transcripts_changed(self, done: bool) -> None:
        app = self.app
        if done and app.workspace is not None:
            app.transcripts.usage_for(app.workspace.store)
        app.transcripts_signal.publish(app.transcripts)
        if done:
            self.load_proof()

    def load_proof(self) -> None:
        """Hold the sessions against the model, once both are ready (again when either changes)."""
        svc, model = self.app.transcripts, self.app.context_model
        if svc is None or not svc.indexed or model is None or "claude-code" not in model.agents:
            return
        self.proof_asked += 1
        self.app.in_worker(self._prove, model.root, list(svc.sessions), self.proof_asked, group="proof",
                           exclusive=False)

    def _prove(self, root: str, sessions: list, generation: int) -> None:
        from ..proof import prove

        app = self.app
        try:
            proof = prove(root, sessions, token_counter=app.token_counter)
        except Exception as exc:  # noqa: BLE001 - shown to the user, never a traceback
            app.tell(msg.Notice(f"Could not hold the sessions against the model: {exc}", severity="warning",
                                markup=False))
            proof = None
        app.later(self.proof_loaded, proof, generation)

    def proof_loaded(self, proof, generation: int) -> None:
        if generation < self.proof_asked:
            return
        self.app.proof = proof
        self.app.proof_signal.publish(proof)

    def recheck(self, path: str) -> None:
        self.app.in_worker(self._recheck, path, group="recheck", exclusive=False)

    def _recheck(self, path: str) -> None:
        """Re-read one file of the current source (F5): a new snapshot if it changed."""
        app = self.app
        bench = app.workbench
        if bench is None or bench.workspace is None:
            return
        swap = bench.recheck(bench.current, [path])
        if swap is not None:
            app.tell(msg.Swapped([swap]))
        app.tell(msg.Notice(f"re-checked {path}", timeout=2))


    def state_changed(self, event) -> None:
        """Every worker's failure, in one place: a notice naming what failed (never a thread
        that dies silently)."""
        from textual.worker import WorkerState

        if event.state != WorkerState.ERROR:
            return
        worker = event.worker
        error = worker.error
        what = worker.name or worker.group or "a background task"
        self.app.notify(f"{what} failed: {type(error).__name__}: {error}", severity="error", timeout=10,
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
