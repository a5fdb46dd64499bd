"""Theme files (`themes/*.yaml` and the user's theme folder) → Textual themes.

Each file holds `name`, `dark`, colours (primary, secondary, accent, warning, error, success,
foreground, background, surface, panel), optional `luminosity_spread` and `variables`.
Bad files are reported, never fatal: the caller shows the failures and keeps the good themes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

COLOURS = ("primary", "secondary", "accent", "warning", "error", "success", "foreground", "background", "surface", "panel")
DEFAULT_THEME = "curator-dark"
# a theme file may give only `primary`; Textual would then draw errors, warnings and successes in
# the primary colour, so severities and meters could not be told apart: these fill the gaps
SIGNAL_DEFAULTS = {"warning": "#ffa62b", "error": "#ba3c5b", "success": "#4ebf71"}


@dataclass(frozen=True)
class ThemeFile:
    name: str
    dark: bool
    colours: dict[str, str]
    variables: dict[str, str] = field(default_factory=dict)
    luminosity_spread: float = 0.15
    source: Path | None = None

    def to_textual(self):
        from textual.theme import Theme

        return Theme(
            name=self.name,
            dark=self.dark,
            luminosity_spread=self.luminosity_spread,
            variables=dict(self.variables),
            **{**SIGNAL_DEFAULTS, **self.colours},
        )


def parse_theme(data: object, source: Path | None = None) -> ThemeFile:
    """Validate one theme mapping; raise ValueError with a readable reason."""
    from textual.color import Color, ColorParseError

    if not isinstance(data, dict):
        raise ValueError("a theme file must be a mapping")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ValueError("'name' is required")
    if "primary" not in data:
        raise ValueError("'primary' colour is required")
    unknown = set(data) - set(COLOURS) - {"name", "dark", "variables", "luminosity_spread", "description"}
    if unknown:
        raise ValueError(f"unknown key(s): {', '.join(sorted(map(str, unknown)))}")
    colours = {}
    for key in COLOURS:
        if key in data:
            value = str(data[key])
            try:
                Color.parse(value)
            except ColorParseError:
                raise ValueError(f"'{key}' is not a colour: {value!r}") from None
            colours[key] = value
    variables = data.get("variables") or {}
    if not isinstance(variables, dict):
        raise ValueError("'variables' must be a mapping")
    spread = data.get("luminosity_spread", 0.15)
    if not isinstance(spread, (int, float)):
        raise ValueError("'luminosity_spread' must be a number")
    return ThemeFile(
        name=name.strip(),
        dark=bool(data.get("dark", True)),
        colours=colours,
        variables={str(k): str(v) for k, v in variables.items()},
        luminosity_spread=float(spread),
        source=source,
    )


def load_theme_files(*folders: Path) -> tuple[list[ThemeFile], list[tuple[Path, str]]]:
    """Every theme in the folders (later folders override earlier names) and the failures."""
    from ..base.safeyaml import load  # libyaml and bounded aliases, like every YAML curator reads

    themes: dict[str, ThemeFile] = {}
    failures: list[tuple[Path, str]] = []
    for folder in folders:
        if not folder or not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.y*ml")):
            try:
                data = load(path.read_text(encoding="utf-8"))
                theme = parse_theme(data, path)
            except (OSError, UnicodeDecodeError, yaml.YAMLError, ValueError) as exc:
                failures.append((path, str(exc).splitlines()[0] if str(exc) else type(exc).__name__))
                continue
            themes[theme.name] = theme
    return list(themes.values()), failures


def available_themes() -> tuple[list[ThemeFile], list[tuple[Path, str]]]:
    from ..base.locations import bundled_themes, user_themes

    return load_theme_files(bundled_themes(), user_themes())


def install(app, requested: str | None) -> tuple[str, list[tuple[str, str, float | None]]]:
    """Register every theme with `app` and return the one to show (`requested`, else the user's
    saved theme, else the default) with the warnings to tell once the app runs (message,
    severity, timeout): called before the app starts, so its stylesheet is parsed once, with this
    theme's colours, not again for a theme set after the first screen."""
    from .settings import load_settings

    themes, failures = available_themes()
    for t in themes:
        app.register_theme(t.to_textual())
    warnings: list[tuple[str, str, float | None]] = []
    if failures:
        lines = "\n".join(f"{p.name}: {why}" for p, why in failures)
        warnings.append((f"Some theme files could not be loaded:\n{lines}", "warning", 8))
    wanted = requested or load_settings().theme or DEFAULT_THEME
    if wanted not in app.available_themes:
        warnings.append((f"Unknown theme {wanted!r}; using {DEFAULT_THEME}", "warning", None))
        wanted = DEFAULT_THEME if DEFAULT_THEME in app.available_themes else "textual-dark"
    return wanted, warnings


def role_styles(app, pushed: bool) -> bool:
    """Role styles ("bold error", "success", ...) follow `app`'s current theme's colours (the
    ones pushed before, if `pushed`, taken off first). Returns True: pushed now."""
    from ..reports.styles import rich_theme

    if pushed:
        app.console.pop_theme()
    app.console.push_theme(rich_theme(app.current_theme))
    return True
