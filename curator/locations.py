"""Where curator keeps things: user folders (XDG) and the data shipped inside the package."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_cache_dir, user_config_dir, user_data_dir

APP = "curator"
_PACKAGE = Path(__file__).resolve().parent


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


def bundled_themes() -> Path:
    return _bundled("_themes", "themes")


def git_root(start: Path) -> Path | None:
    """The nearest folder at or above `start` holding `.git` (a folder, or a file in a worktree)."""
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return None


def repository_journal(start) -> str:
    """`<repository>/.curator/journal` for a store or repository at `start` (the git work tree
    holding it, else `start`): where instruction-file fixes are journaled."""
    start = Path(os.path.abspath(start))
    top = git_root(start)
    return os.path.join(str(top if top is not None else start), ".curator", "journal")


def cache_dir() -> Path:
    return Path(os.environ.get("CURATOR_CACHE_DIR") or user_cache_dir(APP))


def config_dir() -> Path:
    return Path(user_config_dir(APP))


def data_dir() -> Path:
    return Path(user_data_dir(APP))


def user_themes() -> Path:
    return data_dir() / "themes"


def user_settings_file() -> Path:
    return Path(os.environ.get("CURATOR_CONFIG") or config_dir() / "settings.yaml")


def demo_projects() -> Path:
    """Where the demo's Claude Code transcripts are kept (a `projects` folder of its own, so the
    user's ~/.claude is never written to); `sessions.discover` looks here too."""
    return data_dir() / "sample-sessions" / "projects"


DEMO_NOTES: list[str] = []  # what the demo copy lacks (e.g. no git: no history), said in its banner


def demo_store() -> tuple[Path, bool]:
    """A private copy of the sample repository in the user data folder, made on first use, so the
    demo can be curated without touching the installed package: a git repository with a few
    commits of history, and two transcripts of sessions run in it. (path, is_copy)."""
    import shutil
    import tempfile

    from .demo_repository import build_history, write_transcripts

    dest = data_dir() / "sample-repository"
    if dest.is_dir():
        _note(write_transcripts(dest, demo_projects()))
        return dest, True
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".sample-", dir=dest.parent))
        shutil.copytree(sample_repository(), tmp / "s", symlinks=True)
        for pycache in list((tmp / "s").rglob("__pycache__")):
            shutil.rmtree(pycache, ignore_errors=True)
        # the history is made before the copy takes its final name: a half-made one is never kept
        note = build_history(tmp / "s")
        if note and (tmp / "s" / ".git").exists():
            shutil.rmtree(tmp / "s" / ".git", ignore_errors=True)
        os.replace(tmp / "s", dest)
        tmp.rmdir()
        _note(note)
        _note(write_transcripts(dest, demo_projects()))
        return dest, True
    except OSError:
        return sample_repository(), False  # read-only home: read the bundled copy in place


def _note(note: str | None) -> None:
    if note and note not in DEMO_NOTES:
        DEMO_NOTES.append(note)
