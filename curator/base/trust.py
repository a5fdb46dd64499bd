"""Trust boundaries: what a repository can make curator read or write.

Everything that arrives with a repository — `.curator.yaml`, the journals under `.curator/`,
index rows, links — is untrusted input: a clone or a tarball can hold any of it. The rules,
enforced here and nowhere else:

1. **Repository config stays in the repository.** A path a repository's `.curator.yaml` names
   (`include`, `sources.add`) is resolved (symlinks followed) and must land inside the
   repository: the nearest folder at or above the store holding `.git`, else the folder the
   store sits in. No absolute path, no `..` out, no symlinked parent out. Only settings from
   the command line (`--config FILE`, the user's own file) may reach outside it.
2. **Each journal names only what its operations write** (`journal_path`, the one function
   that decides, for curator's writes and for every path a journal entry names):
   - a *store* journal: the store's records (inside its real root, `.curator/archive/` the
     only part of `.curator/`), and ADR-002's tier folders beside it (`../knowledge`,
     `../reflexion`, `../validation`, `../reflection`, `../reflect`; real folders, never
     symlinks) only when they are inside the repository;
   - the *repository* journal: only the instruction files the context model knows, inside the
     repository — never a tier sibling or anything outside;
   - neither: `.git/`, `.curator/` (but a store's archive), a symlink, a symlinked folder on the
     way, or an existing path that is not a regular file (a FIFO, a device).
   Config never widens this: a journal entry naming anything else is set aside before any byte
   is read or written.
3. **A store that resolves outside its repository is read-only** (`outside_repository`) unless
   the user names the real folder on the command line or in their own settings (not the link).
"""

from __future__ import annotations

import os
import posixpath
import re
import stat
from collections.abc import Callable
from pathlib import Path

from .paths import is_within

# ADR-002's tier folders beside a Serena store: curator's own names, never taken from config
TIER_SIBLINGS = ("knowledge", "reflexion", "validation", "reflection", "reflect")
MAX_PART_BYTES = 255
MAX_PATH_BYTES = 1024
STORE, REPOSITORY = "store", "repository"  # the two kinds of journal


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
    `../<tier>` → each ADR-002 tier folder beside it that is a real folder (not a symlink) inside
    the repository (a store at the top of its repository has none)."""
    real = Path(root).resolve()
    out = {"": real}
    boundary = repository_boundary(real)
    for name in TIER_SIBLINGS:
        p = real.parent / name
        if not p.is_symlink() and p.is_dir() and p.resolve() != real and p != boundary and is_within(p, boundary):
            out[f"../{name}"] = p
    return out


def _own_part(norm: str, kind: str) -> str | None:
    """`.git` or `.curator` when `norm` goes through one (a store's archive aside). Compared as
    a case-insensitive file system and Windows (trailing dots and spaces) see a name."""
    parts = norm.split("/")
    for i, part in enumerate(parts):
        name = part.rstrip(" .").casefold()
        if name == ".git":
            return ".git"
        if name == ".curator" and not (kind == STORE and i == 0 and len(parts) > 2 and parts[1] == "archive"):
            return ".curator"
    return None


def journal_path(kind: str, root: Path, rel: str, known: Callable[[str], bool] | None = None) -> Path:
    """The absolute path of `rel` when a journal of `kind` ("store" or "repository") rooted at
    `root` may name it — and curator may write it (see the module's rule 2); `known` says which
    repository paths are instruction files. Raises Untrusted otherwise (one line)."""
    shown = ascii(rel)[1:-1][:80] if isinstance(rel, str) else "a path"
    if not isinstance(rel, str) or not rel or rel.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", rel) \
            or "\\" in rel or "\x00" in rel:
        raise Untrusted(f"{shown!r} must be a path inside the {kind}, like folder/name.md")
    if len(rel.encode("utf-8", "surrogatepass")) > MAX_PATH_BYTES or any(
            len(p.encode("utf-8", "surrogatepass")) > MAX_PART_BYTES for p in rel.split("/")):
        raise Untrusted(f"{shown!r}: too long or not a usable path")
    norm = posixpath.normpath(rel)
    own = _own_part(norm, kind)
    if own is not None:
        raise Untrusted(f"{shown!r} is inside {own}/, which curator never writes")
    if norm in (".", "..") or norm.startswith("../") and kind != STORE:
        raise Untrusted(f"{shown!r} leaves the {kind}")
    if kind == REPOSITORY:
        if known is None or not known(norm):
            raise Untrusted(f"{shown!r} is not an instruction file of the repository")
        base, rest = Path(root).resolve(), norm
    elif norm.startswith("../"):
        prefix, _, rest = norm[3:].partition("/")
        tier = store_family(root).get(f"../{prefix}")
        if tier is None or not rest or rest.startswith("../") or rest == "..":
            raise Untrusted(f"{shown!r} leaves the store")
        base = tier
    else:
        base, rest = Path(root).resolve(), norm
    target = base / rest
    try:
        parent = target.parent.resolve()
    except (OSError, RuntimeError):
        raise Untrusted(f"{shown!r} cannot be resolved") from None
    if not is_within(parent, base):
        raise Untrusted(f"{shown!r} leaves the {kind} (through a symlink)")
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return target
    except OSError:
        raise Untrusted(f"{shown!r} cannot be looked at") from None
    if stat.S_ISLNK(st.st_mode):
        raise Untrusted(f"{shown!r} is a symlink; curator does not write through links")
    if not stat.S_ISREG(st.st_mode):
        raise Untrusted(f"{shown!r} is not a regular file (a folder, FIFO, socket or device is never opened)")
    return target


def store_path(root: Path, rel: str) -> Path:
    """The absolute path of a store-relative path curator may write (or a store's journal may
    name): `journal_path` for a store. Raises Untrusted otherwise."""
    return journal_path(STORE, root, rel)


def outside_repository(store: Path, repository: Path) -> bool:
    """Does the store (found in `repository`) resolve to a folder outside it (a symlinked
    `.serena/memories`)? Then it is read-only unless the user names it."""
    try:
        return not is_within(Path(store).resolve(), Path(repository).resolve())
    except (OSError, RuntimeError):
        return True
