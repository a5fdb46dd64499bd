"""A Draft collects an operation's edits per file and turns them into a Plan.

Line edits refer to the file as it is on disk when planning, so several fixes to one index
compose (each by its own line number) and every untouched line stays byte-identical.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from pathlib import Path

from .plan import ChangedOnDisk, CurationError, FileEdit, Plan
from .textedit import edit_lines
from .validate import inside_store


def _loaded_bytes(rec) -> bytes | None:
    """The bytes the snapshot loaded for `rec`, when its text gives them back exactly (never
    bytes read since: a lazily read text of a changed file fails the hash)."""
    try:
        data = rec.text.encode("utf-8")
    except (AttributeError, OSError, UnicodeError):
        return None
    return data if hashlib.sha256(data).hexdigest() == rec.content_hash else None


class Draft:
    """`store`: the loaded store the edits were computed from. Each file's bytes are then
    taken only if they are exactly the bytes that store was loaded from (its content hash), so
    line numbers from the load are never applied to a file someone edited since."""

    def __init__(self, root: Path, operation: str, title: str, store=None) -> None:
        self.root = Path(root)
        self.store = store
        self.operation, self.title = operation, title
        self.notes: list[str] = []
        self._before: dict[str, bytes | None] = {}
        self._whole: dict[str, bytes | None] = {}
        self._replace: dict[str, dict[int, str | None]] = {}
        self._append: dict[str, list[str]] = {}
        self._order: list[str] = []
        self._moves: dict[str, str] = {}  # src -> dest: a move is kept or left whole
        self._locked: list[str] = []  # what the plan leaves alone (read-only memories), said
        self._cached: Plan | None = None  # plan() is asked for often while drafting; edits reset it

    def _touch(self, rel: str) -> None:
        if rel not in self._before:
            path = inside_store(self.root, rel)
            try:
                data = path.read_bytes()
            except FileNotFoundError:
                data = None
            except IsADirectoryError:
                raise CurationError(f"{rel} is a folder, not a file") from None
            rec = self.store.records.get(rel) if self.store is not None else None
            if rec is not None and rec.content_hash and (data is None or hashlib.sha256(data).hexdigest() != rec.content_hash):
                data = _loaded_bytes(rec)  # edited since the load: plan on what was loaded; the write reconciles
                if data is None:
                    raise ChangedOnDisk(rel)
            self._before[rel] = data
            self._order.append(rel)

    def text(self, rel: str) -> str:
        self._touch(rel)
        data = self._before[rel]
        if data is None:
            raise CurationError(f"{rel} does not exist")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise CurationError(f"{rel} is not valid UTF-8; fix it by hand first") from None

    def line(self, rel: str, no: int) -> str:
        lines = self.text(rel).splitlines()
        if not 1 <= no <= len(lines):
            raise CurationError(f"{rel} has no line {no}")
        return lines[no - 1]

    def current_line(self, rel: str, no: int) -> str | None:
        """The line as this draft will leave it (None if dropped)."""
        if no in self._replace.get(rel, {}):
            return self._replace[rel][no]
        return self.line(rel, no)

    def after_text(self, rel: str) -> str | None:
        """The file's text as the plan would leave it (None if deleted or absent)."""
        if rel not in self._before:
            return None
        after = self._after(rel)
        return None if after is None else after.decode("utf-8")

    def touched(self) -> list[str]:
        """Files this draft edits (an edit that turns out to change nothing included)."""
        return [rel for rel in self._order if rel in self._whole or rel in self._replace or rel in self._append]

    def _after(self, rel: str) -> bytes | None:
        before = self._before[rel]
        if rel in self._whole:
            return self._whole[rel]
        if rel in self._replace or rel in self._append:
            # (an edited line's file exists and is UTF-8: replace_line and append_line read it)
            return edit_lines(self.text(rel), self._replace.get(rel), self._append.get(rel)).encode("utf-8")
        return before

    def replace_line(self, rel: str, no: int, new: str | None) -> None:
        self._cached = None
        self.text(rel)
        self._replace.setdefault(rel, {})[no] = new

    def appended(self, rel: str) -> list[str]:
        return list(self._append.get(rel, []))

    def set_appended(self, rel: str, i: int, line: str) -> None:
        self._cached = None
        self._append[rel][i] = line

    def append_line(self, rel: str, line: str) -> None:
        self._cached = None
        self.text(rel)
        self._append.setdefault(rel, []).append(line)

    def create(self, rel: str, text: str) -> None:
        self._cached = None
        self._touch(rel)
        if self._before[rel] is not None:
            raise CurationError(f"{rel} already exists; curator never overwrites")
        self._whole[rel] = text.encode("utf-8")

    def delete(self, rel: str) -> None:
        self._cached = None
        self._touch(rel)
        self._whole[rel] = None

    def move(self, src: str, dest: str) -> None:
        self._cached = None
        self._touch(src)
        data = self._before[src]
        if data is None:
            raise CurationError(f"{src} does not exist")
        self._touch(dest)
        if self._before[dest] is not None:
            raise CurationError(f"{dest} already exists; curator never overwrites")
        self._whole[dest] = data
        self._whole[src] = None
        self._moves[src] = dest

    def plan(self) -> Plan:
        if self._cached is None:
            self._cached = self._build()
        cached = self._cached
        return Plan(cached.operation, cached.title, list(cached.edits), list(self.notes) + self._locked)

    def _build(self) -> Plan:
        edits = []
        self._locked = []
        kept = self._writable()
        for rel in self.touched():
            before, after = self._before[rel], self._after(rel)
            if after == before:
                continue
            if rel in kept:
                edits.append(FileEdit(rel, before, after))
            else:
                self._locked.append(f"left {rel} alone: Serena's read_only_memory_patterns protect it")
        return Plan(self.operation, self.title, edits, list(self.notes) + self._locked)

    def _writable(self) -> set[str]:
        """The touched files the plan may write: never a memory Serena's read_only_memory_patterns
        protect (a move of one is left whole: neither its copy nor its removal)."""
        protected = getattr(self.store, "memory_patterns", None) if self.store is not None else None
        touched = set(self.touched())
        if protected is None:
            return touched
        locked = {rel for rel in touched if protected.is_read_only(rel)}
        for src, dest in self._moves.items():
            if src in locked or dest in locked:
                locked |= {src, dest}
        return touched - locked


