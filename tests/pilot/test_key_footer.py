"""KeyFooter: built again when the keys it shows change, never for the same keys."""

from __future__ import annotations

from textual.app import App
from textual.binding import Binding

from curator.tui.widgets import KeyFooter
from tests.pilot.conftest import wait_until


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
        footer = app.query_one(KeyFooter)
        # the footer composes on the bindings signal: on a busy CI machine a pause may come first
        await wait_until(pilot, lambda: _drawn(footer) == ["Go", "Stay"], seen=lambda: _drawn(footer))
        first = list(footer.children)

        app.screen.refresh_bindings()  # a cursor move, the same keys
        await pilot.pause()
        await pilot.pause()
        assert list(footer.children) == first  # the very same widgets: not mounted again

        app.go_shown = False  # a key goes away
        app.screen.refresh_bindings()
        await wait_until(pilot, lambda: _drawn(footer) == ["Stay"], seen=lambda: _drawn(footer))

        app.go_shown = True  # and comes back
        app.screen.refresh_bindings()
        await wait_until(pilot, lambda: _drawn(footer) == ["Go", "Stay"], seen=lambda: _drawn(footer))
