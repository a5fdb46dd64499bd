"""`@path` imports (Claude Code and Gemini CLI) and whether Claude Code's start-up chain imports a
memory store's always-loaded index.

An imported `MEMORY.md` loads whole, with no 200-line cap (the cap is auto memory's), so a
store's start-up load (`budgets.startup.startup_of`) and the `budget.past-cap` check ask
`startup_import(store)` — the answer the context model (`curator.context`) gives for the
importing file's entry, from the same rules (`curator.agents`: the start-up files, `AGENTS.md`
where no CLAUDE.md is, the hops); the repository's Claude Code settings (`claudeMdExcludes`,
`instructionFiles`) are the context model's alone (tests/unit/checks/test_imported_memory.py
compares the two). The parsers are pure and total: hostile text gives no import, never an
exception.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

_TRAILING = ".,;:!?)]}>'\"*_"
_EXT = re.compile(r"\.[A-Za-z][A-Za-z0-9_-]{0,9}$")

_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_SPAN = re.compile(r"(`+)(?:(?!\1).)*?\1")  # an inline code span (same-length backtick runs)
_IMPORT = re.compile(r"(?:^|(?<=\s))@((?:[^\s\\`]|\\ )+)")


@dataclass(frozen=True, slots=True)
class Ref:
    line: int  # 1-based
    raw: str  # as written (without the `@`)
    path: str  # trailing punctuation stripped, `\ ` unescaped
    pathlike: bool  # unmistakably meant as a file (see `is_pathlike`)


def is_pathlike(p: str) -> bool:
    """A token people write only for a file: `./x`, `../x`, `~/x`, `/x`, or a name with a file
    extension (`AGENTS.md`, `docs/a.md`). `@scope/package`, `@user`, `@v1.2` are not."""
    if p.startswith(("./", "../", "~/", "/")):
        return len(p) > 2
    last = p.rsplit("/", 1)[-1]
    return bool(_EXT.search(last)) and not last.startswith(".") or last in (".cursorrules", ".clinerules")


def code_free_lines(text: str):
    """(line number, line) of every line outside fenced code blocks, code spans blanked."""
    fence: str | None = None
    for no, line in enumerate(text.splitlines(), 1):
        m = _FENCE.match(line)
        if fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not line.strip()[len(m.group(1)):].strip():
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        if line.startswith(("    ", "\t")) and not line.lstrip().startswith(("-", "*", "@")):
            continue  # an indented code block (list continuations aside)
        if "`" in line:
            line = _SPAN.sub(lambda s: " " * len(s.group(0)), line)
        yield no, line


def find_imports(text: str) -> list[Ref]:
    """Every `@path` outside code (Claude Code and Gemini CLI imports)."""
    out: list[Ref] = []
    if "@" not in text:
        return out
    for no, line in code_free_lines(text):
        if "@" not in line:
            continue
        for m in _IMPORT.finditer(line):
            raw = m.group(1)
            path = raw.replace("\\ ", " ").rstrip(_TRAILING)
            if "#" in path and not path.startswith("#"):
                path = path.split("#", 1)[0]
            if not path or path.startswith("@"):
                continue
            out.append(Ref(no, raw, path, is_pathlike(path)))
    return out


def startup_import(store) -> str | None:
    """Where Claude Code's start-up chain imports the store's always-loaded index ("CLAUDE.md:4",
    the importing line), or None: not imported (or no repository, no index). Kept as a view of
    the snapshot: it reads files outside the store, which a memory edit does not change."""
    if store.l0 is None:
        return None
    return store_file_import(store, store.l0.path)


def store_file_import(store, rel: str) -> str | None:
    """Where Claude Code's start-up chain imports the store's file `rel`, or None (a view)."""

    def build() -> str | None:
        from ..base.paths import store_repository

        repo = store_repository(store.root, store.repo_root, store.format)
        return claude_import_of(repo, Path(store.root) / rel) if repo is not None else None

    return store.view(f"startup-import:{rel}", build, reads=frozenset())


def claude_import_of(repo: Path | str, target: Path | str, version: str | None = None) -> str | None:
    """The importing line ("CLAUDE.md:4") through which Claude Code (at `version`, default the
    current one) loads `target` at start-up: the repository's start-up files (CLAUDE.md,
    .claude/CLAUDE.md, CLAUDE.local.md; where none is, AGENTS.md and .claude/AGENTS.md), then
    what they import (relative to the importing file, outside code, depth first, each file once,
    at most the rules' hops deep, never out of the repository). None when `target` is not reached."""
    from ..agents import rules_for
    from ..base.paths import is_within
    from ..base.safeio import read_small_file

    rules = rules_for("claude-code", version)
    hops = rules.value("imports.max-hops")
    starts = [rel for rel in rules.value("project.files") if os.path.isfile(os.path.join(repo, rel))]
    if not starts and rules.has("agents-md.fallback"):
        starts = [rel for rel in rules.value("agents-md.fallback") if os.path.isfile(os.path.join(repo, rel))]

    root = os.path.realpath(repo)
    want = os.path.realpath(target)
    seen: set[str] = set()

    def walk(rel: str, depth: int, chain: tuple[str, ...]) -> str | None:
        real = os.path.realpath(os.path.join(root, rel))
        if real in seen or not is_within(real, root) or not os.path.isfile(real):
            return None
        seen.add(real)
        try:
            text = read_small_file(Path(real)).decode("utf-8", "replace")
        except (OSError, ValueError):
            return None
        for ref in find_imports(text):
            p = ref.path
            if p.startswith("~"):
                continue
            if os.path.isabs(p):
                full = os.path.normpath(p)
                if not is_within(full, root) or full == root:
                    continue
                nxt = os.path.relpath(full, root).replace(os.sep, "/")
            else:
                base = rel.rsplit("/", 1)[0] if "/" in rel else ""
                nxt = os.path.normpath(os.path.join(base, p)).replace(os.sep, "/")
                if nxt == ".." or nxt.startswith("../"):
                    continue
            if depth + 1 > hops:
                continue
            real_next = os.path.realpath(os.path.join(root, nxt))
            if real_next in chain:
                continue
            if real_next == want and os.path.isfile(real_next):
                return f"{rel}:{ref.line}"
            found = walk(nxt, depth + 1, chain + (real_next,))
            if found:
                return found
        return None

    for rel in starts:
        got = walk(rel, 0, (os.path.realpath(os.path.join(root, rel)),))
        if got:
            return got
    return None
