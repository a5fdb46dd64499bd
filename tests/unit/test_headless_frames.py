"""The tests' headless apps draw only what a test reads (tests/textual_patches.py), and a widget
that cannot draw still fails its test."""

from __future__ import annotations

import os

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Static


class Counted(Static):
    drawn = 0
    broken = False

    def render_lines(self, crop):
        Counted.drawn += 1
        if Counted.broken:
            raise RuntimeError("this widget cannot draw")
        return super().render_lines(crop)


class Tiny(App):
    def compose(self) -> ComposeResult:
        yield Counted("hello", id="counted")


@pytest.fixture(autouse=True)
def _reset():
    Counted.drawn, Counted.broken = 0, False


@pytest.mark.skipif(bool(os.environ.get("CURATOR_TEST_EVERY_FRAME")), reason="every frame drawn, as asked")
async def test_no_frame_is_drawn_until_a_test_reads_the_screen():
    app = Tiny()
    async with app.run_test(size=(40, 5)) as pilot:
        for text in ("one", "two", "three"):
            app.query_one(Counted).update(text)
            await pilot.pause()
        assert Counted.drawn == 0  # three refreshes, no frame drawn
        assert "three" in app.export_screenshot()  # what a test reads is drawn, and is current
        assert Counted.drawn > 0
    assert Counted.drawn > 1  # and the last screen once more as the test ends


async def test_a_widget_that_cannot_draw_fails_the_test_at_its_end():
    app = Tiny()
    with pytest.raises(RuntimeError, match="cannot draw"):
        async with app.run_test(size=(40, 5)) as pilot:
            await pilot.pause()
            Counted.broken = True
            app.query_one(Counted).update("changed")
            await pilot.pause()
