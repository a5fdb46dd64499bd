"""The documented user-level files (~/.claude/CLAUDE.md, ~/.codex/AGENTS.md, ...): the only
files read outside the repository, read-only, regular files only, never followed elsewhere."""

from __future__ import annotations

import os
import stat

MAX_BYTES = 1_000_000


def read_text(full: str) -> str | None:
    """A regular file's text (at most MAX_BYTES), else None: never a special file, never raises."""
    return _read(full)


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


def count_md(folder: str) -> tuple[int, int]:
    """(files, bytes) of the `.md` files under a user-level folder (links to folders not walked)."""
    files = size = 0
    for dirpath, dirnames, names in os.walk(folder):
        dirnames[:] = [d for d in dirnames if not os.path.islink(os.path.join(dirpath, d))]
        for n in names:
            if n.endswith(".md"):
                try:
                    size += os.lstat(os.path.join(dirpath, n)).st_size
                    files += 1
                except OSError:
                    continue
    return files, size


def probes(home: str, root: str, env: dict, versions: dict[str, str] | None = None) -> list[str]:
    """Every user-level path the context model may read (files, and the files of the folders):
    what a kept `curator context` output depends on outside the repository."""
    import sys

    from ..agents import rules_for
    from ..model.sources import claude_slug

    claude = rules_for("claude-code", (versions or {}).get("claude-code"))
    auto = claude.value("memory.auto")
    out = [os.path.join(home, f) for f in claude.value("user.files")]
    out.append(os.path.join(home, auto["folder"].replace("<slug>", claude_slug(root)), auto["index"]))
    settings = claude.value("settings.files")
    out.append(os.path.join(home, settings["user"]))
    out.append(settings["managed"].get(sys.platform, settings["managed"]["linux"]))
    out.append(os.path.join(home, claude.value("memory.subagents")["user"]))
    codex = rules_for("codex", (versions or {}).get("codex"))
    codex_home = env.get("CODEX_HOME") or os.path.join(home, ".codex")
    out += [os.path.join(codex_home, name) for name in codex.value("user.files")]
    out.append(os.path.join(codex_home, codex.value("memory.folder")))
    out.append(os.path.join(home, rules_for("devin", (versions or {}).get("devin")).value("user.file")))
    out.append(os.path.join(home, rules_for("serena").value("memories.patterns")["global"]))
    for folder in [f for f in claude.value("user.files") if not f.endswith(".md")] + [
            claude.value("memory.subagents")["user"]]:
        for dirpath, dirnames, filenames in os.walk(os.path.join(home, folder)):
            out += [os.path.join(dirpath, d) for d in dirnames] + [os.path.join(dirpath, n) for n in filenames]
    return out
