"""Which checkout a linked worktree belongs to, from the files git keeps (no git run, no
subprocess imported: discovery asks it on every run, the warm one included)."""

from __future__ import annotations

from pathlib import Path


def main_checkout(root: Path) -> Path:
    """The main checkout of a linked worktree, read from the files git keeps (no git run): the
    worktree's `.git` file names `<main>/.git/worktrees/<name>`, whose `commondir` leads back to
    `<main>/.git` and whose `gitdir` names this worktree's `.git` again. Anything else (a plain
    checkout, a submodule, a `.git` file naming a folder that does not name it back): `root`."""
    from .safeio import UnsafeFile, read_small_file

    def text(path: Path) -> str:
        return read_small_file(path, 4096).decode("utf-8", "replace").strip()

    dot = root / ".git"
    try:
        if not dot.is_file() or dot.is_symlink():
            return root
        first = text(dot)
        if not first.startswith("gitdir:"):
            return root
        named = Path(first[len("gitdir:"):].strip())
        gitdir = (named if named.is_absolute() else root / named).resolve()
        common = Path(text(gitdir / "commondir"))
        common = (common if common.is_absolute() else gitdir / common).resolve()
        back = Path(text(gitdir / "gitdir"))  # relative to that folder with git's worktree.useRelativePaths
        back = back if back.is_absolute() else gitdir / back
        if common.name != ".git" or gitdir.parent.parent != common or back.resolve() != dot.resolve():
            return root
    except (OSError, UnsafeFile, RuntimeError, ValueError):
        return root
    return common.parent
