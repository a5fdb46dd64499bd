"""Where a change can alter a context model: the files it read, and the places agents look for
new ones. The live watcher follows these (never the whole repository: a memory edit or a
source file saved is no reason to walk it again). Pure: paths and names only."""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..agents import rules_for
from ..base.paths import is_below, is_within
from .model import ContextModel

# any file below these is an agent's (rules, skills, steering, modes): followed with subfolders
AGENT_FOLDERS = (".claude/rules", ".claude/skills", ".claude/commands", ".claude/agents", ".cursor/rules",
                 ".github/instructions", ".clinerules", "memory-bank", ".devin/rules", ".windsurf/rules", ".kiro/steering",
                 ".roo", ".claude/agent-memory", ".claude/agent-memory-local")
# an agent reads these wherever they sit (nested ones on demand)
NESTED_NAMES = frozenset({"CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", "AGENTS.override.md", "GEMINI.md"})
# and these at the repository's top
TOP_FILES = frozenset({".cursorrules", ".windsurfrules", ".roorules", ".clinerules", ".roomodes", ".curator.yaml",
                       ".github/copilot-instructions.md", ".gemini/settings.json", ".claude/CLAUDE.md",
                       ".claude/AGENTS.md", ".claude/settings.json", ".claude/settings.local.json",
                       *rules_for("serena").value("project.initial-prompt")["files"]})


# every folder the walk listed is followed (alone) up to this many: a nested file added anywhere
# is seen; a larger repository is followed only where its agents' files are (inotify's watches
# are shared with every other tool of the user)
EVERY_FOLDER_UP_TO = 4000


@dataclass(frozen=True, slots=True)
class WatchPlaces:
    """Absolute real folders: `flat` followed without their subfolders, `deep` with them."""

    flat: tuple[str, ...]
    deep: tuple[str, ...]


def watch_places(model: ContextModel) -> WatchPlaces:
    """The repository's top, every folder holding a file the model read, the agents' folders
    that exist (deep) and the folders a new one would appear in (`.claude`, `.cursor`, ...);
    every folder the walk listed when there are not too many."""
    root = os.path.realpath(model.root)
    fs = model.fs
    flat = {root}
    for path in getattr(fs, "read_paths", ()):
        if is_within(path, root):
            flat.add(os.path.dirname(path))
    deep = set()
    for rel in AGENT_FOLDERS:
        full = os.path.join(root, rel)
        parent = os.path.dirname(full)
        if os.path.isdir(full) and not os.path.islink(full):
            deep.add(full)
        elif parent != root and os.path.isdir(parent):
            flat.add(parent)  # `.claude` without rules yet: a new `rules` folder appears here
    for rel in (".github", ".gemini", ".claude", ".serena"):
        if os.path.isdir(os.path.join(root, rel)):
            flat.add(os.path.join(root, rel))
    listed = getattr(fs, "listed", ())
    if len(listed) <= EVERY_FOLDER_UP_TO:  # a nested CLAUDE.md or AGENTS.md may appear in any of them
        flat.update(f for f in listed if is_within(f, root))
    flat = {f for f in flat if not any(is_within(f, d) for d in deep)}
    return WatchPlaces(tuple(sorted(flat)), tuple(sorted(deep)))


def touches(model: ContextModel, paths) -> bool:
    """Does a change to any of these absolute paths alter what the model says? A file it read,
    or a new or removed file where an agent looks (an editor's swap file is not one)."""
    root = os.path.realpath(model.root)
    read: set[str] = getattr(model.fs, "read_paths", set())
    for path in paths:
        path = os.fspath(path)
        if path in read:
            return True
        if not is_below(path, root):
            continue
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        if instruction_path(rel):
            return True
    return False


def instruction_path(rel: str) -> bool:
    """Is the repository path `rel` one an agent reads (or a folder that holds them)?"""
    name = rel.rsplit("/", 1)[-1]
    if rel in TOP_FILES or name in NESTED_NAMES:
        return True
    if name.startswith(("#", ".#")) or name.endswith(("~", ".swp", ".swx", ".tmp", ".part")) or name.isdigit():
        return False  # an editor's temp or swap file (vim's `4913` probe too)
    if name.startswith(".roorules-"):
        return True
    return any(rel == f or rel.startswith(f + "/") for f in AGENT_FOLDERS)


