"""Copilot's `applyTo` value as the agent reads it: one string of comma-separated globs (rules.py
reads loaded path instructions, placement.py misplaced ones; both say it the same way here)."""

from __future__ import annotations

from .builder import Builder


def key_line(text: str, key: str) -> int | None:
    """The line a frontmatter key is written on."""
    return next((i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith(f"{key}:")), None)


def not_a_string(b: Builder, rel: str, text: str, key: str, value, globs: list[str],
                 outcome: str = "these instructions never apply by themselves") -> bool:
    """`applyTo` as a YAML list or mapping: Copilot takes one string of comma-separated globs
    (VS Code marks anything else "must be a string" and applies nothing)."""
    if value is None or isinstance(value, str):
        return False
    kinds: dict[type, str] = {list: "a YAML list", dict: "a YAML mapping (an unquoted `{...}`)"}
    kind = kinds.get(type(value), "not text")
    write = f'{key}: "{", ".join(globs)}"' if globs else f'{key}: "<globs>"'
    b.add("instructions.frontmatter", rel, f"`{key}:` is {kind}, not a string: VS Code reads one string of "
          f"comma-separated globs (the Copilot CLI also takes a list, since 1.0.6), so {outcome} — write {write}",
          key_line(text, key))
    return True
