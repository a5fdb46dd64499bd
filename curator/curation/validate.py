"""Names and targets an operation may write: inside the store, kebab-case, no skill- prefix.

One validator (`check_path`) for file names, folder names and whole paths, used by every
operation before anything touches the file system: no control or invisible characters, nothing
that breaks a table cell or a markdown link, no empty/hidden/dot parts, at most 255 bytes a part
and 1,024 in all, and (`inside_store`) no symlinked folder on the way.
"""

from __future__ import annotations

import posixpath
import re
import unicodedata
from pathlib import Path

from ..base.trust import Untrusted, store_path
from .plan import CurationError

KEBAB = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")  # used with fullmatch: `$` would allow a trailing newline
MAX_PART_BYTES = 255
MAX_PATH_BYTES = 1024
BREAKERS = set("|[]()<>`#\\:*?\"'{}!&;%,")  # table cells, links, shells, URLs


def check_path(rel: str, what: str = "path") -> str:
    """Refuse a store-relative path (or a file or folder name) that cannot sit safely in an
    index row or a markdown link; returns it unchanged."""
    if not isinstance(rel, str) or not rel:
        raise CurationError(f"the {what} is empty")
    shown = ascii(rel)[1:-1][:80]
    if len(rel.encode("utf-8", "surrogatepass")) > MAX_PATH_BYTES:
        raise CurationError(f"{shown}…: the {what} is longer than {MAX_PATH_BYTES} bytes")
    for ch in rel:
        if ch.isspace() or unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            raise CurationError(f"{shown}: the {what} holds a space, control or invisible character ({ascii(ch)})")
        if ch in BREAKERS:
            raise CurationError(f"{shown}: the {what} holds {ch!r}, which would break an index row or a link")
    parts = rel.split("/")
    lead = 0
    while lead < len(parts) and parts[lead] == "..":
        lead += 1
    for part in parts[lead:]:
        if part in ("", ".", ".."):
            raise CurationError(f"{shown}: the {what} has an empty, '.' or '..' part")
        if len(part.encode("utf-8")) > MAX_PART_BYTES:
            raise CurationError(f"{shown}…: a part of the {what} is longer than {MAX_PART_BYTES} bytes")
    return rel


def inside_store(root: Path, rel: str) -> Path:
    """The absolute path of a store-relative path curator may write: inside the store's real
    root or an ADR-002 tier folder beside it (`trust.store_path`; config never widens it)."""
    try:
        return store_path(root, rel)
    except Untrusted as exc:
        raise CurationError(str(exc)) from None


def _no_linked_folder(root: Path, rel: str) -> None:
    """Every folder of `rel` below the store (or included folder) must be a real folder."""
    base = Path(root)
    parts = rel.split("/")[:-1]
    while parts and parts[0] == "..":
        base, parts = base.parent, parts[1:]
        if parts:
            base, parts = base / parts[0], parts[1:]
    for part in parts:
        base = base / part
        if base.is_symlink():
            raise CurationError(f"{rel}: the folder {part}/ is a symlink; curator does not write through links")
        if base.exists() and not base.is_dir():
            raise CurationError(f"{rel}: {part} is a file, not a folder")


def memory_name(root: Path, rel: str, *, must_not_exist: bool = True) -> str:
    """Validate the path of a new memory and return it normalised."""
    if not isinstance(rel, str):
        raise CurationError("the new memory needs a path like folder/name.md")
    rel = rel.strip(" ")
    if not rel.endswith(".md"):
        rel += ".md"
    inside_store(root, rel)
    check_path(rel, "new memory's path")
    rel = posixpath.normpath(rel)
    _no_linked_folder(root, rel)
    stem = rel.rsplit("/", 1)[-1][:-3]
    if stem.startswith("skill-"):
        raise CurationError(f"{stem}.md: the `skill-` prefix is deprecated; name it after its domain instead")
    if not KEBAB.fullmatch(stem):
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
            if any(unicodedata.category(ch).startswith(("C", "Z")) for ch in word):
                raise CurationError(f"keyword {ascii(word)} holds a control or invisible character")
            bad = KEYWORD_BREAKERS.search(word)
            if bad:
                raise CurationError(f"keyword {word!r} holds {bad.group(0)!r}, which would break the index row")
            if word not in out:
                out.append(word)
    return out
