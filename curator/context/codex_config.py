"""What your Codex configuration changes in what it loads (`codex-rs/config`): your
`$CODEX_HOME/config.toml`, then the project's `.codex/config.toml` when you trust the project
(`[projects."<path>"] trust_level = "trusted"`). Two keys move the AGENTS.md chain:
`project_doc_fallback_filenames` (names tried after AGENTS.md in each folder) and
`project_doc_max_bytes` (the cap; 0 reads no project file). Read-only; not read when CI is set."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field

from .builder import Builder
from .user import read_text


@dataclass(slots=True)
class CodexConfig:
    names: tuple[str, ...]  # per folder, the first that exists wins
    cap: int
    notes: list[str] = field(default_factory=list)


def _toml(path: str, notes: list[str], shown: str) -> dict:
    text = read_text(path)
    if text is None:
        return {}
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        notes.append(f"{shown} is not valid TOML ({exc}): Codex refuses to start with it, curator reads none of it")
        return {}
    return data


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
    user = _toml(os.path.join(b.home, folder, "config.toml"), out.notes, f"~/{folder}/config.toml")
    layers = [(user, f"~/{folder}/config.toml")]
    projects = user.get("projects")
    here = os.path.realpath(b.fs.root)
    trust = projects.get(here, projects.get(b.fs.root)) if isinstance(projects, dict) else None
    project_file = os.path.join(b.fs.root, ".codex", "config.toml")
    if os.path.isfile(project_file):
        if isinstance(trust, dict) and trust.get("trust_level") == "trusted":
            layers.append((_toml(project_file, out.notes, ".codex/config.toml"), ".codex/config.toml"))
        else:
            out.notes.append(".codex/config.toml is read only in a project you trust (not this one, in your Codex "
                             "config): its settings do not apply")
    for data, shown in layers:
        extra = data.get("project_doc_fallback_filenames")
        if isinstance(extra, list) and all(isinstance(n, str) for n in extra):
            out.names = tuple(dict.fromkeys([*names, *(n for n in extra if n.strip())]))
            out.notes.append(f"{shown}: project_doc_fallback_filenames adds {', '.join(extra) or 'nothing'}")
        limit = data.get("project_doc_max_bytes")
        if isinstance(limit, int) and not isinstance(limit, bool) and limit >= 0:
            out.cap = limit
            out.notes.append(f"{shown}: project_doc_max_bytes is {limit:,}" +
                             (" (no project AGENTS.md is read)" if limit == 0 else ""))
    return out
