"""Fixes of instruction files (CLAUDE.md, .claude/rules, Cursor rules): planned from the typed
fixes the context model attaches to its findings, applied by the same journaled write path.

The root of the plan is the repository (its journal in `<repo>/.curator/`, git-ignored). What
may be written is narrow: a file the repository's walk listed, read through no symbolic link,
inside the root (`apply.swap` refuses anything else). Each file's edit is gated: the repository
with that one file changed is modelled again, and an edit that would add a finding is dropped
with a note (a re-pointed import that would close a cycle, make two copies drift...).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable

from ..base.trust import REPOSITORY
from ..context.build import build_context
from ..context.fs import RepoFS, Text
from ..context.parse import glob_list, read_meta
from ..model.findings import AddImport, Finding, Move, Reimport, Repath, RuleKeys, Unimport
from .instruction_moves import add_import, moved_edits, with_edits
from .plan import FileEdit, NothingToDo, Plan

FIXABLE = frozenset({"instructions.import-broken", "instructions.string-bool", "instructions.foreign-keys",
                     "instructions.missing-path", "instructions.misplaced", "instructions.cursor-md",
                     "instructions.redundant-import", "instructions.agents-md-unread"})


def plan_instruction_fixes(root, checks: set[str], *, only: set[tuple] | None = None, env: dict | None = None,
                           home: str | None = None) -> Plan:
    """The fixes of these instruction checks' findings in the repository at `root`, as one plan;
    `only`: just the findings of these `picked()` keys (the app's one finding under the cursor)."""
    fs = RepoFS.scan(root)
    model = build_context(root, fs=fs, count=False, env=env, home=home)
    before = {_key(f) for f in model.findings}
    asked = [f for f in model.findings if f.check in checks and (only is None or picked(f) in only)]
    notes = [f"{f.path}:{f.line or 1}: {f.message} (no automatic fix)" for f in asked if f.fix is None]
    by_file: dict[str, list[Finding]] = {}
    for f in asked:
        if f.fix is not None:
            by_file.setdefault(f.path, []).append(f)
    if not by_file:
        raise NothingToDo("no instruction finding of " + ", ".join(sorted(checks)) + " has a fix"
                          + (": " + "; ".join(notes[:3]) if notes else ""), "fix")
    edits: list[FileEdit] = []
    fixed = 0
    for rel, found in sorted(by_file.items()):
        t = fs.read(rel)
        if not isinstance(t, Text) or t.real != rel or rel in fs.links or t.bad is not None:
            notes.append(f"{rel}: not fixed (read through a symbolic link, unreadable or not UTF-8)")
            continue
        text = t.text
        moves = [f.fix for f in found if isinstance(f.fix, Move)]
        for f in sorted((f for f in found if not isinstance(f.fix, Move)), key=lambda f: -(f.line or 0)):
            changed = _apply(text, f.fix)
            if changed is None:
                notes.append(f"{rel}:{f.line or 1}: the text changed since it was checked; not fixed")
            else:
                text = changed
        after = text.encode("utf-8")
        mine = [FileEdit(rel, t.data, after)] if after != t.data else []
        if moves:
            moved = moved_edits(fs, moves[0], text, notes)
            if moved is None:
                continue
            mine = moved
        if not mine:
            continue
        added = _added(root, mine, before, env, home)
        made = {e.path for e in mine if e.before is None}
        if added and added.path in made:  # the moved file's own content, now where the agent reads it
            notes.append(f"{added.path} once moved: {added.check} ({added.message})")
        elif added:
            notes.append(f"dropped the fix of {rel}: it would add {added.check} ({added.message})")
            continue
        edits += mine
        fixed += len(found)
    plan = Plan("fix", f"fix {fixed} instruction finding(s)", edits, notes, kind=REPOSITORY)
    if plan.empty:
        raise NothingToDo("nothing to fix: " + "; ".join(notes[:3]), "fix")
    return plan


# agents' settings, not instructions: hooks and MCP servers in them run commands
SETTINGS_SUFFIXES = (".json", ".yaml", ".yml", ".toml")
NOT_INSTRUCTIONS = frozenset({".curator.yaml", ".roomodes"})


def instruction_files(root) -> Callable[[str], bool]:
    """Is a repository path one of its instruction files — where an agent looks for one
    (`context.watched.instruction_path`) or a file the context model read (an import) — and
    never an agent's settings? The repository journal may name only these (`trust.journal_path`);
    the model is built only when a path is not an agent's file by its place."""
    from ..context.watched import instruction_path

    read: set[str] | None = None

    def known(rel: str) -> bool:
        nonlocal read
        name = rel.rsplit("/", 1)[-1]
        if rel in NOT_INSTRUCTIONS or name.endswith(SETTINGS_SUFFIXES):
            return False
        if instruction_path(rel):
            return True
        if read is None:
            fs = RepoFS.scan(root)
            build_context(root, fs=fs, count=False)
            real = os.path.realpath(root)
            read = {os.path.relpath(p, real).replace(os.sep, "/") for p in fs.read_paths
                    if p.startswith(real.rstrip(os.sep) + os.sep)}
        return rel in read

    return known


def picked(f: Finding) -> tuple:
    """A finding as the app picks it: made again from the files on disk it is the same one."""
    return f.check, f.path, f.line, f.message


def _key(f: Finding) -> tuple:
    if f.check == "instructions.startup-budget":  # one per agent: its numbers and parts move with any edit
        return f.check, f.message.split(" load", 1)[0]
    return f.check, f.path, re.sub(r"\d+", "#", f.message)  # a line moved is not a new finding


def _added(root, edits: list[FileEdit], before: set, env, home) -> Finding | None:
    """The first finding the repository would gain with these edits made (None: none); one on a
    file the edits make comes last (a moved file's own finding, revealed where it now loads)."""
    fs = with_edits(RepoFS.scan(root), edits)  # the edits, seen only by this model
    model = build_context(root, fs=fs, count=False, env=env, home=home)
    made = {e.path for e in edits if e.before is None}
    new = sorted((f for f in model.findings if _key(f) not in before), key=lambda f: f.path in made)
    return next(iter(new), None)


def _apply(text: str, fix) -> str | None:
    match fix:
        case Unimport(line=line, old=old):
            return _unimport(text, line, old)
        case AddImport(line=line, new=new):
            return add_import(text, line, new)
        case Reimport(line=line, old=old, new=new):
            return _reimport(text, line, old, new)
        case Repath(line=line, old=old, new=new):  # a path, not the tail of a longer one
            return _reimport(text, line, old, new, before=r"(?<![A-Za-z0-9_/.~@-])")
        case RuleKeys(mode="bool"):
            return _string_bool(text)
        case RuleKeys(mode="paths"):
            return _globs_to_paths(text)
    return None


def _reimport(text: str, line: int, old: str, new: str, before: str = "") -> str | None:
    lines = text.splitlines(keepends=True)
    if not 0 < line <= len(lines):
        return None
    # the import as written, not a longer path it begins (a sentence's full stop may follow)
    pattern = before + re.escape(old) + ("" if old.endswith("]]") else r"(?![A-Za-z0-9_/~-]|\.[A-Za-z0-9])")
    s, n = re.subn(pattern, lambda _: new, lines[line - 1], count=1)
    if not n:
        return None
    lines[line - 1] = s
    return "".join(lines)


def _unimport(text: str, line: int, old: str) -> str | None:
    """The import `old` gone from `line`; the line too when nothing else is on it."""
    lines = text.splitlines(keepends=True)
    if not 0 < line <= len(lines):
        return None
    body = lines[line - 1]
    s, n = re.subn(r"(?:[ \t]+|^)" + re.escape(old) + r"(?![^\s.,;:)])[ \t]*(?=\S|$)", _gap, body, count=1)
    if not n:
        return None
    if not s.strip().strip("-*").strip():
        del lines[line - 1]
    else:
        lines[line - 1] = re.sub(r"[ \t]{2,}", " ", s)
    return "".join(lines)


def _gap(m: re.Match) -> str:
    """What stands where an import was: a space between two words, nothing before punctuation."""
    after = m.string[m.end():m.end() + 1]
    return " " if m.start() > 0 and m.group(0)[0] in " \t" and after.isalnum() else ""


def _frontmatter(lines: list[str]) -> tuple[int, int] | None:
    """(first key line, closing line) of the leading `---` block."""
    if not lines or lines[0].lstrip("\ufeff").strip() != "---":
        return None
    for i in range(1, len(lines)):
        if lines[i].strip() == "---":
            return 1, i
    return None


def _string_bool(text: str) -> str | None:
    lines = text.splitlines(keepends=True)
    span = _frontmatter(lines)
    if span is None:
        return None
    for i in range(*span):
        m = re.match(r"^(alwaysApply:\s*)([\"'])(true|false|yes|no)\2(\s*)$", lines[i], re.I)
        if m:
            value = "true" if m.group(3).lower() in ("true", "yes") else "false"
            lines[i] = m.group(1) + value + m.group(4)
            return "".join(lines)
    return None


def _key_block(lines: list[str], start: int, end: int, key: str) -> tuple[int, int] | None:
    """The lines of `key:` and its continuation (indented or `- item` lines) in the block."""
    for i in range(start, end):
        if re.match(rf"^{key}\s*:", lines[i]):
            j = i + 1
            while j < end and (lines[j].startswith((" ", "\t", "- ")) or lines[j].strip() == "-"):
                j += 1
            return i, j
    return None


def _globs_to_paths(text: str) -> str | None:
    """Cursor's `globs:` as Claude Code's `paths:` (a YAML list of quoted globs), `alwaysApply:`
    dropped. An always-applied rule, or one with `paths:` already, just loses both keys."""
    lines = text.splitlines(keepends=True)
    span = _frontmatter(lines)
    if span is None:
        return None
    data = read_meta(text).data
    eol = "\r\n" if lines[0].endswith("\r\n") else "\n"
    keep_globs = data.get("alwaysApply") is not True and "paths" not in data
    globs = glob_list(data.get("globs")) if keep_globs else []
    blocks = sorted(b for b in (_key_block(lines, *span, "globs"), _key_block(lines, *span, "alwaysApply")) if b)
    if not blocks:
        return None
    for i, j in reversed(blocks):
        repl = []
        if globs and lines[i].startswith("globs"):
            repl = ["paths:" + eol] + ["  - " + _quoted(g) + eol for g in globs]
        lines[i:j] = repl
    span = _frontmatter(lines)
    if span is not None and all(not ln.strip() for ln in lines[span[0]:span[1]]):
        del lines[: span[1] + 1]  # nothing left in the block: no empty frontmatter
    return "".join(lines)


def _quoted(glob: str) -> str:
    return '"' + glob.replace("\\", "\\\\").replace('"', '\\"') + '"'
