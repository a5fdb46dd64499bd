"""One toast at a time: a new one replaces the last (an error stays until it times out, unless
another error replaces it), so toasts never pile up over the content. Textual removes toasts only
all at once (`clear_notifications`): the ones kept are shown again. The app owns one `Toasts` and
hands it every `Notify`."""

from __future__ import annotations

from textual.notifications import Notify


class Toasts:
    def __init__(self, app) -> None:
        self.app = app
        self.shown: list = []  # the notifications shown
        self.in_flight: set[int] = set()  # toasts posted again, not yet back

    def notified(self, event: Notify) -> None:
        new = event.notification
        if id(new) in self.in_flight:  # one of ours, shown again by settle
            self.in_flight.discard(id(new))
            if not any(t is new for t in self.shown):
                self.settle()  # replaced while it was on its way back
            return
        live = [t for t in self.shown if not t.has_expired]
        keep = [t for t in live if t.severity == "error" and new.severity != "error"]
        self.shown = keep + [new]
        if live:
            self.settle()

    def settle(self) -> None:
        self.app.clear_notifications()
        for toast in self.shown:
            if id(toast) not in self.in_flight:
                self.in_flight.add(id(toast))
                self.app.post_message(Notify(toast))

    def on_screen(self) -> list:
        """The notifications on screen now."""
        return [t for t in self.shown if not t.has_expired]
