"""The app's two watchers: the store's (changes on disk become new snapshots of every source) and
the instruction files' (CLAUDE.md, AGENTS.md, rules, skills edited on disk: the context model is
built again). Each runs on its own thread and posts what it saw (`curator.tui.messages`); both are
off with CURATOR_NO_WATCH=1 unless a test gives its own event source (`app.watch_events`,
`app.instruction_events`). The app owns one `Watchers`."""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING

from . import messages as msg

if TYPE_CHECKING:
    from ..context.watched import WatchPlaces


class Watchers:
    def __init__(self, app) -> None:
        self.app = app
        self.stop_event: threading.Event | None = None  # the store watcher's
        self.thread: threading.Thread | None = None
        self.leaving: threading.Thread | None = None  # the store watcher's thread, stopped when the app began to leave
        self.instruction_stop: threading.Event | None = None
        self.instruction_places: WatchPlaces | None = None  # what the instruction watcher follows

    # -- the store watcher: changes on disk become new snapshots ----------------------------

    def start(self) -> None:
        """Follow every source on disk."""
        app = self.app
        self.stop()
        if app.workbench is None or (os.environ.get("CURATOR_NO_WATCH") and app.watch_events is None):
            return
        stop = threading.Event()
        self.stop_event = stop
        bench = app.workbench

        def swaps(found) -> None:
            if not stop.is_set():
                app.tell(msg.Swapped(found))

        def failed(exc: Exception) -> None:
            if not stop.is_set():
                app.tell(msg.Notice(f"Watching the store stopped working: {exc}", severity="warning",
                                    timeout=10, markup=False))

        thread = threading.Thread(target=bench.watch, args=(swaps, stop, app.watch_events, failed),
                                  name="curator-watch", daemon=True)
        thread.start()
        self.thread = thread

    def stop(self):
        """Stop the store watcher; returns its thread (on quit it is joined before the loop
        closes, so a batch being read is never handed to a closed loop)."""
        if self.stop_event is not None:
            self.stop_event.set()
            self.stop_event = None
        thread, self.thread = self.thread, None
        return thread

    def leave(self) -> None:
        """The app begins to leave: no new batch is read by either watcher."""
        self.leaving = self.stop() or self.leaving
        self.stop_instructions()

    async def left(self) -> None:
        """The app is leaving (its loop still runs): wait for the store watcher."""
        import asyncio

        thread = self.stop() or self.leaving
        if thread is not None and thread.is_alive():
            await asyncio.to_thread(thread.join, 1.0)

    # -- the instruction watcher --------------------------------------------------------------

    def follow_instructions(self, model) -> None:
        """Follow the places `model` names (again only when they changed)."""
        from ..context.watched import watch_places
        from ..live.instruction_watch import watch_instructions

        app = self.app
        if model is None or (os.environ.get("CURATOR_NO_WATCH") and app.instruction_events is None):
            return self.stop_instructions()
        places = watch_places(model)
        if self.instruction_stop is not None and places == self.instruction_places:
            return None  # the same places: the running watcher judges by the current model
        self.stop_instructions()
        stop = threading.Event()
        self.instruction_stop, self.instruction_places = stop, places

        def changed(paths) -> None:
            if not stop.is_set():
                app.tell(msg.InstructionsChanged(paths))

        def failed(exc: Exception) -> None:
            app.tell(msg.Notice(f"Watching the instruction files stopped working: {exc}", severity="warning",
                                timeout=10, markup=False))

        threading.Thread(target=watch_instructions,
                         args=(lambda: app.context_model, changed, stop, app.instruction_events, failed),
                         name="curator-watch-instructions", daemon=True).start()
        return None

    def stop_instructions(self) -> None:
        if self.instruction_stop is not None:
            self.instruction_stop.set()
        self.instruction_stop = self.instruction_places = None
