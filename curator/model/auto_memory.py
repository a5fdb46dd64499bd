"""Claude Code's auto memory where your `autoMemoryDirectory` puts it (since 2.1.74): the folder
the settings name, as discovery adds it, and whether a repository's `.claude/memory/` is this
checkout's auto memory or a committed copy (the figures of it say which).

A repository's `.claude/settings.local.json` is yours by Claude Code's rules, but a repository can
commit one: a folder it names outside the repository is shown read-only and never in CI, and no
settings file makes a memory store of your home folder, the root, or the repository itself.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from ..base.paths import from_home, is_within


def claude_roots(env: Mapping[str, str] | None = None, home: Path | None = None) -> list[Path]:
    """Claude Code's configuration folders: `$CLAUDE_CONFIG_DIR` (comma-separated) else
    `~/.claude` and `~/.config/claude`."""
    environ = os.environ if env is None else env
    home = home or Path(environ.get("HOME") or Path.home())
    given = environ.get("CLAUDE_CONFIG_DIR", "")
    if given.strip():
        return [Path(p.strip()).expanduser() for p in given.split(",") if p.strip()]
    return [home / ".claude", home / ".config" / "claude"]


def auto_memory_folder(root: Path, env: Mapping[str, str], home: Path) -> Path | None:
    """The folder your `autoMemoryDirectory` names: Claude Code's auto memory for this repository
    when set. The project's own settings cannot move it (agents/claude_code.py)."""
    got = auto_memory_setting(root, env, home)
    return got[0] if got else None


def auto_memory_setting(root: Path, env: Mapping[str, str], home: Path) -> tuple[Path, str] | None:
    """(folder, "local" or "user") of the `autoMemoryDirectory` that counts: the repository's local
    settings first, then yours (not read when CI is set)."""
    import json

    from ..agents import rules_for
    from ..base.safeio import UnsafeFile, read_small_file

    rules = rules_for("claude-code")
    moved = rules.value("memory.auto-directory", None)
    if moved is None:
        return None
    local = root / rules.value("settings.files")["local"]
    places: list[tuple[Path, tuple[Path, ...]]] = [(local, (root,))]
    if not env.get("CI", "").strip():  # yours are not read when CI is set (as the context model does)
        places.append((claude_roots(env, home)[0] / "settings.json", ()))
    for path, inside in places:
        scope = "local" if inside else "user"
        try:
            data = json.loads(read_small_file(path if inside else path.resolve(), inside=inside))
        except (OSError, UnsafeFile, ValueError, RuntimeError):
            continue
        value = data.get(moved["setting"]) if isinstance(data, dict) else None
        if isinstance(value, str) and value.strip():
            value = value.strip()
            if "\x00" in value:
                return None  # no folder Claude Code could open
            folder = Path(from_home(value, home))
            return (folder, scope) if folder.is_absolute() else None
    return None


def committed_claude_memory(root) -> bool:
    """A `.claude/memory/` kept in a repository (not the user's auto memory under
    `~/.claude/projects/<slug>/memory`): the agent reads its MEMORY.md only when a loaded file
    imports it (design.md), so figures of it as auto memory say so."""
    root = Path(root)
    if not (root.name == "memory" and root.parent.name == ".claude"):
        return False
    env = os.environ  # your autoMemoryDirectory may name it: then it is auto memory
    try:
        moved = auto_memory_folder(root.parent.parent.resolve(), env, Path(env.get("HOME") or Path.home()))
        return moved is None or moved.resolve() != root.resolve()
    except (OSError, RuntimeError, ValueError):
        return True




def auto_memory_place(root: Path, env: Mapping[str, str], home: Path) -> tuple[Path, str, str, bool, str] | None:
    """(folder, shown, origin, read-only, why) of the memory store your `autoMemoryDirectory`
    names, as discovery adds it; None when unset, or when it names no place to keep memory."""
    got = auto_memory_setting(root, env, home)
    if got is None:
        return None
    folder, scope = got
    try:
        real = folder.resolve()
    except (OSError, RuntimeError):
        return None
    if real in (Path(real.anchor), home.resolve()) or is_within(root, real):
        return None  # the root, your home, the repository or a folder above it: no memory folder
    if is_within(real, root):
        return folder, str(real.relative_to(root)), "repo", False, ""
    shown = _shown(folder, home)
    if scope == "local":  # a repository's local settings may be committed: read-only, never in CI
        if env.get("CI", "").strip():
            return None
        return folder, shown, "user", True, (f"{shown} is named by the repository's .claude/settings.local.json: "
                                             f"curator does not write there unless you name it (`curator COMMAND {real}`)")
    return folder, shown, "user", False, ""


def _shown(p: Path, home: Path) -> str:
    try:
        return "~/" + str(p.relative_to(home))
    except ValueError:
        return str(p)
