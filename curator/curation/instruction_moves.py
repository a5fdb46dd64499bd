"""The instruction fixes that move a file or add a line: a Cursor rule from `.md` to `.mdc`, a flat
skill into its folder (with a name and description drafted from it when it has none), a path
instruction into `.github/instructions/`, an `@AGENTS.md` import added after the line that names
it. Plain text helpers and the in-memory repository the gate models them in.
"""

from __future__ import annotations

import re

from ..context.fs import Problem, RepoFS, Text
from ..model.findings import Move
from .plan import FileEdit

_FENCE = re.compile(r"^-{3,}\s*$")


def moved_edits(fs: RepoFS, move: Move, text: str, notes: list[str]) -> list[FileEdit] | None:
    """The two edits of a move (the old path gone, the new one made); None with a note when the
    place is taken now or the file is read through a link."""
    old = fs.read(move.path)
    if not isinstance(old, Text) or old.real != move.path or move.path in fs.links:
        notes.append(f"{move.path}: not moved (read through a symbolic link or unreadable)")
        return None
    if fs.exists(move.new):
        notes.append(f"{move.path}: not moved ({move.new} exists)")
        return None
    new_text = text
    if move.new.endswith("/SKILL.md") and not _FENCE.match(text.split("\n", 1)[0]):
        new_text = skill_frontmatter(move.new, text) + text
    return [FileEdit(move.path, old.data, None), FileEdit(move.new, None, new_text.encode("utf-8"))]


def skill_frontmatter(new: str, text: str) -> str:
    """A `name`/`description` block drafted from a flat skill: the name from its folder, the
    description from its first sentence of prose (under a `Description` heading when there is one)."""
    name = re.sub(r"[^a-z0-9]+", "-", new.rsplit("/", 2)[-2].lower()).strip("-")
    desc = _first_sentence(text)
    out = f"---\nname: {name}\n"
    if desc:
        out += "description: " + _yaml_str(desc) + "\n"
    return out + "---\n\n"


def _first_sentence(text: str) -> str:
    lines = text.splitlines()
    start = next((i + 1 for i, ln in enumerate(lines) if re.match(r"^#+\s*description\b", ln.strip(), re.I)), 0)
    for ln in lines[start:]:
        s = ln.strip().lstrip("-*> ").strip()
        if s and not s.startswith(("#", "```", "|", "<")):
            s = re.split(r"(?<=[.!?。])\s", s, maxsplit=1)[0]
            return s[:300]
    return ""


def _yaml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def add_import(text: str, line: int, new: str) -> str | None:
    """`new` on a line of its own after `line` (0: at the top, after a frontmatter block and a
    leading `# Title`)."""
    lines = text.splitlines(keepends=True)
    eol = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
    if line > len(lines):
        return None
    if line == 0:
        at = 0
        if lines and _FENCE.match(lines[0].rstrip("\r\n")):
            at = next((i + 1 for i in range(1, len(lines)) if _FENCE.match(lines[i].rstrip("\r\n"))), 0)
        while at < len(lines) and not lines[at].strip():
            at += 1
        if at < len(lines) and lines[at].startswith("# "):
            at += 1
        block = [eol, new + eol] if at and lines[at - 1].strip() else [new + eol]
        lines[at:at] = block + ([eol] if at < len(lines) and lines[at].strip() else [])
    else:
        if lines and not lines[line - 1].endswith(("\n", "\r")):
            lines[line - 1] += eol
        lines[line:line] = [eol, new + eol] if lines[line - 1].strip() else [new + eol]
    return "".join(lines)


def with_edits(fs: RepoFS, edits: list[FileEdit]) -> RepoFS:
    """`fs` as it would be with `edits` made (files made, changed, gone): what the gate models."""
    for e in edits:
        if e.after is None:
            fs._texts[e.path] = Problem(e.path, "missing", "no such file")
            if e.path in fs.fileset:
                fs.files.remove(e.path)
        else:
            fs._texts[e.path] = Text(e.path, e.path, e.after, e.after.decode("utf-8"))
            if e.path not in fs.fileset:
                fs.files.append(e.path)
                parts = e.path.split("/")
                fs.dirs.update("/".join(parts[:i]) for i in range(1, len(parts)))
    fs.changed()
    return fs
