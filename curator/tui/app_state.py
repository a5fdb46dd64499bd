"""What the screens read of the app: the loaded workbench and its current workspace, the context
model, the sessions and the proof, the signals that say when each changes, and the few app calls
a screen makes. `CuratorApp` is this; a screen types `self.app` as it (`CuratorScreen.app`), as
the screens cannot import the app module, which registers them. Annotations only: nothing here
runs, the app sets every value."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.app import App

if TYPE_CHECKING:
    from pathlib import Path

    from textual.signal import Signal

    from ..base.tokens import TokenCounter
    from ..context.model import ContextModel
    from ..live.workbench import Workbench
    from ..live.workspace import Workspace
    from ..model.loader import LoadOptions
    from ..proof.run import Proof
    from ..transcripts.service import SessionsService
    from .background import Background


class AppState(App[None]):
    store_root: Path
    given: str
    token_counter: TokenCounter | None
    load_options: LoadOptions
    notice: str | None
    notice_seen: bool  # the first screen showed the notice once
    workbench: Workbench | None  # every memory system of the repository, once loaded
    workspace: Workspace | None  # the current one's
    workspace_signal: Signal
    context_model: ContextModel | None  # the instruction files' model, built in a worker
    context_signal: Signal
    proof: Proof | None  # the sessions held against the model, built in a worker
    proof_signal: Signal
    transcripts: SessionsService | None  # the session tier, indexed in a worker
    transcripts_signal: Signal
    # what Problems, Budgets, Drift, Review and the header show: None the whole repository, a
    # source's index, or live.scope.INSTRUCTIONS (the instruction files' findings)
    scope: int | str | None
    background: Background
    select_source: Callable[[int], bool]
    open_path: Callable[..., None]
    hand_off: Callable[..., object]  # a callback's result from a worker, on the UI thread (None once leaving)
