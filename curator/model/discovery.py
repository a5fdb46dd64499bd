"""Finding the store a command works on: the path given, a repository found upward from the
current folder, else the bundled sample."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


class StoreError(Exception):
    """The store cannot be opened at all (missing, not a folder); the CLI exits 2."""



@dataclass(frozen=True, slots=True)
class Located:
    root: Path  # the store a single-store command works on (the repository's first source)
    given: str  # as the user gave it (or how it was found), for reports
    notice: str | None = None  # e.g. "no store found; showing the bundled sample store"
    is_sample: bool = False
    repo: Path | None = None  # the repository when the path held several memory systems
    layout: object | None = None  # its model.sources.Layout
    read_only: str | None = None  # why the store may not be written (it resolves outside the repository)


def locate_store(arg: str | os.PathLike | None, cwd: Path | None = None, demo: bool = True) -> Located:
    """The path given (a store, or a repository holding memory systems), else a repository
    found upward from the current folder, else the bundled sample repository (only when `demo`:
    commands for machines raise StoreError instead of checking the demo)."""
    from ..demo.sample_copy import demo_store
    from .sources import discover, find_repository

    if arg is not None and str(arg) != "":
        path = Path(arg).expanduser()
        if not path.exists():
            raise StoreError(f"store not found: {arg}")
        if not path.is_dir():
            raise StoreError(f"store is not a folder: {arg}")
        return _from_layout(discover(path), str(arg))
    here = (cwd or Path.cwd()).resolve()
    found = find_repository(here)
    if found is not None:
        try:
            shown = str(found.relative_to(here)) or "."
        except ValueError:
            shown = str(found)
        return _from_layout(discover(found), shown)
    if not demo:
        raise StoreError(
            f"no agent memory found in {here} or above (looked for .serena/memories, .claude/memory, "
            "docs/*-experience); give the store's or the repository's path"
        )
    from ..demo.sample_copy import DEMO_NOTES

    sample, is_copy = demo_store()
    where = f" Your copy: {sample}; delete it to start over." if is_copy else ""
    located = _from_layout(discover(sample), "sample_memories")
    return Located(
        located.root,
        "sample_memories",
        # what the demo lacks before where it lives: the banner is one line (F1 has it whole)
        notice="No agent memory or instruction files found here or above; opened the bundled sample repository."
        + "".join(f" Note: {n}." for n in DEMO_NOTES) + where,
        is_sample=True,
        repo=located.repo,
        layout=located.layout,
    )


def _from_layout(layout, given: str) -> Located:
    if layout.single:
        return Located(layout.root, given, layout=layout)
    memory = layout.memory_sources()
    if not memory:
        raise StoreError(
            f"no agent memory found in {given} (looked for .serena/memories, .claude/memory, "
            "docs/*-experience and ~/.claude/projects/<slug>/memory)"
        )
    writable = [s for s in memory if not s.read_only] or memory
    chosen = writable[0]
    return Located(chosen.root, given, repo=layout.root, layout=layout,
                   read_only=(chosen.why or f"{chosen.rel} is read-only") if chosen.read_only else None)


# ------------------------------------------------------------------ the store
