"""Claude Code's auto memory where your `autoMemoryDirectory` puts it (since 2.1.74): the folder
the settings name, as discovery adds it, and whether a repository's `.claude/memory/` is this
checkout's auto memory or a committed copy (the figures of it say which).

A repository's `.claude/settings.local.json` is yours by Claude Code's rules, but a repository can
commit one: a folder it names outside the repository is shown read-only and never in CI, and no
settings file makes a memory store of your home folder, the root, or the repository itself.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from ..base.paths import from_home, is_within


def claude_slug(path: Path | str) -> str:
    """Claude Code's project folder name: the absolute path, every non-alphanumeric → `-`."""
    return re.sub(r"[^A-Za-z0-9]", "-", str(path))


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


TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")  # how Claude Code reads a switch variable
MANAGED_VARIABLE = "CURATOR_MANAGED_DIR"  # a folder to read managed settings from (the tests set it)


def managed_path(places: dict, folder: str | None) -> str:
    """A managed file's path on this OS, in `folder` when one is given."""
    import sys

    default = places.get(sys.platform, places["linux"])
    return os.path.join(folder, os.path.basename(default)) if folder else default


def switch_off(env: Mapping[str, str], switch: dict, enabled: tuple[bool, str] | None) -> str:
    """Why auto memory is off ("": on), as Claude Code's `isAutoMemoryEnabled` decides: safe mode
    (`switch["safe"]`, when the version has it), the variable (`0` keeps it on whatever the
    settings say), simple mode, then the `autoMemoryEnabled` of the highest settings scope that
    sets it (`enabled`: value, where)."""
    safe = switch.get("safe")
    if safe and env.get(safe, "").strip().lower() in TRUE:  # safe mode: off whatever the variable says
        return f"{safe} is set (safe mode)"
    if switch.get("bare") and env.get(switch["simple"], "").strip().lower() in TRUE:
        return f"{switch['simple']} is set (bare mode: no memory file is read)"  # its loader is off, forced or not
    forced = env.get(switch["variable"], "").strip().lower()
    if forced in TRUE:
        return f"{switch['variable']} is {forced}"
    if forced in FALSE:
        return ""
    if env.get(switch["simple"], "").strip().lower() in TRUE:
        return f"{switch['simple']} is set (simple mode)"
    if enabled is not None and enabled[0] is False:
        return f"autoMemoryEnabled is false in {enabled[1]}"
    return ""


def with_modes(rules, switch: dict) -> dict:
    """The auto-memory switch with the version's safe and bare modes, which read no memory file."""
    extra = {"safe": rules.value("switch.safe")} if rules.has("switch.safe") else {}
    return {**switch, **extra, **({"bare": True} if rules.has("switch.bare") else {})}


def _settings(root: Path | None, env: Mapping[str, str], home: Path, scopes) -> list[tuple[str, str, dict]]:
    """(scope, where, data) of Claude Code's settings files in `scopes`, highest first: managed and
    yours are not read when CI is set; the repository's through its own folder only."""
    import json

    from ..agents import rules_for
    from ..base.safeio import UnsafeFile, read_small_file

    files = rules_for("claude-code").value("settings.files")
    ci = bool(env.get("CI", "").strip())
    places: list[tuple[str, Path, str, tuple[Path, ...]]] = []
    if "managed" in scopes and not ci:
        managed = Path(managed_path(files["managed"], env.get(MANAGED_VARIABLE)))
        places.append(("managed", managed, str(managed), ()))
    for scope in ("local", "project"):
        if scope in scopes and root is not None:
            places.append((scope, root / files[scope], files[scope], (root,)))
    if "user" in scopes and not ci:
        user = claude_roots(env, home)[0] / "settings.json"
        places.append(("user", user, _shown(user, home), ()))
    out = []
    for scope, path, shown, inside in places:
        try:
            data = json.loads(read_small_file(path if inside else path.resolve(), inside=inside))
        except (OSError, UnsafeFile, ValueError, RuntimeError):
            continue
        if isinstance(data, dict):
            out.append((scope, shown, data))
    return out


def auto_memory_off(root: Path | None, env: Mapping[str, str], home: Path) -> str:
    """Why Claude Code's auto memory is off for the repository at `root` ("": on): the context
    model's answer (`context/claude_memory.auto_place`), for the stores' own figures."""
    from ..agents import rules_for

    rules = rules_for("claude-code")
    switch = rules.value("memory.auto-switch", None)
    if switch is None:
        return ""
    switch = with_modes(rules, switch)
    enabled = next(((data[switch["setting"]], shown)
                    for _, shown, data in _settings(root, env, home, ("managed", "local", "project", "user"))
                    if isinstance(data.get(switch["setting"]), bool)), None)
    return switch_off(env, switch, enabled)


