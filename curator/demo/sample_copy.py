"""The demo's private copy of the bundled sample repository: made on first use in the user data
folder, with a git history and four transcripts (`repository.py`), so the demo can be curated
without touching the installed package."""

from __future__ import annotations

import os
from pathlib import Path

from ..base.locations import data_dir, demo_projects, sample_repository

DEMO_NOTES: list[str] = []  # what the demo copy lacks (e.g. no git: no history), said in its banner


def demo_store() -> tuple[Path, bool]:
    """A private copy of the sample repository in the user data folder, made on first use, so the
    demo can be curated without touching the installed package: a git repository with a few
    commits of history, and four transcripts of sessions run in it. (path, is_copy)."""
    import shutil
    import tempfile

    from .repository import build_history, write_transcripts

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
