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


def probes(home: str, root: str, env: dict) -> list[str]:
    """Every user-level path the context model may read (files, and the files of the folders):
    what a kept `curator context` output depends on outside the repository."""
    from ..model.sources import claude_slug

    out = [os.path.join(home, ".claude", "CLAUDE.md"), os.path.join(home, ".claude", "rules"),
           os.path.join(home, ".claude", "projects", claude_slug(root), "memory", "MEMORY.md")]
    codex = env.get("CODEX_HOME") or os.path.join(home, ".codex")
    out += [os.path.join(codex, "AGENTS.override.md"), os.path.join(codex, "AGENTS.md")]
    rules = os.path.join(home, ".claude", "rules")
    for dirpath, dirnames, filenames in os.walk(rules):
        out += [os.path.join(dirpath, d) for d in dirnames] + [os.path.join(dirpath, n) for n in filenames]
    return out