def auto_memory_setting(root: Path, env: Mapping[str, str], home: Path) -> tuple[Path, str] | None:
    """(folder, "local" or "user") of the `autoMemoryDirectory` that counts: managed, the
    repository's local settings, then yours (managed and yours are not read when CI is set)."""
    from ..agents import rules_for

    moved = rules_for("claude-code").value("memory.auto-directory", None)
    if moved is None:
        return None
    for scope, _, data in _settings(root, env, home, moved["scopes"]):
        value = data.get(moved["setting"])
        if isinstance(value, str) and value.strip():
            value = value.strip()
            if "\x00" in value:
                return None  # no folder Claude Code could open
            folder = Path(from_home(value, home))
            return (folder, "local" if scope == "local" else "user") if folder.is_absolute() else None
    return None


def committed_claude_memory(root) -> bool:
    """A `.claude/memory/` kept in a repository (not the user's auto memory under
    `~/.claude/projects/<slug>/memory`, which your autoMemoryDirectory or a link may make it): the
    agent reads its MEMORY.md only when a loaded file imports it (rule claude-code/memory.repository)."""
    root = Path(root)
    if not (root.name == "memory" and root.parent.name == ".claude"):
        return False
    env = os.environ  # your autoMemoryDirectory may name it, or your auto-memory folder link to it
    try:
        repo, home, here = root.parent.parent.resolve(), Path(env.get("HOME") or Path.home()), root.resolve()
        moved = auto_memory_folder(repo, env, home)
        if moved is not None:
            return moved.resolve() != here
        return not any((base / "projects" / claude_slug(repo) / "memory").resolve() == here
                       for base in claude_roots(env, home))
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


def claude_pinned(store) -> str | None:
    """The Claude Code version pinned for `store`: `--agent claude-code@VERSION`, else the
    repository's `.curator.yaml` (`agents:`; also for an auto-memory folder outside it), else the
    store's own config; None when none is (or none names a version curator knows)."""
    return agent_pinned(store, "claude-code")


def agent_pinned(store, agent: str) -> str | None:
    """`claude_pinned` for any agent (Serena's activation reads its own version so)."""

    def build() -> str | None:
        from ..agents import UnknownAgent, VersionError, canonical, rules_for

        config = store.config
        for name, version in (*config.asked_versions, *_repository_pins(store), *config.agent_versions):
            try:
                if canonical(name) == agent:
                    rules_for(agent, version)
                    return version
            except (UnknownAgent, VersionError):
                continue
        return None

    return store.view(f"{agent}-pinned", build, reads=frozenset())


def _repository_pins(store) -> tuple[tuple[str, str], ...]:
    from ..base.config import ConfigError, load_config

    try:
        repo = store_repo(store)
        return load_config(Path(repo)).agent_versions if repo is not None else ()
    except (ConfigError, OSError, RuntimeError, ValueError):
        return ()


def store_repo(store) -> Path | None:
    """The repository holding `store` (an auto-memory folder's by its slug), found once a snapshot."""

    def build() -> Path | None:
        from ..base.paths import store_repository

        return store_repository(store.root, store.repo_root, store.format) or slug_repository(Path(store.root))

    return store.view("claude-repository", build, reads=frozenset())


def store_auto_off(store) -> str:
    """Why Claude Code's auto memory is off for the repository holding `store` ("": on), kept as a
    view of the snapshot (it reads settings outside the store, which a memory edit does not change):
    with it off, the store's MEMORY.md loads only if a loaded file imports it."""

    def build() -> str:
        from ..agents import rules_for

        pinned = claude_pinned(store)
        if pinned is not None and not rules_for("claude-code", pinned).has("memory.auto"):
            return f"Claude Code {pinned}, the version pinned, had no auto memory"
        env = os.environ
        try:
            repo = store_repo(store)
            return auto_memory_off(repo, env, Path(env.get("HOME") or Path.home()))
        except (OSError, RuntimeError, ValueError):
            return ""

    return store.view("auto-memory-off", build, reads=frozenset())


def slug_repository(folder: Path, budget: int = 200) -> Path | None:
    """The repository whose auto memory `folder` is (`<claude root>/projects/<slug>/memory`, opened
    by itself), found by walking down from `/` through the names whose slug the slug goes on
    with; None when no existing folder has that slug (or the walk passes `budget` listings)."""
    if folder.name != "memory" or folder.parent.parent.name != "projects":
        return None
    slug = folder.parent.name
    todo: list[tuple[Path, int]] = [(Path("/"), 0)]
    while todo and budget > 0:
        here, at = todo.pop()
        if at == len(slug):
            return here
        budget -= 1
        try:
            names = os.listdir(here)
        except OSError:
            continue
        for name in names:
            part = "-" + claude_slug(name)
            if slug.startswith(part, at) and (at + len(part) == len(slug) or slug[at + len(part)] == "-"):
                if os.path.isdir(here / name):
                    todo.append((here / name, at + len(part)))
    return None
