"""KeyFooter: built again when the keys it shows change, never for the same keys."""

from __future__ import annotations

from textual.app import App
from textual.binding import Binding

from curator.tui.widgets import KeyFooter


class Keys(App):
    BINDINGS = [Binding("a", "go", "Go"), Binding("b", "stay", "Stay")]
    go_shown = True

    def compose(self):
        yield KeyFooter(compact=True, show_command_palette=False)

    def check_action(self, action, parameters):
        return self.go_shown if action == "go" else True

    def action_go(self) -> None:
        pass

    def action_stay(self) -> None:
        pass


def _drawn(footer) -> list[str]:
    return [getattr(key, "description", "") for key in footer.children]


async def test_the_same_keys_keep_the_footer_and_other_keys_rebuild_it():
    app = Keys()
    async with app.run_test(size=(40, 5)) as pilot:
        await pilot.pause()
        footer = app.query_one(KeyFooter)
        first = list(footer.children)
        assert _drawn(footer) == ["Go", "Stay"]

        app.screen.refresh_bindings()  # a cursor move, the same keys
        await pilot.pause()
        await pilot.pause()
        assert list(footer.children) == first  # the very same widgets: not mounted again

        app.go_shown = False  # a key goes away
        app.screen.refresh_bindings()
        await pilot.pause()
        await pilot.pause()
        assert _drawn(footer) == ["Stay"]

        app.go_shown = True  # and comes back
        app.screen.refresh_bindings()
        await pilot.pause()
        await pilot.pause()
        assert _drawn(footer) == ["Go", "Stay"]
