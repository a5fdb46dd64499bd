"""The views on one screen stack (tui/views.py): each view is made on its first visit and kept, a
first visit never re-applies the whole stylesheet, a view hidden during a theme change shows the
new theme, and a switch asked for by code while a dialog is open leaves the dialog where it is."""

from __future__ import annotations

from textual.app import App
from textual.widgets import Input

from curator.base.tokens import FakeTokenCounter
from curator.tui.app import make_app
from curator.tui.screens import HelpScreen, MainScreen, RetrievalLabScreen
from curator.tui.views import VIEWS
from tests.pilot.conftest import settle

KEYS = {"1": "store", "2": "problems", "3": "budgets", "4": "lab", "5": "sessions", "6": "drift", "7": "context"}


def styles(app) -> list[tuple[str, ...]]:
    return sorted((type(w).__name__, w.id or "", " ".join(sorted(w.classes)), str(w.styles.background), str(w.styles.color))
                  for w in app.screen.walk_children())


async def test_each_view_is_made_once_kept_and_shown_without_reapplying_the_stylesheet(app, monkeypatch):
    refreshed = []
    real = App.refresh_css
    monkeypatch.setattr(App, "refresh_css", lambda self, *a, **k: (refreshed.append(1), real(self, *a, **k))[1])
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert app.current_view == "store" and isinstance(app.screen, MainScreen)
        store = app.screen
        refreshed.clear()
        made = {}
        for key, name in KEYS.items():
            await pilot.press(key, *(["escape"] if name == "lab" else []))  # (the lab's box takes digits)
            await settle(app, pilot)
            assert app.current_view == name and type(app.screen) is VIEWS[name], key
            made[name] = app.screen
        # Textual's modes re-parsed and re-applied every rule to every screen twice a first visit
        assert refreshed == []
        assert made["store"] is store  # the same screen, its cursor and folds kept
        await pilot.press("4")
        await settle(app, pilot)
        lab = app.screen
        assert isinstance(lab, RetrievalLabScreen) and lab is made["lab"]
        lab.query_one("#lab-query", Input).value = "release tags"
        await pilot.press("escape", "2", "4")
        await settle(app, pilot)
        assert app.screen is lab and lab.query_one("#lab-query", Input).value == "release tags"


async def test_a_switch_asked_while_a_dialog_is_open_leaves_the_dialog_and_its_view(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("f1")
        await settle(app, pilot)
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        await app.show_view("lab")  # what a finished search or a palette entry asks for
        await pilot.press("4")  # the view keys do not reach the app under a dialog
        await settle(app, pilot)
        assert app.screen is help_screen and app.current_view == "store"
        await pilot.press("escape")
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)


def _app_in(sample_copy, theme: str):
    return make_app(sample_copy, given="memories", token_counter=FakeTokenCounter(), theme=theme, remember_theme=False)


async def test_a_view_hidden_during_a_theme_change_shows_the_new_theme(sample_copy):
    app = _app_in(sample_copy, "curator-dark")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("4")
        await settle(app, pilot)
        await pilot.press("escape", "1", "ctrl+t")  # the lab is hidden while the theme changes
        await settle(app, pilot)
        theme = app.theme
        assert theme != "curator-dark"
        await pilot.press("4")
        await settle(app, pilot)
        seen = styles(app)
    fresh = _app_in(sample_copy, theme)
    async with fresh.run_test(size=(80, 24)) as pilot:
        await settle(fresh, pilot)
        await pilot.press("4", "escape", "1")  # the same steps without the theme change
        await settle(fresh, pilot)
        await pilot.press("4")
        await settle(fresh, pilot)
        assert styles(fresh) == seen
