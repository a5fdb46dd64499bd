"""A text box that takes only what people type: printable characters and editing keys.

Escape (and Down, where there is somewhere to go) leaves the box for the widget named by
`leave_to`, so the screen's and the app's keys work again; the box never selects its whole text
on focus, so typing adds to what is there instead of replacing it. `typing_hides()` is what
screens and the app use to hide single-character bindings from the footer while a box has focus:
those keys are typed into the box, so showing them would advertise keys that do not work.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual.binding import Binding, BindingsMap
from textual.keys import REPLACED_KEYS, key_to_character
from textual.widgets import Input


class TextBox(Input):
    BINDINGS = [
        Binding("escape", "leave", "Leave", show=False, id="leave-box", tooltip="Leave the text box"),
        Binding("down", "leave_down", "Leave", show=False, id="leave-box-down", tooltip="Go to the results"),
    ]

    def __init__(self, value: str | None = None, *, leave_to: str | None = None, leave_on_down: bool = True,
                 **kwargs) -> None:
        kwargs.setdefault("select_on_focus", False)
        super().__init__(value, **kwargs)
        self.leave_to = leave_to
        self.leave_on_down = leave_on_down

    def on_mount(self) -> None:
        # the cursor at the end, once the box has a width to scroll in: typing adds to the text
        self.call_after_refresh(self._to_end)

    def _to_end(self) -> None:
        from textual.geometry import Region

        self.action_end()
        # Input does not scroll for its initial value; show the end, where typing goes
        offset = cell_len(self.value[: self.cursor_position])
        self.scroll_to_region(Region(offset, 0, width=1, height=1), force=True, animate=False)

    def check_action(self, action: str, parameters) -> bool | None:
        if action == "leave":
            return self.leave_to is not None  # else Escape goes on to the dialog or screen
        if action == "leave_down":
            return self.leave_to is not None and self.leave_on_down
        return super().check_action(action, parameters)

    def action_leave(self) -> None:
        target = self.screen.query(self.leave_to).first() if self.leave_to else None
        if target is not None and target.focusable:
            target.focus()
        else:
            self.screen.set_focus(None)

    def action_leave_down(self) -> None:
        self.action_leave()


def is_printable(key: str) -> bool:
    """Would a text box take this key as text? ('q', 'question_mark', 'space': yes)"""
    # key_to_character misses the keys Textual renamed ('slash' for 'solidus'): ask for both
    char = key_to_character(key) or key_to_character(REPLACED_KEYS.get(key, key))
    return char is not None and len(char) == 1 and char.isprintable()


def typing_hides(node, action: str) -> bool:
    """True when a text box has focus and every key bound to `action` in `node` is one the box
    would take as text (so the binding cannot fire and must not be shown)."""
    from textual.app import App

    try:
        focused = node.screen.focused if isinstance(node, App) else node.focused
    except Exception:  # noqa: BLE001 - no screen yet
        return False
    if not isinstance(focused, Input):
        return False
    keys = [key for cls in type(node).__mro__ if "BINDINGS" in cls.__dict__
            for key, bindings in BindingsMap(cls.__dict__["BINDINGS"]).key_to_bindings.items()
            for b in bindings if b.action.split("(", 1)[0] == action]
    return bool(keys) and all(is_printable(k) for k in keys)
