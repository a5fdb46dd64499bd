"""The memory names Serena lists when it activates a project (`list_project_memories`): every
`*.md` under `.serena/memories/`, hidden ones and links to files too, and since 1.6.0 what is in a
linked folder (`os.walk(followlinks=True)`), less `ignored_memory_patterns`; written as
`json.dumps({"memories": [...], "read_only_memories": [...]})` and a line telling the agent to
read them. Rules: curator/agents/serena.py.

Names only: no body is read here. The walk never leaves the repository through a link, never
goes round a loop (a folder is not entered below itself), and stops at caps it then names.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..agents import rules_for
from ..base.paths import is_within

MAX_NAMES = 50_000
MAX_FOLDERS = 20_000
MAX_DEPTH = 64


@dataclass(slots=True)
class Listing:
    names: list[str] = field(default_factory=list)  # store paths (`topic/x.md`), as Serena finds them
    links: dict[str, str] = field(default_factory=dict)  # a linked folder followed (store path) → its real path
    notes: list[str] = field(default_factory=list)  # a link not followed, a cap met


def serena_version(store) -> str | None:
    from .auto_memory import agent_pinned

    return agent_pinned(store, "serena")


def repository(store) -> Path | None:
    from ..base.paths import store_repository

    repo = store_repository(Path(store.root), getattr(store, "repo_root", None), store.format)
    try:
        return Path(repo).resolve() if repo is not None else None
    except (OSError, RuntimeError):
        return None


def listing(store) -> Listing:
    """What Serena's walk of the store finds (kept for the snapshot; a memory added or renamed
    makes a new one)."""
    from .store import NAMES

    return store.view("serena-listing", lambda: _walk(store), reads={NAMES})


def _walk(store) -> Listing:
    out = Listing()
    follow = bool(rules_for("serena", serena_version(store)).value("memories.folder-links"))
    root = Path(store.root)
    repo = repository(store)
    try:
        top = os.path.realpath(root)
    except OSError:
        return out
    stack: list[tuple[str, str, frozenset[str], int]] = [(str(root), "", frozenset({top}), 0)]
    folders = 0
    while stack:
        folder, prefix, above, depth = stack.pop()
        folders += 1
        if folders > MAX_FOLDERS or len(out.names) >= MAX_NAMES:
            out.notes.append(f"curator stopped listing after {MAX_FOLDERS:,} folders or {MAX_NAMES:,} names: "
                             "Serena lists more")
            break
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for e in reversed(entries):
            rel = f"{prefix}{e.name}"
            try:
                link, is_dir = e.is_symlink(), e.is_dir()  # is_dir follows a link, as os.walk's does
            except OSError:
                link, is_dir = False, False
            if not is_dir:
                if e.name.endswith(".md"):
                    out.names.append(rel)
                continue
            if link and not follow:
                continue  # before 1.6.0 a linked folder is not walked
            real = os.path.realpath(e.path)
            if real in above:
                continue  # a loop: Serena would go round it; the names it meets once are listed
            if link and (repo is None or not is_within(Path(real), repo)):
                out.notes.append(f"{rel}: a linked folder outside the repository; curator does not list it")
                continue
            if depth >= MAX_DEPTH:
                out.notes.append(f"{rel}: deeper than {MAX_DEPTH} folders; curator does not list below it")
                continue
            if link:
                out.links[rel] = real
            stack.append((e.path, rel + "/", above | {real}, depth + 1))
    out.names.sort()
    return out


def listed(store) -> list[str]:
    """The store paths Serena lists (its ignored patterns left out)."""
    patterns = getattr(store, "memory_patterns", None)
    return [p for p in listing(store).names if patterns is None or not patterns.is_ignored(p)]


def linked_names(store) -> list[str]:
    """The names Serena lists that curator has no record of (hidden, excluded, or through a link)."""
    return [p for p in listed(store) if p not in store.records]


def names_text(store) -> str:
    """The listing as the Serena version read writes it (`memories.listing`), read-only names
    apart; "" with no memory (Serena then offers onboarding instead)."""
    patterns = getattr(store, "memory_patterns", None)
    plain: list[str] = []
    read_only: list[str] = []
    for path in listed(store):
        name = path[:-3]
        (read_only if patterns is not None and patterns.is_read_only(path) else plain).append(name)
    names: dict[str, list[str]] = {}
    if plain:
        names["memories"] = sorted(plain)
    if read_only:
        names["read_only_memories"] = sorted(read_only)
    if not names:
        return ""
    if is_global(store):  # the system prompt's line (sensai's dict_string: Python's repr of each name)
        listed_names = ", ".join(f"{k}=[{', '.join(repr('global/' + n) for n in v)}]" for k, v in names.items())
        return f"The following global (not project-specific) memories are available to you: {listed_names}"
    line = str(rules_for("serena", serena_version(store)).value("memories.listing"))
    return line.replace("{names}", json.dumps(names))


def is_project_folder(store) -> bool:
    """Is `store` a project's `.serena/memories` (whose activation Serena writes, project.yml beside)?"""
    root = Path(store.root)
    return root.name == "memories" and root.parent.name == ".serena"


def is_global(store) -> bool:
    """Is `store` the user's global memories (`~/.serena/memories/global`)?"""
    root = Path(store.root)
    return root.name == "global" and root.parent.name == "memories" and root.parent.parent.name == ".serena"


def say_linked(store) -> None:
    """The walk's finding on a linked folder, as it holds for the Serena version read: since
    1.6.0 Serena lists what is in it; one that stays in the repository is how Serena shares
    memories (no error), and its names count in the start-up load."""
    from dataclasses import replace

    from .walk import FOLDER_LINK

    if not any(f.message == FOLDER_LINK or f.check == "index.unsafe-target" for f in store.load_findings):
        return  # no link met: nothing to say, nothing walked
    if not rules_for("serena", serena_version(store)).value("memories.folder-links"):
        return
    note = (f"{FOLDER_LINK}; Serena lists the memories in it (since 1.6.0): their names count in the start-up load "
            "where the link stays in the repository, their bodies are not read")
    found = listing(store)
    repo = repository(store)
    listed_here = set(found.links) | set(found.names)

    def shared(f) -> bool:  # a link Serena follows to a place in the repository: no error
        return f.check == "index.unsafe-target" and f.path in listed_here and repo is not None \
            and bool(f.target) and is_within(Path(f.target), repo)

    store.load_findings[:] = [replace(f, message=note) if f.message == FOLDER_LINK else f
                              for f in store.load_findings if not shared(f)]
