"""What the tests change of Textual, for their CPU only: what a test runs and asserts is the same.
Both reach private methods; each is patched only while its signature is the one it was written
for (`_shaped`), otherwise the tests run on Textual as it is (only slower).

- `parse_css_once`: each CSS source parsed once a worker, not once an app.
- `skip_unread_frames`: a headless app draws only the frames a test reads.
"""

from __future__ import annotations

import contextlib
import inspect
import os


def _shaped(method, params: list[str]) -> bool:
    try:
        return list(inspect.signature(method).parameters) == params
    except (TypeError, ValueError):
        return False


def parse_css_once() -> None:
    """Textual parses every CSS source (each widget's DEFAULT_CSS, the app's own) afresh for each
    app, in a cache of that app's stylesheet: about a tenth of a launch's CPU (measured: 1.3 s of
    parsing became 0.3 s over six snapshot tests of ~20 s), and a worker launches a few
    dozen apps (Pilot tests, snapshots). Here the parsed rules are kept for the worker, keyed by
    everything the parse reads — the CSS text, where it was read from, its flags and the theme's
    variables — so an app gets the rules its own parse would give (Textual's own cache already hands
    one parse to several parses of a stylesheet: rules are not changed after parsing). A parse
    that fails raises as before and is never kept."""
    try:
        from textual.css.stylesheet import Stylesheet

        real = Stylesheet._parse_rules
    except (ImportError, AttributeError):
        return
    if not _shaped(real, ["self", "css", "read_from", "is_default_rules", "tie_breaker", "scope"]):
        return
    parsed: dict = {}

    def _parse_rules(self, css, read_from, is_default_rules=False, tie_breaker=0, scope=""):
        variables = getattr(self, "_variables", None)
        if not isinstance(variables, dict):
            return real(self, css, read_from, is_default_rules, tie_breaker, scope)
        key = (css, read_from, is_default_rules, tie_breaker, scope, frozenset(variables.items()))
        rules = parsed.get(key)
        if rules is None:
            rules = parsed[key] = real(self, css, read_from, is_default_rules, tie_breaker, scope)
        return rules

    Stylesheet._parse_rules = _parse_rules


def skip_unread_frames() -> None:
    """Pilot's headless app draws no frame nobody reads.

    `App.run_test` runs the app headless: Textual lays it out and then, at up to 60 frames a second,
    draws every changed region of the screen into lines that its headless driver throws away. Over
    the Pilot tests that drawing was 26 s of their 96 s of CPU (`tests/pilot`, one worker). The
    tests read the widgets (their state, their content, their lines), never the thrown-away frames.

    So here a headless frame is not drawn. What a test reads is drawn as before: `export_screenshot`
    and the snapshots draw the whole screen, `render_lines` draws a widget's lines. And every
    `run_test` that ends without an error draws its last screen whole, so a widget that cannot draw
    still fails its test. `CURATOR_TEST_EVERY_FRAME=1` draws every frame again (to find which step a drawing error
    comes from)."""
    if os.environ.get("CURATOR_TEST_EVERY_FRAME"):
        return
    try:
        from textual._compositor import Compositor
        from textual.app import App

        real = Compositor.render_update
        real_run_test = App.run_test
    except (ImportError, AttributeError):
        return
    if not _shaped(real, ["self", "full", "screen_stack", "simplify"]):
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
