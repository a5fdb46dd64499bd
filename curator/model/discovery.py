"""Finding the store a command works on: the path given, a repository found upward from the
current folder, else the bundled sample — the demo, which the faces pass in (`Demo`)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from ..base.locations import demo_copy, shipped
from .sources import Layout


class StoreError(Exception):
    """The store cannot be opened at all (missing, not a folder); the CLI exits 2."""



@dataclass(frozen=True, slots=True)
class Located:
    root: Path  # the store a single-store command works on (the repository's first source)
    given: str  # as the user gave it (or how it was found), for reports
    notice: str | None = None  # e.g. "no store found; showing the bundled sample store"
    is_sample: bool = False  # the demo: the private copy of the bundled sample (or the sample itself)
    repo: Path | None = None  # the repository when the path held several memory systems
    layout: Layout | None = None
    read_only: str | None = None  # why the store may not be written (it resolves outside the repository)
    fallback: bool = False  # opened because nothing was found here (not asked for by a path)


class Demo(Protocol):
    """What discovery asks of the demo (the module `curator.demo.sample_copy` is one): the faces
    pass it in, so the store model never imports the demo that stands beside it."""

    @property
    def DEMO_NOTES(self) -> Sequence[str]: ...  # what the demo copy lacks, said in its banner

    def demo_store(self) -> tuple[Path, bool]: ...  # (its private copy, made on first use; is it a copy)

    def private_path(self, path: str | os.PathLike) -> Path | None: ...  # a shipped place, in the copy

    def in_private_copy(self, path: str | os.PathLike) -> bool: ...


def locate_store(arg: str | os.PathLike | None, cwd: Path | None = None, demo: Demo | None = None,
                 fall_back: bool = True) -> Located:
    """The path given (a store, or a repository holding memory systems), else a repository
    found upward from the current folder, else — with a `demo`, and only when `fall_back`:
    commands for machines raise StoreError instead of checking the demo — the bundled sample
    repository. With a `demo`, a path inside what curator ships (the bundled sample, the
    package) is the demo's private copy: the installed files are never what a command works on."""
    from ..base.paths import memory_repository
    from .sources import discover

    if arg is not None and str(arg) != "":
        path = Path(arg).expanduser()
        if not path.exists():
            raise StoreError(f"store not found: {arg}")
        if not path.is_dir():
            raise StoreError(f"store is not a folder: {arg}")
        located = _demo_or(path, str(arg), discover, demo)
        why = None if located.read_only or located.is_sample else linked_out(path)
        return replace(located, read_only=why) if why else located
    here = (cwd or Path.cwd()).resolve()
    found = memory_repository(here)
    if found is not None:
        try:
            shown = str(found.relative_to(here)) or "."
        except ValueError:
            shown = str(found)
        return _demo_or(found, shown, discover, demo)
    if demo is None or not fall_back:
        raise StoreError(
            f"no agent memory found in {here} or above (looked for .serena/memories, .claude/memory, "
            "docs/*-experience); give the store's or the repository's path"
        )
    sample, is_copy = demo.demo_store()
    where = f" Your private copy: {sample} (delete it to start over)." if is_copy else ""
    located = _from_layout(discover(sample), "sample_memories")
    return Located(
        located.root,
        "sample_memories",
        # what the demo lacks before where it lives: the banner is one line (F1 has it whole)
        notice="No agent memory or instruction files here or above: the demo, the bundled sample repository."
        + _notes(demo) + where,
        is_sample=True,
        repo=located.repo,
        layout=located.layout,
        fallback=True,
    )


def _demo_or(path: Path, given: str, discover, demo: Demo | None) -> Located:
    """The store at `path` — or, for a place inside what curator ships or inside the demo's
    private copy, the demo (its copy, with the banner that says so)."""
    if demo is None:
        return _from_layout(discover(path), given)
    if shipped(path) is not None:
        copy = demo.private_path(path)
        if copy is None:  # no copy can be made: read in place (the write path refuses it)
            return replace(_from_layout(discover(path), given), is_sample=True, notice=(
                f"{given} is the sample curator ships: read in place, never written (no private copy "
                "could be made in your user data folder)." + _notes(demo)))
        path = copy
    elif not demo.in_private_copy(path):
        return _from_layout(discover(path), given)
    return replace(_from_layout(discover(path), given), is_sample=True, notice=(
        "The demo: the sample curator ships, opened as your private copy (the installed one is never written)."
        + _notes(demo) + f" Your copy: {demo_copy()} (delete it to start over)."))


def linked_out(path: Path) -> str | None:
    """Why a folder named on the command line is read-only: the path as typed lies inside a
    repository but a symbolic link on the way leads out of it (a clone's `.serena/memories`
    linked to `~/somewhere`, typed as a README told). Typing the real folder is the user's own
    word; so is `writable_stores:` in their settings."""
    from ..base.paths import is_within
    from .sources import _settings_name, user_writable_stores

    typed = Path(os.path.abspath(path))
    repo = next((f for f in typed.parents if os.path.lexists(f / ".git")), None)
    if repo is None:
        return None
    try:
        real, home = typed.resolve(), repo.resolve()
    except (OSError, RuntimeError):
        return f"{path} cannot be resolved: curator does not write there"
    if is_within(real, home) or str(real) in user_writable_stores():
        return None
    return (f"{path} is a link out of the repository {repo} (to {real}): curator does not write there unless "
            f"you name the real folder — `curator COMMAND {real}`, or `writable_stores: [{real}]` in "
            f"{_settings_name()}")


def _notes(demo: Demo) -> str:
    """What the demo copy lacks (known once the copy was made), for its banner."""
    return "".join(f" Note: {n}." for n in demo.DEMO_NOTES)


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
