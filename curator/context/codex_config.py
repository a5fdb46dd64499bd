"""What your Codex configuration changes in what it loads (`codex-rs/config`): your
`$CODEX_HOME/config.toml`, then the project's `.codex/config.toml` when you trust the project
(`[projects."<path>"] trust_level = "trusted"`). Two keys move the AGENTS.md chain:
`project_doc_fallback_filenames` (names tried after AGENTS.md in each folder) and
`project_doc_max_bytes` (the cap; 0 reads no project file). Read-only; not read when CI is set."""

from __future__ import annotations

import os
import posixpath
import tomllib
from dataclasses import dataclass, field

from .builder import Builder
from .user import read_text


@dataclass(slots=True)
class CodexConfig:
    names: tuple[str, ...]  # per folder, the first that exists wins
    cap: int
    notes: list[str] = field(default_factory=list)
    untrusted: str = ""  # why no project file is read: you marked the project untrusted (project.trust)
    hooks: list[tuple[str, str, str]] = field(default_factory=list)  # (event, command, where) printing into the context
    memories: str = ""  # your memories folder when your config picks another (`[memories] version = "v2"`)


def _toml(path: str, notes: list[str], shown: str) -> dict:
    text = read_text(path)
    return {} if text is None else _parse(text, notes, shown)


def _parse(text: str, notes: list[str], shown: str) -> dict:
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as exc:  # nesting past Python's depth: broken, no traceback
        notes.append(f"{shown} is not valid TOML ({exc}): Codex refuses to start with it, curator reads none of it")
        return {}


def _utf8(b: Builder, rel: str, notes: list[str], outcome: str):
    """A settings file's text; None with a note where Codex reads none of it (Rust reads it as UTF-8
    or not at all; unlike an instruction file, no U+FFFD stands in)."""
    from .fs import Text

    got = b.fs.read(rel)
    if not isinstance(got, Text):
        b.text(rel)  # its one finding (unreadable, a link out of the repository)
        return None
    if got.bad is not None:
        notes.append(f"{rel} is not UTF-8 (byte {got.bad}): {outcome}")
        return None
    return got


def codex_config(b: Builder) -> CodexConfig:
    rules = b.rules_of("codex")
    names, cap = tuple(rules.value("project.names")), int(rules.value("project.max-bytes"))
    out = CodexConfig(names, cap)
    if b.ci or not rules.has("config.file"):
        return out
    from .user import home_rel

    folder = home_rel(b, b.env.get("CODEX_HOME"), ".codex")
    if folder is None:
        return out
    from .user import shown_path

    user_file = os.path.join(b.home, folder, "config.toml")
    shown = shown_path(b.home, user_file)
    user = _toml(user_file, out.notes, shown)
    layers = [(user, shown)]
    memories = user.get("memories")
    if rules.has("memory.version-2") and isinstance(memories, dict) and memories.get("version") == "v2":
        out.memories = rules.value("memory.version-2")
    projects = user.get("projects")
    here = os.path.realpath(b.fs.root)
    trust = projects.get(here, projects.get(b.fs.root)) if isinstance(projects, dict) else None
    level = trust.get("trust_level") if isinstance(trust, dict) else None
    if rules.has("project.trust") and level == rules.value("project.trust"):
        out.untrusted = f"you marked this project untrusted in {shown}: Codex reads no project AGENTS.md"
    project = ".codex/config.toml"
    trusted = isinstance(trust, dict) and trust.get("trust_level") == "trusted"
    if project in b.fs.fileset:  # read through the repository's walk: recorded, and never through a link out
        got = _utf8(b, project, out.notes, "Codex refuses to start with it")
        if got is not None and trusted:
            layers.append((_parse(got.text, out.notes, project), project))
        elif got is not None:
            why = f"{shown} marks none" if not os.path.isfile(user_file) else f"{shown} does not mark this one"
            out.notes.append(f"{project} is read only in a project you trust ({why}): its settings do not apply")
    _hooks(b, out, rules, layers, os.path.join(b.home, folder), trusted)
    said: dict[str, str] = {}  # per key, what the layer that wins says
    for data, shown in layers:
        extra = data.get("project_doc_fallback_filenames")
        if isinstance(extra, list) and all(isinstance(n, str) for n in extra):
            kept, paths = _fallback_names(rules, extra)
            out.names = tuple(dict.fromkeys([*names, *(n for n in kept if n not in paths)]))
            said["names"] = (f"{shown}: project_doc_fallback_filenames adds "
                             f"{', '.join(n for n in kept if n not in paths) or 'nothing'}"
                             + (f" ({', '.join(paths)}: a path, not a name, ignored)" if paths else ""))
        elif extra is not None:
            said["names"] = f"{shown}: project_doc_fallback_filenames is not a list of names: Codex refuses to start"
        limit = data.get("project_doc_max_bytes")
        if isinstance(limit, int) and not isinstance(limit, bool) and limit >= 0:
            out.cap = limit
            said["cap"] = f"{shown}: project_doc_max_bytes is {limit:,}" + (
                " (no project AGENTS.md is read)" if limit == 0 else "")
        elif limit is not None:
            said["cap"] = f"{shown}: project_doc_max_bytes = {limit!r} is not a byte count: Codex refuses to start"
    out.notes += said.values()
    return out


def _fallback_names(rules, extra: list[str]) -> tuple[list[str], list[str]]:
    """(the names as Codex reads them, the paths among them it ignores): trimmed; since 0.156.0 a
    path is ignored; before, it is joined to each folder (`./DOT.md` is `DOT.md`; one leaving the
    folder names no file of it)."""
    kept = [n.strip() for n in extra if n.strip()]
    if rules.has("config.fallback-names"):
        return kept, [n for n in kept if n in (".", "..") or "/" in n or "\0" in n]
    return [p for p in (posixpath.normpath(n) for n in kept) if not p.startswith(("../", "/")) and p != ".."], []


def _hooks(b: Builder, out: CodexConfig, rules, layers: list[tuple[dict, str]], home_folder: str,
           trusted: bool) -> None:
    """The hooks that print into the context (`hooks.context`): `[hooks]` of each config layer read
    and the `hooks.json` beside it — yours, and a trusted project's `.codex/hooks.json`."""
    if not rules.has("hooks.context"):
        return
    import json

    from .claude_hooks import commands
    from .user import shown_path

    form = rules.value("hooks.context")
    found = list(layers)
    user_json = os.path.join(home_folder, form["file"])
    project_json = f".codex/{form['file']}"
    got = _utf8(b, project_json, out.notes, "Codex loads none of its hooks") if project_json in b.fs.fileset else None
    for raw, where in ((read_text(user_json), shown_path(b.home, user_json)), (got.text if got else None, project_json)):
        if raw is None:
            continue
        if where == project_json and not trusted:
            out.notes.append(f"{project_json} holds hooks Codex runs only in a project you trust (this one is not marked trusted)")
            continue
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            out.notes.append(f"{where} is not valid JSON: Codex loads none of its hooks")
            continue
        found.append((data if isinstance(data, dict) else {}, where))
    for data, shown in found:
        out.hooks += [(event, cmd, shown) for event, cmd in commands(data, form)]
