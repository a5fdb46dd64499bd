"""The documented user-level files (~/.claude/CLAUDE.md, ~/.codex/AGENTS.md, ...): the only
files read outside the repository, read-only, regular files only, never followed elsewhere."""

from __future__ import annotations

import json
import os
import stat

from ..base.paths import from_home
from ..model.auto_memory import MANAGED_VARIABLE, managed_path

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
    except (OSError, ValueError):  # ValueError: a NUL in a path a settings file gave
        return None


def json_value(text: str) -> object:
    """JSON with `//` and `/* */` comments (Gemini CLI strips them first); None when unreadable."""
    out, i, n, quoted = [], 0, len(text), False
    while i < n:
        c = text[i]
        if quoted:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
            out.append(c)
        elif text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
            continue
        else:
            out.append(c)
        i += 1
    try:
        return json.loads("".join(out) or "{}")
    except (ValueError, RecursionError):  # a file nested past Python's depth reads as broken, never a traceback
        return None


def json_object(full: str) -> dict:
    """A JSON file of yours as an object ({} when absent, broken or not an object)."""
    text = read_text(full)
    data = json_value(text) if text is not None else None
    return data if isinstance(data, dict) else {}


def read_user(home: str, files: list[str], folders: list[str], base: str | None = None,
              suffixes: tuple[str, ...] = (".md",), top: bool = False, skip: tuple[str, ...] = (),
              links: bool = True) -> list[tuple[str, str]]:
    """(shown as ~/... when under home, else in full; text) of each of `files` and of the files
    ending in one of `suffixes` in `folders` (`top`: their own, not their subfolders'; suffixes
    other than the default `.md` match in any case, as Cline's; `skip`: file names left out; `links`
    False: a folder's linked files left out), relative to `base` (home when None)."""
    base = home if base is None else base
    out = []
    for rel in files:
        full = os.path.join(base, rel)
        text = _read(full)
        if text is not None:
            out.append((shown_path(home, full), text))
    for folder in folders:
        found = []
        for dirpath, dirnames, filenames in os.walk(os.path.join(base, folder)):
            dirnames[:] = [] if top else sorted(dirnames)
            found += [os.path.join(dirpath, n) for n in filenames
                      if (n if suffixes == (".md",) else n.lower()).endswith(suffixes) and n not in skip
                      and (links or not os.path.islink(os.path.join(dirpath, n)))]
        for full in sorted(found):
            text = _read(full)
            if text is not None:
                out.append((shown_path(home, full), text))
    return out


def gemini_project_slug(home: str, root: str, place: dict) -> str | None:
    """The folder name Gemini CLI's `~/.gemini/projects.json` gives this repository; None when it
    gives none, or one that is not letters, digits and hyphens (a name that could leave the folder)."""
    import re

    projects = json_object(os.path.join(home, place["registry"])).get("projects")
    slug = projects.get(os.path.abspath(root)) if isinstance(projects, dict) else None
    return slug if isinstance(slug, str) and re.fullmatch(r"[a-z0-9-]+", slug) else None


def home_rel(b, base: str | None, default: str) -> str | None:
    """A folder under home as `read_user` takes it (`$CODEX_HOME` may move it; None: elsewhere)."""
    if not base:
        return default
    try:
        return os.path.relpath(base, b.home)
    except ValueError:
        return None


def shown_path(home: str, full: str) -> str:
    """`~/rel` for a path under home, else the path itself (forward slashes)."""
    try:
        rel = os.path.relpath(full, home)
    except ValueError:  # another drive (Windows)
        return full.replace(os.sep, "/")
    if rel == os.curdir or rel == os.pardir or rel.startswith(os.pardir + os.sep) or os.path.isabs(rel):
        return full.replace(os.sep, "/")
    return "~/" + rel.replace(os.sep, "/")


