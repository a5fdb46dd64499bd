"""Which memory stores a repository holds, and how to load each at a revision or on disk.

This is the small interface review is written against until the repository-wide sources
model lands: `find_sources(paths)` names the stores from a list of repo-relative file paths,
`load_source(folder, ...)` loads one with the ordinary `load_store`. Today a source is a Serena
store (`.serena/memories`), a Claude Code memory folder (`.claude/memory`) or the experience
system (`docs`, holding `docs/error-experience` and `docs/good-experience`) at the repository's
top, or a folder `.curator.yaml` adds — the rules `model.sources.discover` follows."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..base.config import Config, load_config
from ..model.discovery import StoreError
from ..model.loader import LoadOptions, load_store
from ..model.sources import RepoSettings, repository_settings, repository_source_of
from ..model.store import Store


@dataclass(frozen=True, slots=True, order=True)
class Source:
    path: str  # repo-relative folder, "/" separated
    kind: str  # serena | claude | experience

    def contains(self, repo_path: str) -> bool:
        return repo_path.startswith(self.path + "/")


def source_of(repo_path: str, settings: RepoSettings | None = None) -> Source | None:
    """The source a repo-relative markdown path belongs to, if any, by discover's rules (the
    repository's top-level stores plus `.curator.yaml` sources.add/exclude), so a review lists the
    same memory systems the header, overview and Problems count."""
    if not repo_path.endswith(".md"):
        return None
    hit = repository_source_of(repo_path, settings or RepoSettings())
    return Source(hit[1], hit[0]) if hit else None


def find_sources(paths, repo: Path | None = None) -> list[Source]:
    """Every source holding at least one of the given repo-relative paths, sorted; `repo`'s
    `.curator.yaml` adds or excludes sources as it does for discover."""
    settings = repository_settings(repo) if repo is not None else RepoSettings()
    return sorted({s for p in paths if (s := source_of(p, settings)) is not None})


def source_config(repo_root: Path, source: Source) -> Config:
    """The working tree's config for a source (both sides of a review use the same rules, so a
    file's tier changes only when the file moves)."""
    return load_config(repo_root / source.path)


def load_source(folder: Path, source: Source, config: Config, token_counter=None, meaning=None) -> Store | None:
    """The store in `folder`, or None when the folder holds no files (the source is new or gone)."""
    if not folder.is_dir() or not any(folder.iterdir()):
        return None
    try:
        return load_store(folder, LoadOptions(given=source.path, config=config, token_counter=token_counter,
                                              meaning=meaning))
    except StoreError:
        return None
