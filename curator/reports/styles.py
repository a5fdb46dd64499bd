"""Styles by role: screens, widgets and the renderers both faces share (the diff) name a role
("bold error", "warning", "success", "info", "accent", "secondary"), never a colour. The app
registers the roles as named Rich styles drawn from the current theme (`role_styles`), so every
theme, light or dark, colours them its own way; the CLI's consoles register the terminal's own
colours (`FALLBACK`). Rich only: no Textual here, so the CLI can use it."""

from __future__ import annotations

ROLES = {"error": "error", "warning": "warning", "success": "success", "info": "primary",
         "accent": "accent", "secondary": "secondary"}
FALLBACK = {"error": "red", "warning": "yellow", "success": "green", "info": "cyan", "accent": "magenta",
            "secondary": "blue"}


def role_styles(theme=None) -> dict[str, str]:
    """Named styles for every role, plain and bold: {"error": "#e06c75", "bold error": ...}."""
    out = {}
    for role, attr in ROLES.items():
        colour = (getattr(theme, attr, None) if theme is not None else None) or FALLBACK[role]
        out[role] = colour
        out[f"bold {role}"] = f"bold {colour}"
    return out


def rich_theme(theme=None):
    from rich.theme import Theme

    return Theme(role_styles(theme), inherit=True)
