"""The app's views — the screens keys 1-7 and the palette show — on one screen stack: showing a
view replaces the view on top (`App.switch_screen`). Each view is made on its first visit and
kept (installed), so its cursor, filters and typed text wait for the next visit. The first view
is pushed over Textual's blank base screen: `switch_screen` cannot replace a stack's bottom
screen (it was not pushed, so it holds no result callback to pop).

Why not Textual's modes (one stack a view, which this was): a mode's first visit re-parsed and
re-applied the whole stylesheet to every screen twice, about 100 ms of CPU a view on the sample
(2,340 → 1,590 ms for the seven first visits), for nothing: the variables had not
changed. A dialog opens over the view it belongs to; while it is up no key reaches the app's
view keys (a modal screen ends the key chain), and a switch asked for by code is not made: the
dialog keeps its view until it is answered."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.await_complete import AwaitComplete

from .screens import BudgetsScreen, MainScreen, ProblemsScreen, RetrievalLabScreen
from .screens.context import ContextScreen
from .screens.drift import DriftScreen
from .screens.review import ReviewScreen
from .screens.sessions import SessionsScreen

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen

VIEWS: dict[str, Callable[[], Screen[Any]]] = {  # (App.SCREENS's type: each made when first shown)
    "store": MainScreen,
    "problems": ProblemsScreen,
    "budgets": BudgetsScreen,
    "lab": RetrievalLabScreen,
    "sessions": SessionsScreen,
    "review": ReviewScreen,
    "drift": DriftScreen,
    "context": ContextScreen,
}
FIRST = "store"


def name_of(screen: Screen) -> str | None:
    """The view a screen is, or None (a dialog, the help)."""
    return next((name for name, cls in VIEWS.items() if type(screen) is cls), None)


def current(app: App) -> str:
    """The view on top, or the one beneath the dialogs open over it."""
    return next(filter(None, map(name_of, reversed(app.screen_stack))), FIRST)


def show(app: App, name: str) -> AwaitComplete:
    """The view `name` in place of the one on top; nothing while a dialog is open over it."""
    if name not in VIEWS:
        raise ValueError(f"no view called {name!r}")
    if name_of(app.screen) is None:
        return AwaitComplete.nothing()
    return app.switch_screen(name)
