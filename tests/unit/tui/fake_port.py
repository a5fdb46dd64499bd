"""A fake of the app's port (`curator.tui.flows.port.Port`): what a flow shows is recorded, a
diff is answered by the test, work "off the UI thread" and results "on the UI thread" run when
the test says (`settle`), in the order they were asked — as the app's workers and messages do."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Shown:
    plan: object
    decided: object
    prefix: str
    store: str | None

    def answer(self, ok: bool | None) -> None:
        self.decided(ok)


@dataclass
class FakePort:
    workbench: object = None
    context_model: object = None
    store_root: Path = Path(".")
    given: str = "store"
    read_only: bool = False
    diffs: list[Shown] = field(default_factory=list)
    withdrawn: list = field(default_factory=list)
    dialogs: list = field(default_factory=list)
    toasts: list[tuple[str, str]] = field(default_factory=list)
    refreshed: list = field(default_factory=list)
    opened: list[str] = field(default_factory=list)
    instructions: list = field(default_factory=list)
    queued: list = field(default_factory=list)  # ("bg" | "ui", fn, args, kwargs)
    curation: object = None  # the flow a refresh re-plans (the app's `_swapped` does the same)

    @property
    def workspace(self):
        return self.workbench.workspace if self.workbench is not None else None

    def show_diff(self, plan, decided, *, prefix="", store=None):
        shown = Shown(plan, decided, prefix, store)
        self.diffs.append(shown)
        return shown

    def withdraw(self, shown) -> None:
        self.withdrawn.append(shown)

    def ask(self, dialog, decided=None) -> None:
        self.dialogs.append((dialog, decided))

    def notify(self, message, *, title="", severity="information", timeout=None, markup=True) -> None:
        self.toasts.append((message, severity))

    def refresh_views(self, swaps) -> None:
        self.refreshed.append(swaps)
        bench = self.workbench
        mine = [s for s in swaps if bench is not None and s.index == bench.current]
        if self.curation is not None:
            self.curation.replan_if_touched([p for s in mine for p in s.paths])

    def open_path(self, path, line=None) -> None:
        self.opened.append(path)

    def instructions_changed(self, paths) -> None:
        self.instructions.append(list(paths))

    def in_background(self, fn, *args) -> None:
        self.queued.append(("bg", fn, args, {}))

    def later(self, fn, *args, **kwargs) -> None:
        self.queued.append(("ui", fn, args, kwargs))

    def settle(self) -> None:
        """Run what was asked, in order, until nothing is left."""
        while self.queued:
            _where, fn, args, kwargs = self.queued.pop(0)
            fn(*args, **kwargs)

    @property
    def last_diff(self) -> Shown:
        return self.diffs[-1]

    def said(self, words: str) -> list[tuple[str, str]]:
        return [t for t in self.toasts if words in t[0]]
