"""Where a path an instruction file names went: git's rename history first (the repository's
own record of the move), else the one file of that name (under the folder the path names, else
anywhere in the repository). Several files of that name is no answer: the candidates are named
and the line is fixed by hand."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Moved:
    now: str | None  # repository-relative path the file has now (None: unknown or ambiguous)
    how: str  # "git" | "near" (one of that name under the path's folder) | "name" (in the repository) | "candidates" | ""
    candidates: tuple[str, ...] = ()


def moved_to(fs, history: dict[str, str], path: str, parent: str) -> Moved:
    """Where `path` (repository-relative, missing; `parent` its existing folder) is now."""
    now = history.get(path)
    if now is not None and now in fs.fileset:
        return Moved(now, "git")
    name = path.rsplit("/", 1)[-1]
    same, reals = [], set()
    for f in fs.named(name):  # one file reached through a linked folder is one file
        if f not in fs.links:
            real = getattr(fs.read(f), "real", f)
            if real not in reals:
                reals.add(real)
                same.append(real if real in fs.fileset else f)  # named where it really is
    near = [f for f in same if f.startswith(parent + "/")] if parent else same
    for group, how in ((near, "near"), (same, "name")):
        if len(group) == 1:
            return Moved(group[0], how)
        if group:
            return Moved(None, "candidates", tuple(group[:5]))
    return Moved(None, "")