def moved_claude_dir(home: str, env: dict, variable: str) -> str | None:
    """The folder `$CLAUDE_CONFIG_DIR` names (`~` read from home; of a comma-separated list, which
    curator's transcript search takes, the first), None when it is unset, relative (the agent
    reads it from its own working folder, which curator does not know) or is ~/.claude itself
    (also through a link)."""
    given = from_home((env.get(variable) or "").split(",")[0].strip(), home)
    if not given or not os.path.isabs(given):
        return None
    full = os.path.normpath(given)
    default = os.path.normpath(os.path.join(home, ".claude"))
    try:
        same = full == default or os.path.realpath(full) == os.path.realpath(default)
    except (OSError, ValueError):
        same = False
    return None if same else full


def claude_moved(b, rules) -> str | None:
    """Where this build's `$CLAUDE_CONFIG_DIR` moves ~/.claude (None: it does not)."""
    return moved_claude_dir(b.home, b.env, rules.value("config.dir")) if rules.has("config.dir") else None


def managed_place(b, places: dict) -> str:
    """A managed file's path on this OS: in `managed_dir` when the caller names one, else in
    `$CURATOR_MANAGED_DIR` (to see a policy before it is deployed; the tests set it so a machine's
    own policy never enters them)."""
    return managed_path(places, b.managed_dir or b.env.get(MANAGED_VARIABLE))


def claude_place(home: str, moved: str | None, rel: str) -> str:
    """A rule's `.claude/...` path under home, in the moved folder when there is one."""
    head, _, rest = rel.partition("/")
    return os.path.join(moved, rest) if moved and head == ".claude" else os.path.join(home, rel)


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


def _moved_probes(home: str, root: str, env: dict, index: str) -> list[str]:
    """The files a setting or a variable puts anywhere: the MEMORY.md of the folder your
    autoMemoryDirectory names, the file GEMINI_SYSTEM_MD names."""
    from pathlib import Path

    from ..model.auto_memory import auto_memory_folder

    out = []
    try:
        folder = auto_memory_folder(Path(root), env, Path(home))
    except (OSError, ValueError):
        folder = None
    if folder is not None:
        out.append(os.path.join(folder, index))
    from ..agents import rules_for

    form = rules_for("gemini").value("system.file", None)
    named = env.get(form["variable"], "").strip() if form else ""
    if named and named.lower() not in form["on"] + form["off"]:
        out.append(os.path.join(root, from_home(named, home)))  # an absolute path stays itself
    return out


def probes(home: str, root: str, env: dict, versions: dict[str, str] | None = None) -> list[str]:
    """Every user-level path the context model may read (files, and the files of the folders):
    what a kept `curator context` output depends on outside the repository."""

    from ..agents import rules_for
    from ..model.sources import claude_slug

    claude = rules_for("claude-code", (versions or {}).get("claude-code"))
    moved = moved_claude_dir(home, env, claude.value("config.dir")) if claude.has("config.dir") else None
    auto = claude.value("memory.auto", {"folder": ".claude/projects/<slug>/memory", "index": "MEMORY.md"})
    folders = [f for f in claude.value("user.files") if not f.endswith(".md")]
    out = [os.path.join(home, f) for f in claude.value("user.files")]
    if moved:
        out += [claude_place(home, moved, f) for f in claude.value("user.files")]
        folders += [claude_place(home, moved, f) for f in folders]
    slugged = root
    if claude.has("memory.auto-worktrees"):
        from pathlib import Path

        from ..base.worktree import main_checkout

        slugged = str(main_checkout(Path(root)))
    out.append(claude_place(home, moved, os.path.join(auto["folder"].replace("<slug>", claude_slug(slugged)),
                                                      auto["index"])))
    out += _moved_probes(home, root, env, auto["index"])
    settings = claude.value("settings.files")
    out.append(claude_place(home, moved, settings["user"]))
    out.append(managed_path(settings["managed"], env.get(MANAGED_VARIABLE)))
    if claude.has("managed.file"):
        out.append(managed_path(claude.value("managed.file"), env.get(MANAGED_VARIABLE)))
    out.append(claude_place(home, moved, claude.value("memory.subagents")["user"]))
    codex = rules_for("codex", (versions or {}).get("codex"))
    codex_home = env.get("CODEX_HOME") or os.path.join(home, ".codex")
    out += [os.path.join(codex_home, name) for name in codex.value("user.files")]
    out.append(os.path.join(codex_home, codex.value("memory.folder")))
    if codex.has("memory.version-2"):
        out.append(os.path.join(codex_home, codex.value("memory.version-2")))
    out.append(os.path.join(codex_home, "config.toml"))  # its names and cap move the AGENTS.md chain
    for f in codex.value("user.skills", ()):
        folders.append(f.replace("$CODEX_HOME", codex_home) if f.startswith("$CODEX_HOME") else os.path.join(home, f))
    out.append(os.path.join(home, rules_for("devin", (versions or {}).get("devin")).value("user.file")))
    out.append(os.path.join(home, rules_for("serena").value("memories.patterns")["global"]))
    cline = rules_for("cline", (versions or {}).get("cline"))
    folders += [os.path.join(home, f) for f in cline.value("user.folders")]
    out += [os.path.join(home, f) for f in cline.value("user.folders")]
    if cline.has("user.agents-md"):
        out.append(os.path.join(home, cline.value("user.agents-md")))
    out += _gemini_probes(home, root, rules_for("gemini", (versions or {}).get("gemini")))
    files, more = _other_agents_probes(home, versions or {}, env)
    out += files
    folders += more
    roo = os.path.join(home, rules_for("roo", (versions or {}).get("roo")).value("user.folder"))
    out.append(roo)  # a rules-{mode} folder added there changes what loads
    folders.append(roo)
    for folder in folders + [claude_place(home, moved, claude.value("memory.subagents")["user"])]:
        for dirpath, dirnames, filenames in os.walk(os.path.join(home, folder)):
            out += [os.path.join(dirpath, d) for d in dirnames] + [os.path.join(dirpath, n) for n in filenames]
    return out


