"""The demo's notice stays on every screen (the app opened the bundled sample store)."""

from __future__ import annotations

from textual.widgets import Label

from curator.tokens import FakeTokenCounter
from curator.tui.app import make_app


async def test_demo_banner_on_every_screen(sample_copy):
    app = make_app(sample_copy, given="sample_memories", token_counter=FakeTokenCounter(),
                   notice="No .serena/memories found here or above; opened the bundled sample store.",
                   remember_theme=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for mode in ("store", "problems"):
            await app.switch_mode(mode)
            await pilot.pause()
            banner = app.screen.query_one("#notice-banner", Label)
            assert "bundled sample store" in str(banner.render())
