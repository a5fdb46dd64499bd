"""What the app's workers, its watcher and its screens tell the app. Textual messages: posted from
any thread (`CuratorApp.tell`), handled on the UI thread in the order they were sent, so no
thread ever waits for the UI loop (nor hangs on one that has stopped)."""

from __future__ import annotations

from textual.message import Message

# -- from the workers and the watcher (curator/tui/workers.py, curation_flow.py) --------------


class LoadProgress(Message):
    def __init__(self, what: str, fraction: float) -> None:
        super().__init__()
        self.what, self.fraction = what, fraction


class Loaded(Message):
    """Every source loaded: `session` is the live session (curator.live.session.Session)."""

    def __init__(self, session) -> None:
        super().__init__()
        self.session = session


class LoadFailed(Message):
    def __init__(self, error: str, no_memory: bool = False) -> None:
        super().__init__()
        self.error = error
        self.no_memory = no_memory  # the folder holds no memory system (its instruction files may still show)


class ContextLoaded(Message):
    """The repository's context model (curator.context) is built (None: no repository);
    `live`: built again because an instruction file changed on disk."""

    def __init__(self, model, live: bool = False, generation: int = 0) -> None:
        super().__init__()
        self.model = model
        self.live = live
        self.generation = generation  # a model older than the last one asked for is dropped


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


class ProofLoaded(Message):
    """The sessions held against the model (curator.proof.Proof; None: nothing to hold)."""

    def __init__(self, proof, generation: int = 0) -> None:
        super().__init__()
        self.proof = proof
        self.generation = generation


class ShowSessions(Message):
    """A screen asks for the sessions that loaded a file (the Sessions screen, filtered)."""

    def __init__(self, path: str, session_ids: list[str]) -> None:
        super().__init__()
        self.path = path
        self.session_ids = session_ids


class TranscriptsChanged(Message):
    """The transcripts' index grew (`done`: every file is read)."""

    def __init__(self, done: bool = False) -> None:
        super().__init__()
        self.done = done


class Applied(Message):
    """A plan was written: show the new snapshot, then `then_open` if it names a file."""

    def __init__(self, swap, then_open: str | None) -> None:
        super().__init__()
        self.swap, self.then_open = swap, then_open


class Refused(Message):
    """A plan was refused because a file it changes was edited outside: made again."""

    def __init__(self, swap, hit: list[str], replan, then_open: str | None, root=None) -> None:
        super().__init__()
        self.swap, self.hit, self.replan, self.then_open = swap, hit, replan, then_open
        self.root = root  # a plan of the repository's instruction files (not the store's)


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
