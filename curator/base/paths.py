"""Is this path inside that folder, and which folder is "the repository".

`is_within` is the one containment test: lexical (no symlink resolved, no `..` folded — resolve
both sides first, `Path.resolve()` / `os.path.realpath`, wherever a link could lead out), and the
folder itself counts as inside. `is_below` is the same without the folder itself. Every caller
that asks "inside?" uses one of them: the divergence of such helpers (one counting the folder,
one resolving links, one not) is how a trust check once let a path out.

The roots curator means by "the repository", each for one use:

- `git_root(start)` — the nearest folder at or above `start` holding `.git` (a folder, or the
  file of a worktree), no git run: where to look for a repository's files (its instruction files,
  the findings report's paths, `curator context` without a path).
- `store_repository(root, repo_root, fmt)` — the repository a memory store's links resolve
  against: the one discovery gave, else the folder holding `.serena`/`.claude`/`docs`, else a
  git checkout up to 12 folders above.
- `base.git.toplevel(path)` — git's own answer (worktrees, `GIT_DIR`): only for running git.
- `base.trust.repository_boundary(store_root)` — how far a repository's own config may reach
  (real path, `.git` even as a dangling link, else the store's parent folder): only for trust.
- `memory_repository(start)` — the nearest folder at or above `start` holding a memory system:
  where `curator` run without a path (or inside a repository) starts.
- `transcript_repository(path)` — the repository whose agent sessions go with a store: the folder
  holding `.serena`/`.claude` (above or beside it), else the folder itself; the transcripts are
  found by its path.
- `described_repository(store_root)` — the repository whose skills and rules a query may also
  load: the nearest `.git` or agent description folder above a store, never the home folder.
- `base.config.find_config` stops its walk at the first folder holding `.git`.
"""

from __future__ import annotations

import os
from pathlib import Path

REPOSITORY_DEPTH = 12  # folders above a store searched for a git checkout holding it
MEMORY_MARKERS = (".serena", ".claude")  # the folders that hold an agent's memory in a repository
# the agents' description folders: skills, subagents and rules an agent loads when a task asks
DESCRIBED = (".claude/skills", ".claude/agents", ".cursor/rules", ".kiro/steering", ".devin/rules", ".windsurf/rules")


def from_home(value: str, home: str | os.PathLike) -> str:
    """`~` and `~/…` read from `home` (a setting or a variable naming a folder of yours), any other
    value as given: the agents expand the tilde themselves, without the shell."""
    if value == "~" or value.startswith(("~/", "~" + os.sep)):
        return os.path.join(home, value[2:])
    return value


def is_within(path: str | os.PathLike, root: str | os.PathLike) -> bool:
    """Is `path` the folder `root` or anything below it? Lexical: resolve both first when a
    symbolic link could lead out."""
    p, r = os.fspath(path), os.fspath(root)
    return p == r or p.startswith(r.rstrip(os.sep) + os.sep)


def is_below(path: str | os.PathLike, root: str | os.PathLike) -> bool:
    """Is `path` strictly below `root` (the folder itself is not)? Lexical, as `is_within`."""
    p, r = os.fspath(path), os.fspath(root)
    return p != r and p.startswith(r.rstrip(os.sep) + os.sep)


def git_root(start: Path) -> Path | None:
    """The nearest folder at or above `start` holding `.git` (a folder, or a file in a worktree);
    `start` is taken as given (not resolved)."""
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return None


def store_repository(root: str | os.PathLike, repo_root: Path | None = None, fmt: str = "") -> Path | None:
    """The repository a memory store lives in (its links resolve against it): `repo_root` when
    discovery gave one, else the folder holding `.serena`/`.claude` (or `docs` for experience
    entries), else a git checkout up to `REPOSITORY_DEPTH` folders above; None when none."""
    if repo_root is not None:
        return repo_root
    root = Path(root)
    if root.parent.name in (".serena", ".claude"):
        return root.parent.parent
    if root.name == "docs" and fmt == "experience":
        return root.parent
    try:
        here = root.resolve()
    except OSError:
        return None
    for folder in list(here.parents)[:REPOSITORY_DEPTH]:  # a store kept elsewhere in a git checkout
        try:
            if os.path.lexists(folder / ".git"):
                return folder
        except (OSError, ValueError):
            continue
    return None


def _is_dir(p: Path) -> bool:
    try:
        return p.is_dir()
    except OSError:
        return False


def memory_repository(start: Path) -> Path | None:
    """The nearest folder at or above `start` that holds a memory system."""
    here = start.resolve()
    for folder in (here, *here.parents):
        if _is_dir(folder / ".serena" / "memories") or _is_dir(folder / ".claude" / "memory"):
            return folder
        docs = folder / "docs"
        if _is_dir(docs) and any(_is_dir(docs / f"{k}-experience") for k in ("error", "good")):
            return folder
    return None


def transcript_repository(path: str | os.PathLike) -> Path:
    """The repository a store or folder belongs to: the folder holding `.serena`/`.claude`, else
    the folder itself."""
    p = Path(path).expanduser().absolute()
    for cand in (p, *p.parents):
        if cand.name in MEMORY_MARKERS:
            return cand.parent
    for cand in (p, *p.parents):
        if any((cand / m).is_dir() for m in MEMORY_MARKERS):
            return cand
    return p


def described_repository(store_root: str | os.PathLike) -> Path | None:
    """The repository a memory store sits in, for what its agents may also load: the nearest
    folder above it holding one of the agents' description folders or `.git` (None: neither,
    e.g. ~/.claude/projects/...)."""
    here = Path(store_root).resolve()
    home = Path.home()
    for folder in (here, *here.parents):
        if (folder / ".git").exists():
            return folder
        if folder == home:  # ~/.claude/skills are the user's, not a repository's
            return None
        if any((folder / f).is_dir() for f in DESCRIBED):
            return folder
    return None
