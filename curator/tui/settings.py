"""The user's own settings (not the store's): the chosen theme, remembered between runs."""

from __future__ import annotations

import os
import tempfile
from dataclasses import asdict, dataclass

import yaml

from ..base.locations import user_settings_file


@dataclass
class Settings:
    theme: str | None = None


def load_settings() -> Settings:
    try:
        from ..base.safeyaml import load

        data = load(user_settings_file().read_text(encoding="utf-8")) or {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError, ValueError, TypeError):  # a bad date, !!int 'x'
        return Settings()
    if not isinstance(data, dict):
        return Settings()
    theme = data.get("theme")
    return Settings(theme=str(theme) if theme else None)


def save_settings(settings: Settings) -> None:
    path = user_settings_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".settings-", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            yaml.safe_dump(asdict(settings), fh)
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only config folder only costs remembering the theme
