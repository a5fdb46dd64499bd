"""Indexes people write as lists: Claude Code's `MEMORY.md`, a plain Serena store's index file
(`- **name** — description` bullets, `- name — description`, backtick-name tables, links), and
the README index of each experience-entries folder.

Every line that names memories becomes an `IndexRow`: its links are the memories it names and
its keywords are the words of the rest of the line (a MEMORY.md hook is the human-written
summary the agent routes on). Lenient: lines that name nothing are skipped, never an error.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from . import markdown as md
from .indexes import IndexLink, IndexRow, L0Index, resolve_target
from .vocabulary import content_words

# `- **name** — desc`, `1. **name**: desc`, `* **name** - desc`
BOLD_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\*\*([^*]+?)\*\*")
# `- name — description` (a bare name then a dash separator)
PLAIN_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+([A-Za-z0-9_.\\/-]+)\s+[—–-]{1,2}\s+\S")
BACKTICK = re.compile(r"`([A-Za-z0-9_./\\-]+)`")
HEADING = re.compile(r"^\s*#{1,6}\s+(.*?)\s*#*\s*$")
NAME_LIKE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.\-/]*$")
BARE_NAME = re.compile(r"(?<![\w`/.-])([A-Za-z0-9]+(?:_[A-Za-z0-9]+)+)(?![\w`/-])")


@dataclass(slots=True)
class ListIndex(L0Index):
    """A list-dialect index: rows as in L0, plus the links that leave the memory folder
    (`../../CLAUDE.md`, repository docs), which are references, not memories."""

    external: list[tuple[int, str]] = field(default_factory=list)


Resolver = Callable[[str], "str | None"]


def name_resolver(paths: list[str] | set[str]) -> Resolver:
    """Serena names → store paths: `name` → `name.md`, `topic/name` → `topic/name.md`, else a
    unique file of that stem in any topic folder. None when nothing matches."""
    by_path = set(paths)
    by_stem: dict[str, list[str]] = {}
    for p in by_path:
        stem = p.rsplit("/", 1)[-1]
        stem = stem[:-3] if stem.endswith(".md") else stem
        by_stem.setdefault(stem, []).append(p)
        if stem.lower() != stem:
            by_stem.setdefault(stem.lower(), []).append(p)

    def resolve(name: str) -> str | None:
        name = name.replace("\\_", "_").replace("\\", "").strip().strip("/")
        if not name:
            return None
        cand = name if name.endswith(".md") else name + ".md"
        if cand in by_path:
            return cand
        stem = cand.rsplit("/", 1)[-1][:-3]
        hits = by_stem.get(stem) or by_stem.get(stem.lower())
        if hits and len(set(hits)) == 1:
            return hits[0]
        return None

    return resolve


def _keywords(text: str) -> list[str]:
    seen: dict[str, None] = {}
    for w in content_words(text):
        seen.setdefault(w, None)
    return list(seen)


def parse_list_index(path: str, text: str, resolve: Resolver, *, dialect: str) -> ListIndex:
    """Parse a list index. `resolve` maps a bare memory name to a store path (None: no file)."""
    folder = path.rsplit("/", 1)[0] if "/" in path else ""
    idx = ListIndex(path, dialect)
    section: str | None = None
    in_fence = False
    mentions: list = []  # (line number, line, its text without links, section): `_add_mentions`
    for no, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if s.startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        if in_fence or not s:
            continue
        h = HEADING.match(line)
        if h:
            section = h.group(1).strip() or None
            idx.sections.append((no, section or ""))
            continue
        links: list[IndexLink] = []
        rest = line
        for m in md.LINK.finditer(line):
            raw = m.group(2)
            if raw.startswith(("#", "http://", "https://", "mailto:")) or "://" in raw:
                continue
            target, unsafe = resolve_target(raw, folder)
            if unsafe == "escapes the store" or unsafe == "absolute path or URL":
                idx.external.append((no, raw))
                continue
            if not target.endswith(".md"):
                idx.external.append((no, raw))  # a link to an image or a code file
                continue
            links.append(IndexLink(m.group(1), raw, target, None, unsafe))
            rest = rest.replace(m.group(0), m.group(1))
        if not links and dialect == "names":
            links = _named(line, resolve, folder)
            for lk in links:
                rest = rest.replace(f"**{lk.raw}**", " ").replace(f"`{lk.raw}`", " ")
        if dialect == "memory-md" and "`" in line:
            mentions.append((no, line, rest, section))
        if not links:
            continue
        row = IndexRow(no, _keywords(rest), links, line)
        row.section = section
        idx.rows.append(row)
    if mentions:
        _add_mentions(idx, mentions, resolve)
    if not idx.rows and not idx.sections:
        idx.dialect = "empty"
    return idx


MENTION = re.compile(r"`((?:~/|\./)?(?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_.-]+\.md)`")


def _add_mentions(idx: ListIndex, mentions: list, resolve: Resolver) -> None:
    """A MEMORY.md that names a topic file in backticks (`See `memory/netty-protocol.md``, "boot
    snapshots (`boot1.md`) are read by the skill") tells the agent it exists as a link would:
    a file becomes a row at its first mention unless a link names it earlier (one linked only
    past the cap is still met where it is named). Only the memory folder's own paths count
    (`memory/x.md`, `x.md`): backticks also quote the repository's files."""
    linked: dict[str, int] = {}  # each linked file's first line: a mention before it is met first
    for row in idx.rows:
        for lk in row.links:
            linked.setdefault(lk.target, row.line)
    by_line = {row.line: row for row in idx.rows}
    for no, line, rest, section in mentions:
        links = []
        for m in MENTION.finditer(line):
            target = _memory_path(m.group(1), resolve)
            if target is not None and linked.get(target, no + 1) > no:
                linked[target] = no
                links.append(IndexLink(m.group(1), m.group(1), target, None, None, mention=True))
                rest = rest.replace(m.group(0), " ")
        if links:
            existing = by_line.get(no)
            if existing is not None:  # a line with links that names one more file
                existing.links.extend(links)
                continue
            row = IndexRow(no, _keywords(rest), links, line)
            row.section = section
            idx.rows.append(row)
    idx.rows.sort(key=lambda r: r.line)


def _memory_path(raw: str, resolve: Resolver) -> str | None:
    """The memory a backticked path names: relative to the memory folder (`x.md`), or as the
    repository names it (`memory/x.md`, `.claude/memory/x.md`); None for anything else (a path
    from home or `/` may be another project's memory, `.serena/memories/` another store's)."""
    path = raw.removeprefix("./")
    for prefix in (".claude/memory/", "memory/"):
        if path.startswith(prefix):
            path = path[len(prefix):]
            break
    return path if resolve(path) == path else None


def _named(line: str, resolve: Resolver, folder: str) -> list[IndexLink]:
    """Memory names written without a link: bold or bare at the start of a list item, or in
    backticks (only those that name an existing memory — backticks also quote code)."""
    out: list[IndexLink] = []
    m = BOLD_ITEM.match(line)
    if m:
        name = m.group(1).strip().replace("\\_", "_")
        if NAME_LIKE.match(name) and re.search(r"[A-Za-z]", name):
            target = resolve(name)
            if target is None and ("_" in name or "-" in name or "/" in name):
                target, _ = resolve_target(name if name.endswith(".md") else name + ".md", folder)
                out.append(IndexLink(name, m.group(1), target, None, None))
                return out
            if target is not None:
                out.append(IndexLink(name, m.group(1), target, None, None))
                return out
    m = PLAIN_ITEM.match(line)
    if m:
        target = resolve(m.group(1))
        if target is not None:
            return [IndexLink(m.group(1), m.group(1), target, None, None)]
    s = line.lstrip()
    if s.startswith(("-", "*", "+", "|")) or s[:1].isdigit():
        for b in BACKTICK.finditer(line):
            target = resolve(b.group(1))
            if target is not None and all(lk.target != target for lk in out):
                out.append(IndexLink(b.group(1), b.group(1), target, None, None))
        if not out:
            # `1. **2025-11-03**: some_memory_name` — a bare snake_case name that is a memory
            for b in BARE_NAME.finditer(line):
                target = resolve(b.group(1))
                if target is not None and all(lk.target != target for lk in out):
                    out.append(IndexLink(b.group(1), b.group(1), target, None, None))
        if not out and s.startswith("|"):  # `| catalog-memory | catalog | … |`: a registry's id column
            cell = s[1:].split("|", 1)[0].strip()
            target = resolve(cell) if NAME_LIKE.match(cell) and re.search(r"[A-Za-z]", cell) else None
            if target is not None and target.rsplit("/", 1)[-1].removesuffix(".md") == cell.removesuffix(".md"):
                out.append(IndexLink(cell, cell, target, None, None))  # the name exactly, not a heading's word
    return out


# what introduces an example, not a reference: Serena's own memory_maintenance.md says "use a
# mem: prefix inside backticks, e.g. `mem:frontend/core`" and "avoid a reference like \"frontend
# debugging: `mem:frontend/debugging`\"" in every store that keeps it
_EXAMPLE = re.compile(r"\b(?:e\.g\.|i\.e\.|for example|for instance|such as|like)[^`.!?]{0,40}$", re.IGNORECASE)


def mem_references(text: str) -> list[tuple[str, int]]:
    """`mem:NAME` references (Serena ≥ 1.5), with their line; one written as an example (after
    "e.g." or "like" in its sentence) is not a reference."""
    out = []
    for no, line in enumerate(text.splitlines(), 1):
        for m in re.finditer(r"(?<![\w/])mem:([A-Za-z0-9_][A-Za-z0-9_./-]*[A-Za-z0-9_])", line):
            before = line[max(0, m.start() - 80): m.start()].rstrip("`")  # a marker and 40 characters at most
            if not _EXAMPLE.search(before):
                out.append((m.group(1), no))
    return out

