"""Severities and meters take the current theme's colours, in every bundled theme."""

from __future__ import annotations

from rich.color import Color as RichColor
from textual.color import Color

from curator.tui.widgets.overview import SEVERITY_STYLE
from tests.pilot.conftest import settle


def _rgb(style) -> tuple[int, int, int]:
    return style.color.get_truecolor() if isinstance(style.color, RichColor) else None


async def test_role_styles_follow_every_theme(app):
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        seen = []
        for name in ("curator-dark", "curator-light", "curator-high-contrast"):
            app.theme = name
            await pilot.pause()
            theme = app.current_theme
            for role, colour in (("error", theme.error), ("warning", theme.warning), ("success", theme.success),
                                 ("info", theme.primary)):
                want = Color.parse(colour).rgb
                assert tuple(_rgb(app.console.get_style(role))) == want, (name, role)
            error = app.console.get_style(SEVERITY_STYLE[max(SEVERITY_STYLE)])
            assert error.bold and tuple(_rgb(error)) == Color.parse(theme.error).rgb
            seen.append(tuple(_rgb(error)))
        assert len(set(seen)) == 3  # the error colour really changed with the theme
