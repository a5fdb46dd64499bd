"""What the app's workers, its watcher and its screens tell the app. Textual messages: posted from
any thread (`CuratorApp.tell`), handled on the UI thread in the order they were sent, so no
thread ever waits for the UI loop (nor hangs on one that has stopped)."""

from __future__ import annotations

from textual.message import Message

# -- from the workers, the watchers and the flows (background.py, watchers.py, flows/) -------


class InstructionsChanged(Message):
    """The instruction watcher saw an instruction file change (absolute paths)."""

    def __init__(self, paths) -> None:
        super().__init__()
        self.paths = paths


class Swapped(Message):
    """Sources got new snapshots (seen on disk, re-checked or written by us)."""

    def __init__(self, swaps: list) -> None:
        super().__init__()
        self.swaps = swaps


class Notice(Message):
    """A toast for the user (the arguments of `App.notify`)."""

    def __init__(self, text: str, **options) -> None:
        super().__init__()
        self.text, self.options = text, options


class ShowSessions(Message):
    """A screen asks for the sessions that loaded a file (the Sessions screen, filtered)."""

    def __init__(self, path: str, session_ids: list[str]) -> None:
        super().__init__()
        self.path = path
        self.session_ids = session_ids


class Later(Message):
    """Run `fn(*args, **kwargs)` on the UI thread: a flow's result, after what it told before
    (`flows.port.Port.later`)."""

    def __init__(self, fn, *args, **kwargs) -> None:
        super().__init__()
        self.fn, self.args, self.kwargs = fn, args, kwargs


# -- from the screens and the palette: what the user asked for --------------------------------


class OpenPath(Message):
    """Show a file on the store screen."""

    def __init__(self, path: str, line: int | None = None) -> None:
        super().__init__()
        self.path, self.line = path, line


class Recheck(Message):
    """Read one file of the current source again (F5, or an edit made outside)."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path


class SelectSource(Message):
    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index


class Propose(Message):
    """Preview a plan's diff; apply it if the user confirms."""

    def __init__(self, plan) -> None:
        super().__init__()
        self.plan = plan


class FixFindings(Message):
    def __init__(self, findings: list, safe_only: bool = False) -> None:
        super().__init__()
        self.findings, self.safe_only = findings, safe_only


class Promote(Message):
    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path


class EditKeywords(Message):
    def __init__(self, index: str, line: int) -> None:
        super().__init__()
        self.index, self.line = index, line