def _other_agents_probes(home: str, versions: dict, env: dict) -> tuple[list[str], list[str]]:
    """(files, folders) of yours the other agents read: skills and steering folders, Copilot's
    personal instructions, Gemini's trust files and each extension's manifest and context."""
    from ..agents import rules_for

    files: list[str] = []
    folders: list[str] = []
    for agent in ("cursor", "kiro", "gemini", "copilot", "copilot-cli", "cline", "roo", "devin"):
        rules = rules_for(agent, versions.get(agent))
        for key in ("user.skills", "user.steering"):
            value = rules.value(key, ())
            for folder in (value,) if isinstance(value, str) else value:
                files.append(os.path.join(home, folder))
                folders.append(os.path.join(home, folder))
    copilot, gemini = rules_for("copilot", versions.get("copilot")), rules_for("gemini", versions.get("gemini"))
    files += [os.path.join(home, f) for f in copilot.value("user.files", ())]
    cli = rules_for("copilot-cli", versions.get("copilot-cli")).value("user.files")
    cli_home = env.get(cli["variable"]) or os.path.join(home, cli["home"])
    files.append(os.path.join(cli_home, cli["file"]))
    folders += [os.path.join(cli_home, cli["folder"]), os.path.join(cli_home, "skills")]
    if gemini.has("trust.folder"):
        files += [os.path.join(home, gemini.value("trust.folder")["file"]), os.path.join(home, ".gemini", "settings.json")]
    if gemini.has("extensions.folder"):  # each extension's manifest and default context file, not its whole tree
        ext = os.path.join(home, gemini.value("extensions.folder"))
        files.append(os.path.join(ext, "extension-enablement.json"))
        try:
            subs = sorted(os.listdir(ext))
        except OSError:
            subs = []
        files += [os.path.join(ext, sub, n) for sub in subs for n in ("gemini-extension.json", "GEMINI.md")]
    return files, folders


def _gemini_probes(home: str, root: str, rules) -> list[str]:
    """Your ~/.gemini/GEMINI.md, the project registry and the private project memory it names."""
    folder = os.path.join(home, rules.value("user.folder"))
    out = [os.path.join(folder, n) for n in rules.value("context.default-names")]
    if not rules.has("memory.project"):
        return out
    place = rules.value("memory.project")
    out.append(os.path.join(home, place["registry"]))
    slug = gemini_project_slug(home, root, place)
    if slug is not None:
        out.append(os.path.join(home, place["folder"], slug, place["memory"]))
    return out
