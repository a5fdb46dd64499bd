"""Pilot's headless app draws no frame nobody reads.

`App.run_test` runs the app headless: Textual lays it out and then, at up to 60 frames a second,
draws every changed region of the screen into lines that its headless driver throws away. Over
the Pilot tests that drawing was 26 s of their 96 s of CPU (`tests/pilot`, one worker). The
tests read the widgets (their state, their content, `render_line`), never the thrown-away frames.

So here a headless frame is not drawn. What a test reads is drawn as before: `export_screenshot`
and the snapshots draw the whole screen, `render_line` draws its line. And every `run_test` that
ends without an error draws its last screen whole, so a widget that cannot draw still fails its
test. `CURATOR_TEST_EVERY_FRAME=1` draws every frame again (to find which step a drawing error
comes from). Should Textual's private method change its shape, the tests draw every frame (only
slower)."""

from __future__ import annotations

import contextlib
import inspect
import os


def skip_unread_frames() -> None:
    if os.environ.get("CURATOR_TEST_EVERY_FRAME"):
        return
    try:
        from textual._compositor import Compositor
        from textual.app import App

        real = Compositor.render_update
        params = list(inspect.signature(real).parameters)
        real_run_test = App.run_test
    except (ImportError, AttributeError, TypeError, ValueError):
        return
    if params != ["self", "full", "screen_stack", "simplify"]:
        return

    def render_update(self, full=False, screen_stack=None, simplify=False):
        if full:
            return real(self, full=full, screen_stack=screen_stack, simplify=simplify)
        self._dirty_regions.clear()  # as a drawn frame leaves them
        return None

    @contextlib.asynccontextmanager
    async def run_test(self, *args, **kwargs):
        async with real_run_test(self, *args, **kwargs) as pilot:
            yield pilot
            running = getattr(self, "_running", False) and not getattr(self, "_exit", True)
            compositor = getattr(self.screen, "_compositor", None) if running else None
            if compositor is not None and self.screen.is_attached:  # the last screen, drawn whole
                real(compositor, full=True, screen_stack=getattr(self, "_background_screens", None))

    Compositor.render_update = render_update
    App.run_test = run_test
