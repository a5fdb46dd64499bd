"""The small port the app's flows talk through (`Port`): what a flow needs of the face showing it —
the state it plans from, a diff shown for a yes or no, a toast, the screens refreshed, work off the
UI thread and its result back on it. `CuratorApp` implements it; the unit tests drive every flow
through a fake one (tests/unit/tui), so plan → diff → apply → re-plan is tested without Pilot."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol


class Port(Protocol):
    # the state a flow plans from (the app's: None until loaded)
    workbench: Any  # the workbench (curator.live.workbench.Workbench)
    workspace: Any  # the current source's snapshot (curator.live.workspace.Workspace)
    context_model: Any  # the instruction files' model (curator.context), None before it is built
    store_root: Path
    given: str

    @property
    def read_only(self) -> bool:
        """The current source may not be written (it lives outside the repository)."""

    def show_diff(self, plan, decided: Callable[[bool | None], None], *, prefix: str = "",
                  store: str | None = None) -> object:
        """Show `plan` as a diff and ask; `decided(True)` once the person applies it (False or
        None otherwise). Returns what is shown, for `withdraw`."""

    def withdraw(self, shown: object) -> None:
        """Take back a diff still shown and unanswered (its plan is out of date)."""

    def ask(self, dialog, decided: Callable[[Any], None] | None = None) -> None:
        """Show another dialog (prune, promote, keywords, tiers, history); `decided(its answer)`."""

    def notify(self, message: str, *, title: str = "", severity: str = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """A toast."""

    def refresh_views(self, swaps: list) -> None:
        """Sources got new snapshots: the screens show them (an open plan over them is made again)."""

    def open_path(self, path: str, line: int | None = None) -> None:
        """Show a file on the store screen."""

    def instructions_changed(self, paths: list) -> None:
        """Instruction files changed (absolute paths): their model is built again."""

    def in_background(self, fn: Callable[..., None], *args) -> None:
        """Run `fn(*args)` off the UI thread, one write at a time."""

    def later(self, fn: Callable[..., None], *args, **kwargs) -> None:
        """Run `fn(*args, **kwargs)` on the UI thread, after what was asked before (from any thread)."""
