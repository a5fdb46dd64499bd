"""The instruction files followed on disk: CLAUDE.md, AGENTS.md, rules, skills edited (or added
where an agent looks) while the app is open. Each batch that touches what the context model read
is handed on; the app then builds the model again in a worker. Only the places the model names
are watched (`context.watched.watch_places`), never the whole repository. Pure: no Textual."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

from ..context.model import ContextModel
from ..context.watched import WatchPlaces, touches, watch_places

Events = Callable[[WatchPlaces, threading.Event], Iterable[set]]


def watch_instructions(current: Callable[[], ContextModel | None], on_change: Callable[[set], None], stop: threading.Event,
                       events: Events | None = None, on_error: Callable[[Exception], None] | None = None) -> None:
    """Follow the places the current context model (`current()`) names until `stop` is set:
    each batch of changed paths that `touches` the model current then goes to `on_change`.
    `events(places, stop)` yields batches of absolute paths (default: watchfiles); tests pass
    their own."""
    source = events or watch_places_on_disk
    first = current()
    if first is None:
        return  # no model (yet): nothing to follow
    try:
        for batch in source(watch_places(first), stop):
            if stop.is_set():
                return
            model = current()
            if model is not None and touches(model, batch):
                on_change(set(batch))
    except Exception as exc:  # noqa: BLE001 - e.g. a watched folder went away: said, never fatal
        if on_error is not None and not stop.is_set():
            on_error(exc)


def watch_places_on_disk(places: WatchPlaces, stop: threading.Event, debounce_ms: int = 150) -> Iterable[set]:
    """Batches of changed paths under `places` through watchfiles: one watcher for the folders
    followed alone, one for those followed with their subfolders (watchfiles takes one
    `recursive` per watcher); their batches are merged."""
    from watchfiles import watch

    out: queue.Queue = queue.Queue()

    def run(paths: tuple[str, ...], recursive: bool) -> None:
        try:
            for changes in watch(*paths, stop_event=stop, debounce=debounce_ms, step=50, recursive=recursive,
                                 watch_filter=None, raise_interrupt=False, yield_on_timeout=False):
                out.put({Path(p) for _change, p in changes})
        except Exception as exc:  # noqa: BLE001 - handed to the reader, who reports it
            out.put(exc)

    groups = [(tuple(p for p in paths if Path(p).is_dir()), recursive)
              for paths, recursive in ((places.flat, False), (places.deep, True))]
    threads = [threading.Thread(target=run, args=(paths, recursive), name="curator-watch-instructions", daemon=True)
               for paths, recursive in groups if paths]
    for t in threads:
        t.start()
    while not stop.is_set():
        try:
            got = out.get(timeout=0.1)
        except queue.Empty:
            if not any(t.is_alive() for t in threads):
                return
            continue
        if isinstance(got, Exception):
            raise got
        while True:  # what both watchers saw at once is one batch
            try:
                more = out.get_nowait()
            except queue.Empty:
                break
            if isinstance(more, Exception):
                raise more
            got |= more
        yield got


def describe_instructions(before, after, paths) -> tuple[dict, list[str]]:
    """What one instruction change did (the CLI's `watch`): the repository paths, the instruction
    findings added and cleared, each agent's start-up change — and those changes in `review`'s
    words, one line each."""
    import os

    from ..review.agent_startup import startup_changes

    def key(f):
        return (f.check, f.path, f.line, f.message)

    def rows(fs):
        return [{"check": f.check, "path": f.path, "line": f.line, "message": f.message}
                for f in sorted(fs, key=lambda f: f.sort_key())]

    old = {key(f): f for f in (before.findings if before is not None else [])}
    new = {key(f): f for f in after.findings}
    root = os.path.realpath(after.root)
    shown = sorted(os.path.relpath(os.fspath(p), root).replace(os.sep, "/") for p in paths)
    changes = startup_changes(before, after)
    return {"source": "instructions", "paths": shown, "findings": len(after.findings),
            "added": rows(new[k] for k in new.keys() - old.keys()),
            "cleared": rows(old[k] for k in old.keys() - new.keys()),
            "agents": {name: after.startup_tokens(name) for name in after.agents},
            "startup_changes": [c.to_json() for c in changes]}, [c.line() for c in changes]
