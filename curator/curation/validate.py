"""Names and targets an operation may write: inside the store, kebab-case, no skill- prefix."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from .plan import CurationError

KEBAB = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def included_folders(root: Path) -> list[str]:
    """The config's `include` folders outside the store (`../validation` beside
    `.serena/memories`): their records are part of the store, so curator may write them."""
    from ..config import ConfigError, load_config

    try:
        include = load_config(Path(root)).include
    except ConfigError:
        return []
    return [posixpath.normpath(i.rstrip("/")) for i in include if posixpath.normpath(i).startswith("../")]


def inside_store(root: Path, rel: str) -> Path:
    """The absolute path of a store-relative path, refusing anything that leaves the store
    (or, for `../x/...`, the included folder it names)."""
    if not rel or rel.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", rel) or "\\" in rel:
        raise CurationError(f"{rel!r} must be a path inside the store, like folder/name.md")
    norm = posixpath.normpath(rel)
    if norm in (".", ".."):
        raise CurationError(f"{rel!r} leaves the store")
    root_real = Path(root).resolve()
    if norm.startswith("../"):
        inc = next((i for i in included_folders(root) if norm.startswith(i + "/")), None)
        if inc is None or not (Path(root) / inc).is_dir():
            raise CurationError(f"{rel!r} leaves the store")
        root_real = (Path(root) / inc).resolve()
        norm_in = norm[len(inc) + 1:]
        target = root_real / norm_in
        parent = target.parent.resolve()
        if parent != root_real and root_real not in parent.parents:
            raise CurationError(f"{rel!r} leaves the store (through a symlink)")
        if target.is_symlink():
            raise CurationError(f"{rel!r} is a symlink; curator does not write through links")
        return Path(root) / norm
    target = (root_real / norm)
    parent = target.parent.resolve()
    if parent != root_real and root_real not in parent.parents:
        raise CurationError(f"{rel!r} leaves the store (through a symlink)")
    if target.is_symlink():
        raise CurationError(f"{rel!r} is a symlink; curator does not write through links")
    return Path(root) / norm


def memory_name(root: Path, rel: str, *, must_not_exist: bool = True) -> str:
    """Validate the path of a new memory and return it normalised."""
    rel = rel.strip()
    if not rel.endswith(".md"):
        rel += ".md"
    inside_store(root, rel)
    rel = posixpath.normpath(rel)
    stem = rel.rsplit("/", 1)[-1][:-3]
    if stem.startswith("skill-"):
        raise CurationError(f"{stem}.md: the `skill-` prefix is deprecated; name it after its domain instead")
    if not KEBAB.match(stem):
        raise CurationError(f"{stem}.md is not kebab-case (lowercase words joined by hyphens)")
    if rel.startswith(".curator/"):
        raise CurationError("the .curator folder holds curator's journal, not memories")
    if any(part.startswith(".") and part != ".." for part in rel.split("/")):
        raise CurationError(f"{rel}: a hidden folder or file is never loaded; pick a visible folder")
    if must_not_exist and (Path(root) / rel).exists():
        raise CurationError(f"{rel} already exists; curator never overwrites a memory")
    return rel


KEYWORD_BREAKERS = re.compile(r"[|:\[\]()`<>]")


def clean_keywords(keywords: list[str]) -> list[str]:
    """Lowercased keywords, split on spaces and commas, de-duplicated in order; refuses the
    characters that would break a table row or an L0 `keywords: [link]` row."""
    out: list[str] = []
    for item in keywords:
        for word in re.split(r"[\s,;]+", item.strip().lower()):
            if not word:
                continue
            bad = KEYWORD_BREAKERS.search(word)
            if bad:
                raise CurationError(f"keyword {word!r} holds {bad.group(0)!r}, which would break the index row")
            if word not in out:
                out.append(word)
    return out
