"""The loader's walk: which files a store holds (markdown files below its root, links that stay
inside it), each refusal on the way a finding."""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..base.config import Config
from ..base.paths import is_within
from .findings import Finding, Severity
from .foreign import TOOL_CONFIG, foreign_file, is_attachment
from .special import special_finding

FOLDER_LINK = "symbolic link to a folder is not followed (loops and double counting)"
# an experience source rooted at `docs/` reads only the experience folders and their indexes
EXPERIENCE_TOP = re.compile(r"^[\w.-]*-experience(\.md)?$")


def walk(base: Path, prefix: str, allowed: list[Path], findings: list[Finding], cfg: Config, only_top=None):
    """Yield (rel, abspath) for every markdown file below base; never follows folder symlinks."""
    stack = [(base, prefix)]
    while stack:
        folder, rel_folder = stack.pop()
        for entry in _listing(folder, rel_folder, findings):
            rel = f"{rel_folder}/{entry.name}" if rel_folder else entry.name
            if only_top is not None and folder == base and not only_top.match(entry.name):
                continue
            if _hidden(entry, rel, findings) or cfg.is_excluded(rel):
                continue
            try:
                if entry.is_symlink():
                    if _followed_link(entry, rel, allowed, findings):
                        yield rel, entry.path
                elif entry.is_dir(follow_symlinks=False):
                    stack.append((Path(entry.path), rel))
                elif _markdown_file(entry, rel, findings):
                    yield rel, entry.path
            except OSError as exc:
                findings.append(Finding("parse.error", Severity.ERROR, rel, f"cannot read: {exc}"))


def _listing(folder: Path, rel_folder: str, findings: list[Finding]) -> list[os.DirEntry]:
    """The folder's entries by name; [] (and a finding) when it cannot be listed."""
    try:
        return sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError as exc:
        findings.append(
            Finding("parse.error", Severity.ERROR, rel_folder or ".", f"cannot list folder: {exc.strerror or exc}")
        )
        return []


def _hidden(entry: os.DirEntry, rel: str, findings: list[Finding]) -> bool:
    """Hidden files and folders (.git, .curator, editor swap files) are not walked; a hidden
    tool's config file is named (a foreign file)."""
    if not entry.name.startswith(".") or entry.name in (".serena",):
        return False
    if TOOL_CONFIG.match(entry.name) and entry.is_file(follow_symlinks=False):
        findings.append(foreign_file(rel, True))
    return True


def _followed_link(entry: os.DirEntry, rel: str, allowed: list[Path], findings: list[Finding]) -> bool:
    """A symbolic link is read only when it points at a markdown file inside the store (or a
    folder it includes); else a finding says why not."""
    try:
        target = Path(entry.path).resolve(strict=True)
    except (OSError, RuntimeError):
        if entry.name.endswith(".md"):
            findings.append(Finding("parse.error", Severity.ERROR, rel, "symbolic link is broken or loops"))
        return False
    if not any(is_within(target, a) for a in allowed):
        findings.append(Finding("index.unsafe-target", Severity.ERROR, rel, "symbolic link leaves the store; not read",
                                target=str(target)))
        return False
    if target.is_dir():
        findings.append(Finding("parse.error", Severity.WARNING, rel, FOLDER_LINK))
        return False
    special = special_finding(rel, target)  # a link to a FIFO or a device
    if special is not None:
        findings.append(special)
        return False
    return entry.name.endswith(".md")


def _markdown_file(entry: os.DirEntry, rel: str, findings: list[Finding]) -> bool:
    """A regular markdown file is read; another regular file that is no attachment is a
    foreign file, and a FIFO, socket or device is never opened (model/special.py)."""
    if entry.name.endswith(".md") and entry.is_file(follow_symlinks=False):
        return True
    if not is_attachment(entry.name) and entry.is_file(follow_symlinks=False):
        findings.append(foreign_file(rel, False))
    elif not entry.is_file(follow_symlinks=False) and (special := special_finding(rel, entry.path)):
        findings.append(special)
    return False
