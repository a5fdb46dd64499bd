"""The demo's notice: one line on the first screen, once, never also a toast; F1 keeps it."""

from __future__ import annotations

from textual.widgets import Label

from curator.base.tokens import FakeTokenCounter
from curator.tui.app import make_app


async def test_demo_banner_is_one_line_shown_once(sample_copy):
    app = make_app(sample_copy, given="sample_memories", token_counter=FakeTokenCounter(),
                   notice="No .serena/memories found here or above; opened the bundled sample store.",
                   remember_theme=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        banner = app.screen.query_one("#notice-banner", Label)
        assert "bundled sample store" in str(banner.render()) and banner.size.height == 1
        assert not app._notifications  # never also a toast
        for mode in ("problems", "store"):  # leaving the first screen dismisses it
            await app.show_view(mode)
            await pilot.pause()
            assert not app.screen.query("#notice-banner")
        await pilot.press("f1")
        await pilot.pause()
        assert "bundled sample store" in app.screen.screen_help  # the whole sentence stays in F1
