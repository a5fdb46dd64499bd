"""A pane's title that lights while the focus is inside its pane (a rule such as
`#pane:focus-within > .title` in app.tcss). Textual restyles the ancestors of a focus change,
not their other children, so a title styled by its pane's focus kept the style of the focus
before: the title restyles itself whenever its screen's focus moves."""

from __future__ import annotations

from textual.widgets import Static


class PaneTitle(Static):
    def on_mount(self) -> None:
        self.watch(self.screen, "focused", self._focus_moved, init=False)

    def _focus_moved(self) -> None:
        self.app.update_styles(self)
