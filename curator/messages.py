"""App-level requests and events (imperative names) shared by screens."""

from __future__ import annotations

from textual.message import Message


class WorkspaceLoaded(Message):
    """The store finished loading (or re-checking); screens re-render from app.workspace."""


class LoadProgress(Message):
    def __init__(self, what: str, fraction: float) -> None:
        super().__init__()
        self.what = what
        self.fraction = fraction


class OpenPath(Message):
    """Show this file (and line) on the store screen."""

    def __init__(self, path: str, line: int | None = None) -> None:
        super().__init__()
        self.path = path
        self.line = line
