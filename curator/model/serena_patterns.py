"""Serena's `ignored_memory_patterns` and `read_only_memory_patterns` (the project's
`.serena/project.yml`, a list `project.local.yml` sets replacing it, and the user's
`~/.serena/serena_config.yml`, the lists added up): regular
expressions matched in full against a memory's name — its path under `memories/` without `.md`.

An ignored memory is one Serena never lists, reads or writes: curator does not load it (it is not
counted, checked or fixed). A read-only one is never written: plans leave it alone and
`apply_plan` refuses it. The rule: curator/agents/serena.py.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..agents import rules_for


@dataclass(slots=True)
class MemoryPatterns:
    ignored: tuple[str, ...] = ()
    read_only: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list)  # a pattern that is no regular expression, a bad file
    hidden: list[str] = field(default_factory=list)  # the store's files ignored at load (relative paths)
    _ignored: tuple[re.Pattern, ...] = ()
    _read_only: tuple[re.Pattern, ...] = ()

    @staticmethod
    def name(rel: str) -> str:
        return rel[:-3] if rel.endswith(".md") else rel

    def is_ignored(self, rel: str) -> bool:
        return any(p.fullmatch(self.name(rel)) for p in self._ignored)

    def is_read_only(self, rel: str) -> bool:
        return any(p.fullmatch(self.name(rel)) for p in self._read_only)

    def to_json(self) -> dict:
        return {"ignored": list(self.ignored), "read_only": list(self.read_only), "hidden": list(self.hidden)}


def project_config(serena_dir: Path, files: tuple[str, ...], notes: list[str]) -> tuple[dict, dict[str, str]]:
    """`project.yml` with `project.local.yml`'s keys laid over it (Serena's `ProjectConfig.load`:
    `dict.update`), and the file each key came from; what the patterns and the initial prompt
    both read (serena_activation.py)."""
    merged: dict = {}
    origin: dict[str, str] = {}
    for shown in files:
        data = settings(serena_dir / Path(shown).name, shown, notes)
        merged.update(data)
        origin.update({str(k): shown for k in data})
    return merged, origin


_READ: dict[tuple, tuple[dict, str]] = {}  # (path, mtime, size) → (its mapping, a note): read once a change


def settings(path: Path, shown: str, notes: list[str]) -> dict:
    """A Serena YAML settings file as a mapping ({} when absent, unreadable or not a mapping, with
    a note for the last two); one read while it is unchanged (a load and its start-up both ask)."""
    from ..base.safeio import read_small_file
    from ..base.safeyaml import load

    try:
        st = path.stat()
    except OSError:
        return {}
    key = (str(path), st.st_ino, st.st_mtime_ns, st.st_ctime_ns, st.st_size)
    if key not in _READ:
        data, note = {}, ""
        try:
            text = read_small_file(path).decode("utf-8", "replace")
        except FileNotFoundError:
            text = ""
        except Exception as exc:  # noqa: BLE001 - a link, a FIFO, too large: said, never fatal
            text, note = "", f"{shown}: cannot be read ({exc})"
        try:
            got = load(text) if text else {}
            data = got if isinstance(got, dict) else {}
        except Exception:  # noqa: BLE001 - not YAML, or aliases past the budget
            note = f"{shown} is not valid YAML: none of its settings are read"
        if len(_READ) > 64:
            _READ.clear()
        _READ[key] = (data, note)
    data, note = _READ[key]
    if note:
        notes.append(note)
    return data


def _strings(data: dict, key: str) -> list[str]:
    value = data.get(key) or []
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


def read_patterns(store_root: Path, env: dict | None = None) -> MemoryPatterns | None:
    """The patterns of the Serena store at `store_root` (`.serena/memories`), or None when it is
    not one or no pattern is set. The user's own config is not read when CI is set."""
    store_root = Path(store_root)
    if store_root.name != "memories" or store_root.parent.name != ".serena":
        return None
    env = dict(os.environ) if env is None else env
    keys = rules_for("serena").value("memories.patterns")
    notes: list[str] = []
    files = tuple(rules_for("serena").value("project.initial-prompt")["files"])  # project.yml, then project.local.yml
    project, _ = project_config(store_root.parent, files, notes)
    ignored, read_only = _strings(project, keys["ignored"]), _strings(project, keys["read-only"])
    home = env.get("HOME")
    if home and not env.get("CI", "").strip():
        user = settings(Path(home) / keys["global"], Path(keys["global"]).name, notes)
        ignored, read_only = _strings(user, keys["ignored"]) + ignored, _strings(user, keys["read-only"]) + read_only
    if not ignored and not read_only and not notes:
        return None
    out = MemoryPatterns(tuple(dict.fromkeys(ignored)), tuple(dict.fromkeys(read_only)), notes)
    out._ignored = _compile(out.ignored, notes)
    out._read_only = _compile(out.read_only, notes)
    return out


def _compile(patterns: tuple[str, ...], notes: list[str]) -> tuple[re.Pattern, ...]:
    out = []
    for p in patterns:
        why = runaway(p)
        if why:
            notes.append(f"memory pattern {p[:80]!r} is not applied: {why}, which can make matching run for ever")
            continue
        try:
            out.append(re.compile(p))
        except re.error as exc:
            notes.append(f"memory pattern {p!r} is not a regular expression ({exc}): Serena fails on it too")
    return tuple(out)


MAX_PATTERN = 300
MAX_OPEN_REPEATS = 2  # `*`, `+`, `{n,}`: three of them already cost a 255-character name ~10^7 steps


def runaway(pattern: str) -> str:
    """Why matching this regular expression (from a repository's `.serena/project.yml`) could
    backtrack for ever, or "": a repeat of a group that itself repeats or branches (`(a+)+`,
    `(a|ab)*`), more than MAX_OPEN_REPEATS unbounded repeats, or a very long pattern."""
    if len(pattern) > MAX_PATTERN:
        return f"it is longer than {MAX_PATTERN} characters"
    stack = [False]  # per open group: does it hold a repeat or a branch?
    opens, i = 0, 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":  # a class is one character: skip to its end
            j = i + 1 + (pattern[i + 1:i + 2] == "^")
            j += pattern[j:j + 1] == "]"
            end = pattern.find("]", j)
            i = len(pattern) if end < 0 else end + 1
            continue
        nxt = pattern[i + 1:i + 2]
        repeats = nxt in ("*", "+") or (nxt == "{" and re.match(r"\{\d*,\}", pattern[i + 1:]))
        if c == "(":
            stack.append(False)
        elif c == ")" and len(stack) > 1:
            inner = stack.pop()
            if repeats and inner:
                return "it repeats a group that itself repeats or branches"
            stack[-1] = stack[-1] or inner or bool(repeats)
        elif c == "|":
            stack[-1] = True
        if repeats:
            opens += 1
            stack[-1] = True
            if opens > MAX_OPEN_REPEATS:
                return f"it has more than {MAX_OPEN_REPEATS} unbounded repeats"
        i += 1
    return ""