LINK = r"(\[[^\]]*\]\(\s*<?{target}>?\s*\))(\s*\(\d+\))?"


def set_count(line: str, raw_target: str, count: int) -> str:
    """Set the `(N)` after the link to `raw_target` in an L0 line, touching nothing else."""
    pattern = re.compile(LINK.format(target=re.escape(raw_target)))
    return pattern.sub(lambda m: f"{m.group(1)} ({count})", line, count=1)


def repoint(line: str, old: str, new: str) -> str:
    """Point a row's link (and a link text or bare name that spells the old target) at `new`."""
    old_stem, new_stem = old.removesuffix(".md"), new.removesuffix(".md")
    old_base, new_base = old_stem.rsplit("/", 1)[-1], new_stem.rsplit("/", 1)[-1]
    out = line.replace(f"]({old})", f"]({new})").replace(f"[{old_stem}]", f"[{new_stem}]")
    out = out.replace(f"[{old_base}]({new})", f"[{new_base}]({new})")
    if out == line:
        out = re.sub(rf"(?<![\w/.-]){re.escape(old_stem)}(\.md)?(?![\w/.-])", new_stem + r"\1", line)
    return out


MD_LINK = re.compile(r"(!?\[[^\]]*\]\()(\s*<?)([^)\s>]+)(>?\s*\))")


def rebase_links(text: str, src: str, dest: str) -> str:
    """Rewrite relative markdown links of a file moved from `src` to `dest` so each still
    reaches the same file (links resolve from the file's own folder)."""
    src_dir, dest_dir = posixpath.dirname(src), posixpath.dirname(dest)
    if src_dir == dest_dir:
        return text

    def fix(m: re.Match) -> str:
        target = m.group(3)
        path, sep, frag = target.partition("#")
        if not path or "://" in path or path.startswith(("/", "mailto:", "~")):
            return m.group(0)
        resolved = posixpath.normpath(posixpath.join(src_dir, path))
        new = posixpath.relpath(resolved, dest_dir or ".")
        return f"{m.group(1)}{m.group(2)}{new}{sep}{frag}{m.group(4)}"

    return MD_LINK.sub(fix, text)


def remove_link(line: str, raw_target: str) -> str:
    """Drop one link (and its `(N)` count and separating comma) from a row holding several."""
    link = rf"\[[^\]]*\]\(\s*<?{re.escape(raw_target)}>?\s*\)(?:\s*\(\d+\))?"
    out, n = re.subn(rf"\s*,\s*{link}", "", line, count=1)
    if n:
        return out
    return re.sub(rf"{link}\s*,\s*", "", line, count=1)
