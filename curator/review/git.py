"""The few git operations review needs, through curator's one git runner (`base.git`).

Every failure is a `GitError` with one line for the user (not a repository, unknown revision,
git missing); nothing here raises anything else."""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..base.git import GitError, run
from .untar import untar


def _git(cwd: Path, *args: str) -> str:
    return _says_why(lambda: run(cwd, *args))


def _git_bytes(cwd: Path, *args: str) -> bytes:
    return _says_why(lambda: run(cwd, *args, binary=True))


def _says_why(call):
    """git's answer, or GitError saying why review needs git when it is not installed."""
    try:
        return call()
    except GitError as exc:
        if str(exc) == "git is not installed":
            raise GitError("git is not installed (review compares with a git revision)") from None
        raise


def resolve(root: Path, ref: str) -> str:
    """The commit id a revision names; GitError('unknown revision ...') otherwise."""
    try:
        return _git(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").strip()
    except GitError:
        raise GitError(f"unknown revision: {ref} (a repository with no commit yet has no HEAD)") from None


def tracked_files(root: Path, ref: str) -> list[str]:
    """Every file path at a revision, relative to the repository root."""
    out = _git(root, "ls-tree", "-r", "-z", "--name-only", "--full-tree", ref)
    return [p for p in out.split("\0") if p]


def extract(root: Path, ref: str, folder: str, dest: Path) -> Path:
    """Write the files of `folder` (repo-relative) at `ref` under `dest/folder`; returns that path.
    A folder absent at the revision gives an empty folder."""
    target = dest / folder
    target.mkdir(parents=True, exist_ok=True)
    try:
        data = _git_bytes(root, "archive", "--format=tar", ref, "--", folder)
    except GitError:
        return target  # the folder did not exist at the revision
    untar(data, dest)  # as tarfile's "data" filter: no link out, no device, no absolute path
    return target


def extract_files(root: Path, ref: str, paths: list[str], dest: Path) -> None:
    """These files (repository paths) at `ref`, for real, under `dest` (over their stand-ins):
    the files beside a store that decide what the agent loads of it (Serena's project.yml)."""
    for path in paths:
        try:
            data = _git_bytes(root, "archive", "--format=tar", ref, "--", path)
        except GitError:
            continue  # not there at the revision
        untar(data, dest)


@contextmanager
def base_folder(commit: str) -> Iterator[Path]:
    """An empty folder to extract the base revision into, removed after. One folder a commit in
    the user's cache: the next review of the same commit (a pre-commit hook reviews HEAD on every
    commit) finds that side's counts, facts and findings in the store cache, which is keyed by
    the folder, instead of reading and checking every file again. One review at a time holds the
    cache's folders (an flock); another, or one where flock or the cache is off, gets a
    temporary folder (the same result, only not kept)."""
    from ..base.kept import folder as kept_folder

    where = kept_folder("review")
    lock = _lock(where) if where is not None else None
    dest = None
    if lock is not None and where is not None:
        dest = Path(where) / hashlib.sha256(commit.encode()).hexdigest()[:24]
        shutil.rmtree(dest, ignore_errors=True)  # what a review killed half way left
        try:
            dest.mkdir()
        except OSError:  # left behind and not removable (permissions): not kept, as without flock
            dest = None
    try:
        if dest is None:
            with tempfile.TemporaryDirectory(prefix="curator-review-") as tmp:
                yield Path(tmp)
        else:
            yield dest
    finally:
        if dest is not None:
            shutil.rmtree(dest, ignore_errors=True)
        if lock is not None:
            os.close(lock)


def _lock(where: str) -> int | None:
    """The descriptor holding `where/.lock` (never unlinked: a waiter holds the same file), or None."""
    try:
        import fcntl
    except ImportError:
        return None
    fd = None
    try:
        os.makedirs(where, mode=0o700, exist_ok=True)
        fd = os.open(os.path.join(where, ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return fd
    except OSError:
        if fd is not None:
            os.close(fd)
        return None


PLACEHOLDER_LIMIT = 200_000  # past it a base revision's other files are not stood in for


def stand_in(dest: Path, files: list[str], skip: tuple[str, ...] = ()) -> None:
    """Empty stand-ins under `dest` for the repository's other files at a revision (not those
    under the `skip` folders, which are extracted for real), and a `.git` marker: a store
    extracted there resolves a link that leaves it against the repository as it was at that
    revision — the same root and the same resolution as the work tree, so a link broken on both
    sides is the same finding on both."""
    if len(files) > PLACEHOLDER_LIMIT:
        return
    dest.mkdir(parents=True, exist_ok=True)
    (dest / ".git").mkdir(exist_ok=True)
    prefixes = tuple(s.rstrip("/") + "/" for s in skip)
    made: set[str] = set()
    for rel in files:
        if rel.startswith(prefixes) or rel.startswith("/") or ".." in rel.split("/"):
            continue
        parent = rel.rpartition("/")[0]
        try:
            if parent and parent not in made:
                (dest / parent).mkdir(parents=True, exist_ok=True)
                made.add(parent)
            (dest / rel).touch(exist_ok=True)
        except OSError:
            continue  # a name this file system cannot hold: that link stays unresolved


def work_files(root: Path) -> list[str]:
    """Files in the work tree git knows or would add (tracked, and untracked not ignored)."""
    out = _git(root, "ls-files", "--cached", "--others", "--exclude-standard", "-z")
    return [p for p in out.split("\0") if p]
