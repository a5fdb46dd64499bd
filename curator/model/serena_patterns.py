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


Lists = tuple[list[str] | None, list[str] | None]  # (ignored, read-only); None: the file does not set it


def _lists(path: Path, keys: dict, notes: list[str]) -> Lists:
    from ..base.safeio import read_small_file

    try:
        text = read_small_file(path).decode("utf-8", "replace")
    except FileNotFoundError:
        return None, None
    except Exception as exc:  # noqa: BLE001 - an odd file: said, never fatal
        notes.append(f"{path.name}: cannot be read ({exc})")
        return None, None
    if keys["ignored"] not in text and keys["read-only"] not in text:
        return None, None
    try:
        from ..base.safeyaml import load

        data = load(text)
    except Exception:  # noqa: BLE001 - not YAML, or aliases past the budget
        notes.append(f"{path.name} is not valid YAML: its memory patterns are not read")
        return None, None
    if not isinstance(data, dict):
        return None, None

    def strings(key: str) -> list[str] | None:
        if key not in data:
            return None
        value = data.get(key) or []
        return [str(v) for v in value] if isinstance(value, list) else [str(value)]

    return strings(keys["ignored"]), strings(keys["read-only"])


def read_patterns(store_root: Path, env: dict | None = None) -> MemoryPatterns | None:
    """The patterns of the Serena store at `store_root` (`.serena/memories`), or None when it is
    not one or no pattern is set. The user's own config is not read when CI is set."""
    store_root = Path(store_root)
    if store_root.name != "memories" or store_root.parent.name != ".serena":
        return None
    env = dict(os.environ) if env is None else env
    keys = rules_for("serena").value("memories.patterns")
    notes: list[str] = []
    # project.local.yml's keys replace project.yml's (Serena's ProjectConfig.load: `dict.update`)
    ig, ro = _lists(store_root.parent / Path(keys["project"]).name, keys, notes)
    local_ig, local_ro = _lists(store_root.parent / "project.local.yml", keys, notes)
    ignored = (local_ig if local_ig is not None else ig) or []
    read_only = (local_ro if local_ro is not None else ro) or []
    home = env.get("HOME")
    if home and not env.get("CI", "").strip():
        more_ignored, more_read_only = _lists(Path(home) / keys["global"], keys, notes)
        ignored, read_only = (more_ignored or []) + ignored, (more_read_only or []) + read_only
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
