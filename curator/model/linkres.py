"""Resolving a link the way the agent does: from the file's own folder, then from the
repository root (agents write paths relative to where they run), and `../` up to `CLAUDE.md`.

When the repository around a store is not there (a store copied on its own), a link that
leaves the store cannot be judged: it is `unknown`, never reported as broken.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..base.paths import is_within, store_repository

# what a repository checkout has at its root (a store copied alone has none of them)
REPO_MARKERS = (
    ".git", "README.md", "README", "README.rst", "package.json", "pyproject.toml", "setup.py",
    "go.mod", "Cargo.toml", "Makefile", "CLAUDE.md", "AGENTS.md", "pom.xml", "Gemfile",
)
# files every repository keeps at its root, linked by bare name from memories
ROOT_FILES = {"README.md", "CLAUDE.md", "AGENTS.md", "CHANGELOG.md", "CONTRIBUTING.md", "LICENSE.md"}


def repo_root_of(store) -> Path | None:
    """The repository a store lives in (`base.paths.store_repository`)."""
    return store_repository(store.root, getattr(store, "repo_root", None), getattr(store, "format", ""))


def repo_present(repo: Path | None) -> bool:
    """Is there more of the repository than its memory folders (so outside links can be judged)?"""
    if repo is None:
        return False
    return any(_exists(repo / m) for m in REPO_MARKERS)


def _exists(p: Path) -> bool:
    try:
        return os.path.lexists(p)
    except (OSError, ValueError):
        return False


def trusted_place(store, path) -> bool:
    """Inside the store or its repository: the places curator may look a file up. Anything
    else is never stat'ed (a link must not become an existence oracle for outside files)."""
    where = os.path.abspath(path)
    for base in (store.root, repo_root_of(store)):
        if base is None:
            continue
        if is_within(where, os.path.abspath(base)):
            return True
    return False


def outside_verdict(store, folder_abs: Path, target: str) -> str:
    """For a link that reaches no file of the store: `exists` (a repository file), `missing`,
    or `unknown` (it leaves the store and the repository is not here to look in)."""
    repo = repo_root_of(store)
    if len(target) > 4096 or any(len(part) > 255 for part in target.split("/")):
        return "missing"
    cands = [folder_abs / target]
    if repo is not None:
        cands.append(repo / target.lstrip("/"))
    for c in cands:
        if trusted_place(store, c) and _exists(c):
            return "exists"
    if not repo_present(repo) and _maybe_repository_path(store, folder_abs, target):
        return "unknown"
    return "missing"


def _maybe_repository_path(store, folder_abs: Path, target: str) -> bool:
    """Could this link name a repository file rather than a memory? Code and config files, paths
    written from the repository root, `../` out of the store, and README/CLAUDE.md by name."""
    root = os.path.abspath(store.root)
    if target.startswith("/") or not target.endswith(".md"):
        return True
    joined = os.path.abspath(os.path.join(folder_abs, target))
    if not is_within(joined, root):
        return True
    if target.startswith("../"):
        return False  # it walks the store's own folders: a memory link
    return "/" in target or target in ROOT_FILES
