"""Where curator keeps things: user folders (XDG) and the data shipped inside the package."""

from __future__ import annotations

import os
from pathlib import Path

APP = "curator"
_PACKAGE = Path(__file__).resolve().parent.parent  # curator/


def _bundled(installed: str, checkout: str) -> Path:
    """A folder shipped in the wheel, or its source-tree twin in an editable checkout."""
    inside = _PACKAGE / installed
    return inside if inside.is_dir() else _PACKAGE.parent / checkout


def sample_repository() -> Path:
    """The bundled sample repository: a Serena store, a Claude Code memory folder and
    experience entries, side by side."""
    return _bundled("_sample_memories", "sample_memories")


def sample_store() -> Path:
    """The sample repository's tiered Serena store."""
    return sample_repository() / ".serena" / "memories"


def shipped(path: str | os.PathLike) -> Path | None:
    """The folder of what curator ships that holds `path` — the bundled sample repository, else
    the package itself (in an editable install the sample is the checkout's `sample_memories/`,
    beside the package) — or None for a path of the user's. Real paths: a link into either counts."""
    from .paths import is_within

    real = os.path.realpath(path)
    for root in (sample_repository(), _PACKAGE):
        root = Path(os.path.realpath(root))
        if is_within(real, root):
            return root
    return None


def demo_copy() -> Path:
    """Where the demo's private copy of the sample repository lives (made on first use)."""
    return data_dir() / "sample-repository"


def bundled_themes() -> Path:
    return _bundled("_themes", "themes")


def repository_journal(start) -> str:
    """`<repository>/.curator/journal` for a store or repository at `start` (the git work tree
    holding it, else `start`): where instruction-file fixes are journaled."""
    from .paths import git_root

    start = Path(os.path.abspath(start))
    top = git_root(start)
    return os.path.join(str(top if top is not None else start), ".curator", "journal")


def cache_dir() -> Path:
    given = os.environ.get("CURATOR_CACHE_DIR")
    if given:
        return Path(given)
    from platformdirs import user_cache_dir  # imported when used: a warm `retrieve` is short

    return Path(user_cache_dir(APP))


def config_dir() -> Path:
    from platformdirs import user_config_dir

    return Path(user_config_dir(APP))


def data_dir() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir(APP))


def user_themes() -> Path:
    return data_dir() / "themes"


def user_settings_file() -> Path:
    return Path(os.environ.get("CURATOR_CONFIG") or config_dir() / "settings.yaml")


def demo_projects() -> Path:
    """Where the demo's Claude Code transcripts are kept (a `projects` folder of its own, so the
    user's ~/.claude is never written to); `sessions.discover` looks here too."""
    return data_dir() / "sample-sessions" / "projects"
