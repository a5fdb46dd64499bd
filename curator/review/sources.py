"""Which memory stores a repository holds, and how to load each at a revision or on disk.

This is the small interface review is written against until the repository-wide sources
model lands: `find_sources(paths)` names the stores from a list of repo-relative file paths,
`load_source(folder, ...)` loads one with the ordinary `load_store`. Today a source is a Serena
store (`.serena/memories`), a Claude Code memory folder (`.claude/memory`) or an experience
folder (`docs/<name>-experience`), at any depth."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..config import Config, load_config
from ..model.discovery import StoreError
from ..model.loader import load_store
from ..model.store import Store

_PATTERNS = (
    ("serena", re.compile(r"^(?:(.*?)/)?\.serena/memories/")),
    ("claude", re.compile(r"^(?:(.*?)/)?\.claude/memory/")),
    ("experience", re.compile(r"^(?:(.*?)/)?docs/[^/]+-experience/")),
)


@dataclass(frozen=True, slots=True, order=True)
class Source:
    path: str  # repo-relative folder, "/" separated
    kind: str  # serena | claude | experience

    def contains(self, repo_path: str) -> bool:
        return repo_path.startswith(self.path + "/")


def source_of(repo_path: str) -> Source | None:
    """The source a repo-relative markdown path belongs to, if any."""
    if not repo_path.endswith(".md"):
        return None
    for kind, pattern in _PATTERNS:
        m = pattern.match(repo_path)
        if m:
            return Source(m.group(0).rstrip("/"), kind)
    return None


def find_sources(paths) -> list[Source]:
    """Every source holding at least one of the given repo-relative paths, sorted."""
    return sorted({s for p in paths if (s := source_of(p)) is not None})


def source_config(repo_root: Path, source: Source) -> Config:
    """The working tree's config for a source (both sides of a review use the same rules, so a
    file's tier changes only when the file moves)."""
    return load_config(repo_root / source.path)


def load_source(folder: Path, source: Source, config: Config, token_counter=None) -> Store | None:
    """The store in `folder`, or None when the folder holds no files (the source is new or gone)."""
    if not folder.is_dir() or not any(folder.iterdir()):
        return None
    try:
        return load_store(folder, given=source.path, config=config, token_counter=token_counter)
    except StoreError:
        return None
