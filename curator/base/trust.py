"""Trust boundaries: what a repository can make curator read or write.

Everything that arrives with a repository — `.curator.yaml`, the journal under `.curator/`,
index rows, links — is untrusted input: a clone or a tarball can hold any of it. Two rules,
enforced here and nowhere else:

1. **Repository config stays in the repository.** A path a repository's `.curator.yaml` names
   (`include`, `sources.add`) is resolved (symlinks followed) and must land inside the
   repository: the nearest folder at or above the store holding `.git`, else the folder the
   store sits in. No absolute path, no `..` out, no symlinked parent out. Only settings from
   the command line (`--config FILE`, the user's own file) may reach outside it.
2. **Writes and the journal stay in the store.** Every path curator writes — and every path a
   journal entry names — is resolved against the real root of the store that owns the journal,
   plus ADR-002's tier folders directly beside it (`../knowledge`, `../reflexion`,
   `../validation`, `../reflection`, `../reflect`; real folders, never symlinks). Config never
   widens this: a journal entry naming anything else is set aside before any byte is read or
   written.
"""

from __future__ import annotations

import os
import posixpath
import re
from pathlib import Path

from .paths import is_within

# ADR-002's tier folders beside a Serena store: curator's own names, never taken from config
TIER_SIBLINGS = ("knowledge", "reflexion", "validation", "reflection", "reflect")
MAX_PART_BYTES = 255
MAX_PATH_BYTES = 1024


class Untrusted(ValueError):
    """A path that leaves the place it is allowed in (the message is one line)."""


def repository_boundary(store_root: Path) -> Path:
    """Where a repository's config may point: the nearest folder at or above the store that
    holds `.git`, else the folder the store sits in (ADR-002's tier folders are its siblings)."""
    real = Path(store_root).resolve()
    for folder in (real, *real.parents):
        if os.path.lexists(folder / ".git"):
            return folder
    return real.parent


def confine(boundary: Path, base: Path, rel: str, what: str = "path") -> Path:
    """`rel` (relative to `base`) resolved, refusing an absolute path and anything whose real
    location (symlinks followed) is outside `boundary`."""
    shown = ascii(str(rel))[1:-1][:80]
    if not isinstance(rel, str) or not rel.strip() or "\x00" in rel:
        raise Untrusted(f"{what} {shown!r} is not a usable path")
    if os.path.isabs(rel) or rel.startswith(("~", "\\")) or re.match(r"^[A-Za-z]:", rel):
        raise Untrusted(f"{what} {shown!r} is absolute; a repository's config may only name folders inside it")
    try:
        real = (Path(base) / rel).resolve()
    except (OSError, RuntimeError):
        raise Untrusted(f"{what} {shown!r} cannot be resolved (a symlink loop?)") from None
    if not is_within(real, Path(boundary).resolve()):
        raise Untrusted(f"{what} {shown!r} leaves the repository ({boundary}); "
                        "only your own config (--config) may name folders outside it")
    return real


def store_family(root: Path) -> dict[str, Path]:
    """The folders curator may write for the store at `root`: "" → its real root, and
    `../<tier>` → each ADR-002 tier folder beside it that is a real folder (not a symlink)."""
    real = Path(root).resolve()
    out = {"": real}
    for name in TIER_SIBLINGS:
        p = real.parent / name
        if not p.is_symlink() and p.is_dir() and p.resolve() != real:
            out[f"../{name}"] = p
    return out


def store_path(root: Path, rel: str) -> Path:
    """The absolute path of a store-relative path curator may write (or a journal may name):
    inside the store's real root or one of its ADR-002 tier folders, through no symlinked folder,
    not itself a symlink. Raises Untrusted otherwise."""
    if not isinstance(rel, str) or not rel or rel.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", rel) \
            or "\\" in rel or "\x00" in rel:
        raise Untrusted(f"{ascii(rel)[:80]} must be a path inside the store, like folder/name.md")
    if len(rel.encode("utf-8", "surrogatepass")) > MAX_PATH_BYTES or any(
            len(p.encode("utf-8", "surrogatepass")) > MAX_PART_BYTES for p in rel.split("/")):
        raise Untrusted(f"{ascii(rel)[:80]}: too long or not a usable path")
    norm = posixpath.normpath(rel)
    family = store_family(root)
    if norm.startswith("../"):
        prefix, _, rest = norm[3:].partition("/")
        base = family.get(f"../{prefix}")
        if base is None or not rest or rest.startswith("../") or rest == "..":
            raise Untrusted(f"{rel!r} leaves the store")
    elif norm in (".", ".."):
        raise Untrusted(f"{rel!r} leaves the store")
    else:
        base, rest = family[""], norm
    target = base / rest
    try:
        parent = target.parent.resolve()
    except (OSError, RuntimeError):
        raise Untrusted(f"{rel!r} cannot be resolved") from None
    if not is_within(parent, base):
        raise Untrusted(f"{rel!r} leaves the store (through a symlink)")
    if target.is_symlink():
        raise Untrusted(f"{rel!r} is a symlink; curator does not write through links")
    return target
