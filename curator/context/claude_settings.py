"""The Claude Code settings that change which instruction files load: the built-in agents-md
plugin's `instructionFiles` (and its first name, `projectInstructions`) and `claudeMdExcludes`.

Read from the user's `~/.claude/settings.json` and the managed settings (both off when CI is
set, like every file outside the repository), the project's `.claude/settings.json` and the local
`.claude/settings.local.json`. Which of them count is the rules' business (`agents-md.setting-scopes`):
a value set where Claude Code ignores it is shown as ignored, never applied.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

from ..agents import RuleSet
from .builder import Builder
from .parse import path_matches

SCOPES = ("managed", "local", "project", "user")  # highest first


@dataclass(slots=True)
class ClaudeSettings:
    mode: str  # the instructionFiles value that applies ("claude-md" before AGENTS.md support)
    mode_from: str = "default"  # default | user | managed | (the version has no such setting)
    mode_rule: str = ""
    ignored: list[tuple[str, str]] = field(default_factory=list)  # (scope, value) set where it does not count
    excludes: list[tuple[str, str]] = field(default_factory=list)  # (scope, glob)
    excludes_rule: str = ""
    notes: list[str] = field(default_factory=list)
    root: str = ""
    auto_enabled: tuple[bool, str] | None = None  # autoMemoryEnabled, where it is set (the highest scope)
    auto_dir: tuple[str, str] | None = None  # autoMemoryDirectory, where it is set (a scope that counts)
    hooks: list[tuple[str, str, str]] = field(default_factory=list)  # (event, command, file) printing into the context
    skill_overrides: dict[str, tuple[str, str]] = field(default_factory=dict)  # skill name -> (value, where set)
    output_style: tuple[str, str] | None = None  # outputStyle, where it is set (the highest scope)

    def excluded(self, rel: str) -> str | None:
        """The `claudeMdExcludes` glob that takes `rel` out of the walk (None: it stays)."""
        full = os.path.join(self.root, rel).replace(os.sep, "/")
        for _, glob in self.excludes:
            if path_matches(glob, full):
                return glob
        return None

    @property
    def reads_agents_md(self) -> bool:
        return self.mode in ("claude-md-or-agents-md", "claude-md-and-agents-md")

    def to_json(self) -> dict:
        out: dict = {"instructionFiles": {"value": self.mode, "from": self.mode_from, "rule": self.mode_rule}}
        if self.ignored:
            out["instructionFiles"]["ignored"] = [{"scope": s, "value": v} for s, v in self.ignored]
        if self.excludes:
            out["claudeMdExcludes"] = [{"scope": s, "glob": g} for s, g in self.excludes]
        return out


def _load(b: Builder, scope: str, files: dict) -> tuple[dict | None, str]:
    """The settings of one scope (None when absent) and where they were read."""
    if scope in ("project", "local"):
        rel = files[scope]
        got = b.fs.read(rel)
        return (_parse(got.text) if hasattr(got, "text") else None), rel
    if b.ci:
        return None, ""
    if scope == "user":
        from .user import claude_moved, claude_place, shown_path

        path = claude_place(b.home, claude_moved(b, b.rules_of("claude-code")), files["user"])
        shown = shown_path(b.home, path)
    else:
        from .user import managed_place

        path = managed_place(b, files["managed"])
        shown = path.replace(os.sep, "/")
    from .user import read_text

    text = read_text(path)
    return (_parse(text) if text is not None else None), shown


def _parse(text: str) -> dict | None:
    if not text.strip():
        return None  # an empty file sets nothing
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # nested past Python's depth: broken, never a traceback
        return {"__error__": "not valid JSON"}
    return data if isinstance(data, dict) else {"__error__": "not a JSON object"}


def _mode_in(data: dict, setting: dict, legacy: dict | None) -> str | None:
    """The instructionFiles value a settings file sets (its first name mapped), or None."""
    plugin = (data.get("pluginConfigs") or {}).get(setting["plugin"]) if isinstance(data.get("pluginConfigs"), dict) \
        else None
    options = plugin.get("options") if isinstance(plugin, dict) else None
    options = options if isinstance(options, dict) else {}
    value = options.get(setting["option"])
    if isinstance(value, str) and value in setting["values"] and value != setting["default"]:
        return value
    if legacy is not None:  # counts while instructionFiles is unset or the default
        old = options.get(legacy["key"], data.get(legacy["key"]))
        if isinstance(old, str):
            mapped = legacy["map"].get(old, old if old in setting["values"] else None)
            if mapped:
                return mapped
    return value if isinstance(value, str) else None


def _auto_memory(out: ClaudeSettings, rules: RuleSet, scope: str, shown: str, data: dict) -> None:
    """autoMemoryEnabled (any scope) and autoMemoryDirectory (not the project's), the highest
    scope that sets each winning."""
    switch = rules.value("memory.auto-switch", None)
    if switch and isinstance(data.get(switch["setting"]), bool) and out.auto_enabled is None:
        out.auto_enabled = (data[switch["setting"]], shown)
    moved = rules.value("memory.auto-directory", None)
    value = data.get(moved["setting"]) if moved else None
    if not isinstance(value, str) or not value.strip():
        return
    if scope not in moved["scopes"]:
        out.notes.append(f"{shown} sets autoMemoryDirectory, but Claude Code ignores it in project settings "
                         "(only your user or local settings, or managed settings, count)")
    elif out.auto_dir is None:
        out.auto_dir = (value.strip(), shown)


def _skill_overrides(out: ClaudeSettings, rules: RuleSet, shown: str, data: dict) -> None:
    """`skillOverrides` (since 2.1.129): per skill, the highest scope that sets it (managed first)."""
    spec = rules.value("skills.overrides", None)
    given = data.get(spec["setting"]) if spec else None
    if not isinstance(given, dict):
        return
    for name, value in given.items():
        if isinstance(name, str) and value in spec["values"] and name not in out.skill_overrides:
            out.skill_overrides[name] = (value, shown)


def read(b: Builder, rules: RuleSet) -> ClaudeSettings:
    files = rules.value("settings.files")
    out = ClaudeSettings("claude-md", mode_from="this version has no AGENTS.md support", root=b.fs.root)
    setting = rules.value("agents-md.setting", None)
    legacy = rules.value("agents-md.legacy-setting", None)
    scopes = rules.value("agents-md.setting-scopes", ())
    if setting is not None:
        out.mode, out.mode_from, out.mode_rule = setting["default"], "default", rules.id("agents-md.setting")
    key = rules.value("excludes.setting")
    out.excludes_rule = rules.id("excludes.setting")
    for scope in SCOPES:
        data, shown = _load(b, scope, files)
        if data is None:
            continue
        if "__error__" in data:
            out.notes.append(f"{shown} is {data['__error__']}: Claude Code cannot read its settings")
            continue
        _auto_memory(out, rules, scope, shown, data)
        _skill_overrides(out, rules, shown, data)
        style = data.get(rules.value("output-styles.folder")["setting"]) if rules.has("output-styles.folder") else None
        if isinstance(style, str) and style.strip() and out.output_style is None:
            out.output_style = (style.strip(), shown)
        if rules.has("hooks.context"):
            from .claude_hooks import commands

            out.hooks += [(event, cmd, shown) for event, cmd in commands(data, rules.value("hooks.context"))]
        globs = data.get(key)
        if isinstance(globs, str):
            globs = [globs]
        if isinstance(globs, list):
            out.excludes += [(scope, g) for g in globs if isinstance(g, str) and g.strip()]
        if setting is None:
            continue
        value = _mode_in(data, setting, legacy)
        if value is None:
            continue
        if value not in setting["values"]:
            out.notes.append(f"{shown}: instructionFiles {value!r} is not one of {', '.join(setting['values'])}; "
                             "Claude Code keeps the default")
        elif scope not in scopes:
            out.ignored.append((scope, value))
            out.notes.append(f"{shown} sets instructionFiles {value}, but Claude Code ignores it in {scope} settings "
                             f"(only ~/.claude/settings.json, --settings or managed settings count)")
        elif out.mode_from == "default":  # the highest scope that sets it wins
            out.mode, out.mode_from = value, scope
    return out
