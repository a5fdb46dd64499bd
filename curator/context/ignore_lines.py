"""Claude Code's `paths:` as it matches them (rules and conditional skills): it splits each glob
at commas, expands braces, drops a trailing `/**`, and matches the list as .gitignore lines with
its own rewrite of the `ignore` package (case-insensitive), read in the code of 2.1.332. So the
lines count in order, a `!` line takes back what an earlier line matched, and a file inside a
folder a line matches cannot be taken back: `src/**` is read as `src`, the folder, and
`!src/gen/**` after it takes back nothing. Checked against that matcher, taken out of the bundle
and run in node, by a differential fuzzer (research/fuzz20.md) and tests/unit/context/
test_ignore_lines.py; left out: repeated `**/**` runs, unclosed `[`."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from ..base.globs import compile_glob

EVERYTHING = re.compile("")
Line = tuple[bool, re.Pattern, bool, bool]  # (a `!` line, the pattern, folders only, the name alone)


def claude_lines(globs: Iterable[str]) -> tuple[str, ...]:
    """The globs as Claude Code hands them on (its `ra` and `vAi`): each split at commas outside
    braces and trimmed, braces expanded, `src/**` → `src`, empty ones dropped."""
    out: list[str] = []
    for glob in globs:
        for piece in _commas(glob):
            for g in _braces(piece):
                g = g[:-3] if g.endswith("/**") else g
                if g:
                    out.append(g)
    return tuple(out)


def _commas(glob: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for c in glob:
        depth += (c == "{") - (c == "}")
        if c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    return [p for p in [*out, cur.strip()] if p]


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
    """Each line as `ignore` reads it: trailing spaces off, a `!` negates, `\\!` and `\\#` are
    the characters, one leading `/` anchors and one trailing `/` means folders only; a line with
    no `/` is matched against the name alone; `**` crosses folders only as a whole part (`a**b` is
    `a*b`, `***` is `**`); whatever the case (`ignore()`'s default)."""
    out = []
    for raw in lines:
        g = raw.rstrip(" ")
        if not g or g.startswith("#"):
            continue  # a comment or a blank line, as .gitignore reads them
        negated = g.startswith("!")
        g = g[1:] if negated else g
        if re.search(r"(?<!\\)\\\*$", g):
            g = g[:-2] + "*"  # Claude Code's matcher reads `\*` ending a line as a star
        g = _unescaped(g)
        if negated and not g:
            out.append((True, EVERYTHING, False, False))  # a lone `!`: Claude Code's matcher takes back all
            continue
        folders = g.endswith("/")
        g = g[:-1] if folders else g
        anchored = "/" in g  # a line with a `/` (a leading one too) is read from the top; else the name
        if folders and (g in ("**", "/**") or g.endswith("/**")):
            # Claude Code's matcher lets a last `/**/` be no folder: `src/**/` holds `src` itself,
            # `**/` and `/**/` every folder
            g = g[:-3] if g.endswith("/**") and len(g) > 3 else "**"
        g = g[1:] if g.startswith("/") else g
        if not g:
            continue
        g = "/".join(part if part == "**" else re.sub(r"\*{2,}", "*", part) for part in g.split("/")).lower()
        g = re.sub(r"\[([!^])([^\]/]+)\]", r"[\2\1]", g)  # `[!a]`, `[^a]`: a class of two, not "not a", there
        out.append((negated, compile_glob(g, braces=False), folders, not anchored))
    return tuple(out)


def _unescaped(g: str) -> str:
    """`\\c` is the character c (`\\!a` the name `!a`, `x\\*` a star): a wildcard so escaped becomes a
    one-character class."""
    out, i = [], 0
    while i < len(g):
        c = g[i]
        if c == "\\" and i + 1 < len(g):
            i += 1
            c = g[i]
            out.append(f"[{c}]" if c in "*?[" else c)
        else:
            out.append(c)
        i += 1
    return "".join(out)


MAX_LINES = 64  # a longer list (braces multiplied out) is matched as plain globs: bounded, never slow


def ignores(globs: Sequence[str], rel: str) -> bool:
    """`ignore().add(claude_lines(globs)).ignores(rel)`: each folder above `rel` first (one the
    lines match holds everything below it), then `rel`; the last line that matches decides."""
    expanded = _expanded(tuple(globs))
    if expanded is None:  # a huge list: any line matching, no `!` line matching (bounded, near enough)
        from .parse import matches

        written = [g for g in globs if g.strip()]
        return any(matches(g, rel) for g in written if not g.startswith("!")) and \
            not any(matches(g[1:], rel) for g in written if g.startswith("!"))
    parts = rel.strip("/").lower().split("/")
    folder = "/".join(parts[:-1])
    return (bool(folder) and _folder_held(expanded, folder)) or _matched(_compiled(expanded), rel.strip("/").lower(),
                                                                      parts[-1], False)


_OWN: dict[tuple[tuple[str, ...], str], bool] = {}  # (lines, folder) → does a line match that folder itself
MAX_KEPT = 65536


def _folder_held(lines: tuple[str, ...], folder: str) -> bool:
    """Does a line hold this folder, or one above it (so everything in it)? Each folder's own
    answer is kept: the files of one folder, and the folders below it, ask once."""
    compiled = _compiled(lines)
    parts = folder.split("/")
    for i in range(1, len(parts) + 1):
        key = (lines, "/".join(parts[:i]))
        own = _OWN.get(key)
        if own is None:
            own = _matched(compiled, key[1], parts[i - 1], True)
            if len(_OWN) >= MAX_KEPT:
                _OWN.clear()
            _OWN[key] = own
        if own:
            return True
    return False


def _matched(lines: tuple[Line, ...], path: str, name: str, folder: bool) -> bool:
    """The last line that matches `path` (its `name` for a line with no `/`) decides."""
    state = False
    for negated, rx, folders_only, name_only in lines:
        if negated != state or (folders_only and not folder):
            continue  # a line of the state's own sign cannot change it
        if rx.match(name if name_only else path):
            state = not negated
    return state


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
