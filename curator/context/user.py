"""The documented user-level files (~/.claude/CLAUDE.md, ~/.codex/AGENTS.md, ...): the only
files read outside the repository, read-only, regular files only, never followed elsewhere."""

from __future__ import annotations

import os
import stat

MAX_BYTES = 1_000_000


def _read(full: str) -> str | None:
    try:
        st = os.stat(full)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_BYTES:
            return None
        with open(full, "rb") as fh:
            return fh.read().decode("utf-8", "replace")
    except OSError:
        return None


def read_user(home: str, files: list[str], folders: list[str]) -> list[tuple[str, str]]:
    """(shown as ~/..., text) of each of `files` and of the `.md` files in `folders` under home."""
    out = []
    for rel in files:
        text = _read(os.path.join(home, rel))
        if text is not None:
            out.append(("~/" + rel, text))
    for folder in folders:
        base = os.path.join(home, folder)
        found = []
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames.sort()
            found += [os.path.join(dirpath, n) for n in filenames if n.endswith(".md")]
        for full in sorted(found):
            text = _read(full)
            if text is not None:
                out.append(("~/" + os.path.relpath(full, home).replace(os.sep, "/"), text))
    return out
