"""Child processes of curator's own (`python -m curator.…`): the app keeps work that would leave
it large — the model's reading, a large store's first index — out of its own memory, which the
child gives back whole when it exits."""

from __future__ import annotations

import os
import subprocess
import sys
import weakref
from collections.abc import Callable
from pathlib import Path


def child_env() -> dict[str, str]:
    """The environment of a curator child process: it imports this same curator, wherever this
    process found it (a site-packages folder is on its path already, and put first it could
    shadow the standard library)."""
    here = Path(__file__).resolve().parents[2]
    env = dict(os.environ)
    if here.name not in ("site-packages", "dist-packages"):
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(here), os.environ.get("PYTHONPATH")) if p)
    return env


def give_way(step: int = 10) -> None:
    """Lower this child's priority: while it works for the app (the model reading passages, a
    first load) the app's UI and searches take the cores first, and the child has the idle ones."""
    try:
        os.nice(step)
    except (AttributeError, OSError):  # no nice (Windows), or not allowed
        pass


class Stopped(Exception):
    """A child the leaving app stopped (`stop_all`): the work that waited on it ends here and is
    not done another way (a first load in the app, a reading in its own process)."""


_RUNNING: set[subprocess.Popen] = set()  # started here and not yet stopped (the app stops them as it leaves)
# the children stop_all killed: their waiter gives up rather than doing the work itself (the
# objects, not their pids, which the system may give to a later child)
STOPPED: weakref.WeakSet[subprocess.Popen] = weakref.WeakSet()


def start(module: str, *args: str) -> subprocess.Popen:
    """`python -m module args…` with pipes on its stdin and stdout (OSError when it cannot start)."""
    child = subprocess.Popen([sys.executable, "-m", module, *args], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=child_env())
    _RUNNING.add(child)
    return child


def run(module: str, *args: str, line: Callable[[str], None] | None = None, timeout: float | None = None) -> bool:
    """Run `python -m module args…` to its end, `line(text)` hearing each line it prints: True
    when it exits 0; False when it cannot start, fails or outlives `timeout`; Stopped when the
    leaving app stopped it (the caller then does not do the work another way)."""
    try:
        child = start(module, *args)
    except OSError:
        return False
    try:
        if line is not None:
            assert child.stdout is not None
            for raw in child.stdout:
                line(raw.decode("utf-8", "replace").rstrip("\n"))
        done = child.wait(timeout=timeout) == 0
    except subprocess.TimeoutExpired:
        done = False
    finally:
        stop(child)
    if stopped(child):
        raise Stopped
    return done


def stop(child: subprocess.Popen, grace: float = 0.0) -> None:
    """End `child`: its pipes closed, `grace` seconds to exit on its own, then killed if it still
    runs, and its exit collected."""
    _RUNNING.discard(child)
    for pipe in (child.stdin, child.stdout):
        try:
            if pipe is not None:
                pipe.close()
        except OSError:
            pass  # it ended on its own
    for wait, kill in ((grace, True), (5.0, False)):
        try:
            child.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            if kill:
                child.kill()


def stop_all() -> None:
    """Kill every child still running: a leaving app never waits for a first load or a reading
    (the worker thread that waits on one then sees its pipe end)."""
    for child in list(_RUNNING):
        if child.poll() is None:
            STOPPED.add(child)
            child.kill()


def stopped(child: subprocess.Popen) -> bool:
    """Did `stop_all` end this child (rather than a failure of its own)?"""
    return child in STOPPED
