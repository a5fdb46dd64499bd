"""KeyFooter: Textual's Footer that is built again only when the keys it shows change."""

from __future__ import annotations

from textual.widgets import Footer


def shown_keys(screen) -> tuple:
    """What a footer draws from `screen`: each active binding with its state and tooltip."""
    return tuple((key, binding, enabled, tooltip) for key, (_, binding, enabled, tooltip)
                 in screen.active_bindings.items())


class KeyFooter(Footer):
    """Textual's Footer rebuilds all its keys (mounting and styling each) on every bindings
    signal — each focus change, each `refresh_bindings` a cursor move makes — even when the same
    keys would be drawn: at start-up three times, about a tenth of a launch's CPU. This one lets
    a signal through only when the keys differ from the ones it last asked to draw."""

    _asked: tuple | None = None

    def bindings_changed(self, screen) -> None:
        if not (self.app.app_focus and self.is_attached and screen is self.screen):
            self._asked = None  # the Footer draws nothing now: the next signal must get through
            super().bindings_changed(screen)
            return
        keys = shown_keys(screen)
        if keys == self._asked:
            return
        self._asked = keys
        super().bindings_changed(screen)
