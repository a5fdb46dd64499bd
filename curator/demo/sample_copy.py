"""The demo's private copy of the bundled sample repository: made on first use in the user data
folder, with a git history and four transcripts (`repository.py`), so the demo can be curated
without touching the installed package."""

from __future__ import annotations

import os
from pathlib import Path

from ..base.locations import demo_copy, demo_projects, sample_repository, shipped

DEMO_NOTES: list[str] = []  # what the demo copy lacks (e.g. no git: no history), said in its banner


def demo_store() -> tuple[Path, bool]:
    """A private copy of the sample repository in the user data folder, made on first use, so the
    demo can be curated without touching the installed package: a git repository with a few
    commits of history, and four transcripts of sessions run in it. (path, is_copy)."""
    import shutil
    import tempfile

    from .repository import build_history, write_transcripts

    dest = demo_copy()
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


def private_path(path: str | os.PathLike) -> Path | None:
    """Where `path`, a place inside what curator ships, lies in the demo's private copy (made on
    first use): the same place inside the sample, else the copy itself — so the installed sample
    is never what a command or the app works on. None for a path of the user's, or when no copy
    can be made (a read-only home: the bundled sample is then read in place, and never written)."""
    root = shipped(path)
    if root is None:
        return None
    copy, is_copy = demo_store()
    if not is_copy:
        return None
    sample = Path(os.path.realpath(sample_repository()))
    if root != sample:
        return copy
    rel = Path(os.path.realpath(path)).relative_to(sample)
    inside = copy / rel
    return inside if inside.exists() else copy


def in_private_copy(path: str | os.PathLike) -> bool:
    """Is `path` the demo's private copy or inside it?"""
    from ..base.paths import is_within

    return is_within(os.path.realpath(path), os.path.realpath(demo_copy()))
