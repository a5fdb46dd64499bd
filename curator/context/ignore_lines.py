"""Claude Code's `paths:` as it matches them (rules and conditional skills): it expands braces,
drops a trailing `/**`, and hands the list to the `ignore` package as .gitignore lines
(`ignore().add(globs).ignores(path)`, read in the code of 2.1.332). So the lines count in order,
a `!` line takes back what an earlier line matched, and a file inside a folder a line matches
cannot be taken back: `src/**` is read as `src`, the folder, and `!src/gen/**` after it takes
back nothing. Checked against `ignore` 7 in node (tests/unit/context/test_ignore_lines.py)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from ..base.globs import compile_glob

Line = tuple[bool, re.Pattern, bool]  # (a `!` line, the pattern, folders only)


def claude_lines(globs: Iterable[str]) -> tuple[str, ...]:
    """The globs as Claude Code hands them on (its `vAi`): braces expanded, `src/**` → `src`."""
    out: list[str] = []
    for glob in globs:
        for g in _braces(glob):
            out.append(g[:-3] if g.endswith("/**") else g)
    return tuple(out)


def claude_paths(globs: Iterable[str]) -> list[str]:
    """The globs as written, or [] when Claude Code reads none: only `**` once braces are expanded
    and a trailing `/**` dropped (`paths: "**"`, `**/**`) is no `paths:` at all (loaded at start-up)."""
    written = [g for g in globs if g.strip()]
    return [] if all(line in ("**", "") for line in claude_lines(written)) else written


BRACE = re.compile(r"^([^{]*)\{([^}]+)\}(.*)$")
MAX_EXPANDED = 1000  # Claude Code's own bound on one list's expansion


def _braces(glob: str) -> list[str]:
    """Claude Code's expansion (`Eu`): the first `{a,b}` group at a time, its parts trimmed."""
    out: list[str] = []
    todo = [glob]
    while todo and len(out) + len(todo) <= MAX_EXPANDED:
        g = todo.pop()
        m = BRACE.match(g)
        if m is None:
            out.append(g)
            continue
        todo += [m.group(1) + part.strip() + m.group(3) for part in reversed(m.group(2).split(","))]
    return out


@lru_cache(maxsize=1024)
def _expanded(globs: tuple[str, ...]) -> tuple[str, ...] | None:
    lines = claude_lines(globs)
    return lines if len(lines) <= MAX_LINES else None


@lru_cache(maxsize=1024)
def _compiled(lines: tuple[str, ...]) -> tuple[Line, ...]:
    out = []
    for raw in lines:
        g = raw.strip()
        if not g or g.startswith("#"):
            continue  # a comment or a blank line, as .gitignore reads them
        negated = g.startswith("!")
        g = g[1:] if negated else g
        if g.startswith(("\\!", "\\#")):
            g = g[1:]
        folders = g.endswith("/")
        g = g.rstrip("/")
        if not g:
            continue
        anchored = "/" in g  # a line with a `/` (a leading one too) is read from the top; else at any depth
        g = g.lstrip("/")
        out.append((negated, compile_glob(g if anchored else "**/" + g, braces=False), folders))
    return tuple(out)


MAX_LINES = 64  # a longer list (braces multiplied out) is matched as plain globs: bounded, never slow


def ignores(globs: Sequence[str], rel: str) -> bool:
    """`ignore().add(claude_lines(globs)).ignores(rel)`: each folder above `rel` first (one the
    lines match holds everything below it), then `rel`; the last line that matches decides."""
    expanded = _expanded(tuple(globs))
    if expanded is None:
        from .parse import matches

        return any(matches(g, rel) for g in globs if not g.startswith("!"))
    lines = _compiled(expanded)
    parts = rel.strip("/").split("/")
    for i in range(1, len(parts) + 1):
        path, folder = "/".join(parts[:i]), i < len(parts)
        state = False
        for negated, rx, folders_only in lines:
            if negated != state or (folders_only and not folder):
                continue  # a line of the state's own sign cannot change it
            if rx.match(path):
                state = not negated
        if state:
            return True
    return False


def first_file(globs: Sequence[str], files: Iterable[str]) -> str | None:
    return next((f for f in files if ignores(globs, f)), None)


def dead_negations(globs: Sequence[str], files: Sequence[str]) -> list[str]:
    """The `!` lines (the first eight) that name files the rest of the list matches, yet take
    none of them back."""
    if _expanded(tuple(globs)) is None:
        return []
    out = []
    for k in [i for i, g in enumerate(globs) if g.startswith("!")][:8]:
        rest = [x for i, x in enumerate(globs) if i != k]
        named = [f for f in files if ignores([globs[k][1:]], f) and ignores(rest, f)]
        if named and all(ignores(globs, f) for f in named):
            out.append(globs[k])
    return out
