"""L0 `memory-index.md` (two dialects) and L1 domain indexes (`*-index.md`): parse and write.

Parsers are lenient: whatever does not fit becomes an anomaly (line, message) for the checks
to report; they never raise. Writers produce text that parses back to the same rows.
"""

from __future__ import annotations

import posixpath
import re
import sys
from dataclasses import dataclass, field
from urllib.parse import unquote

SECTION = re.compile(r"^\s*\[([^\]]+)\]\s*$")
LINK_WITH_COUNT = re.compile(r"\[([^\]]*)\]\(\s*<?([^)\s>]*)>?\s*\)(?:\s*\((\d+)\))?")
SEPARATOR_CELL = re.compile(r"^:?-{2,}:?$")
HTML_ONLY = re.compile(r"^\s*(<[^>]*>\s*)+$")
HTML_LINK = re.compile(r"<a\s[^>]*?href\s*=\s*[\"']([^\"']+)[\"'][^>]*>(.*?)</a\s*>", re.IGNORECASE | re.DOTALL)
HTML_TAG = re.compile(r"<[^>]*>")
KEYWORD_SPLIT = re.compile(r"[\s,;]+")
CELL_SPLIT = re.compile(r"(?<!\\)\|")
# a relative path of plain segments ending in .md: resolves to itself
SIMPLE_TARGET = re.compile(r"^(?:[A-Za-z0-9_][A-Za-z0-9_.-]*/)*[A-Za-z0-9_][A-Za-z0-9_.-]*\.md$")


@dataclass(slots=True)
class IndexLink:
    name: str  # the link text, or the bare name as written
    raw: str  # the target as written
    target: str  # resolved, relative to the store root ("" if it cannot resolve)
    count: int | None = None  # the L0 "(N)" token count, None when absent
    unsafe: str | None = None  # why the target is unsafe (absolute, escapes the store)
    mention: bool = False  # named in backticks in a line of prose, not linked (list_index._add_mentions)


@dataclass(slots=True)
class IndexRow:
    line: int  # 1-based
    keywords: list[str]
    links: list[IndexLink]
    raw: str
    section: str | None = None
    _kwset: frozenset[str] | None = field(default=None, repr=False, compare=False)

    @property
    def keyword_set(self) -> frozenset[str]:
        # cached: checks ask for it inside pair loops; rows are replaced, never edited in place
        if self._kwset is None:
            # interned: the same keywords recur across rows and stores (10k rows hold ~130k of them)
            self._kwset = frozenset(sys.intern(k.lower()) for k in self.keywords)
        return self._kwset


@dataclass(slots=True)
class L0Index:
    path: str
    dialect: str  # "sections" | "table" | "empty"
    rows: list[IndexRow] = field(default_factory=list)
    sections: list[tuple[int, str]] = field(default_factory=list)
    anomalies: list[tuple[int, str]] = field(default_factory=list)

    def links(self):
        for row in self.rows:
            for link in row.links:
                yield row, link


@dataclass(slots=True)
class DomainIndex:
    path: str
    rows: list[IndexRow] = field(default_factory=list)
    header_line: int | None = None
    extras: list[tuple[int, str]] = field(default_factory=list)  # non-table content
    anomalies: list[tuple[int, str]] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    @property
    def domain(self) -> str:
        """`skills-git-index.md` -> `git`; `api-index.md` -> `api`."""
        stem = self.name[:-3] if self.name.endswith(".md") else self.name
        stem = stem.removesuffix("-index")
        return stem.removeprefix("skills-") or stem


def split_keywords(cell: str) -> list[str]:
    # interned: a keyword recurs in many rows, and its lowercase (`keyword_set`) is often itself
    return [sys.intern(k) for k in map(_strip_keyword, KEYWORD_SPLIT.split(cell.strip())) if k]


def _strip_keyword(k: str) -> str:
    return k.strip("`*_\"'")


def resolve_target(raw: str, base: str = "") -> tuple[str, str | None]:
    """Resolve a link or bare name to a store-relative path; say why it is unsafe if it is."""
    if not base and SIMPLE_TARGET.match(raw):
        return raw, None  # the common case: dir/name.md, nothing to decode or normalise
    t = unquote(raw.strip()).split("#", 1)[0].split("?", 1)[0]
    if not t:
        return "", "empty target"
    if t.startswith(("/", "\\", "~")) or re.match(r"^[A-Za-z]:[\\/]", t) or "://" in t:
        return t, "absolute path or URL"
    t = t.replace("\\", "/")
    if not t.endswith(".md") and not posixpath.splitext(t)[1]:
        t += ".md"
    joined = posixpath.normpath(posixpath.join(base, t)) if base else posixpath.normpath(t)
    if joined == ".." or joined.startswith("../"):
        return joined, "escapes the store"
    return joined, None


def _cells(line: str) -> list[str]:
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    return [c.strip() for c in CELL_SPLIT.split(s)]


def _is_separator(cells: list[str]) -> bool:
    return bool(cells) and all(SEPARATOR_CELL.match(c.replace(" ", "")) for c in cells if c) and any(cells)


def _is_header(cells: list[str]) -> bool:
    return len(cells) >= 2 and cells[0].lower() in ("keywords", "keyword", "triggers") and cells[1].lower() in (
        "file",
        "files",
        "memory",
        "target",
        "index",
    )


def _file_cell_links(cell: str) -> list[IndexLink]:
    found = list(LINK_WITH_COUNT.finditer(cell))
    if found:
        out = []
        for m in found:
            target, unsafe = resolve_target(m.group(2))
            out.append(
                IndexLink(m.group(1), m.group(2), target, int(m.group(3)) if m.group(3) else None, unsafe)
            )
        return out
    out = []
    for part in re.split(r"\s*,\s*", cell.strip().strip("`")):
        part = part.strip().strip("`")
        if part:
            target, unsafe = resolve_target(part)
            out.append(IndexLink(part, part, target, None, unsafe))
    return out


# ------------------------------------------------------------------ L1


def parse_domain_index(path: str, text: str) -> DomainIndex:
    idx = DomainIndex(path)
    foreign = False  # inside a table that is not a keyword index (e.g. `| Skill ID | Name | … |`)
    for no, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s:
            foreign = False
            continue
        if not s.startswith("|"):
            foreign = False
            idx.extras.append((no, line))
            continue
        cells = _cells(s)
        if foreign:
            continue
        if idx.header_line is None and _is_header(cells):
            idx.header_line = no
            continue
        if idx.header_line is None and not idx.rows and len(cells) > 2 and _is_foreign_header(cells):
            foreign = True  # one finding for the table, not one per row it cannot route
            shown = " | ".join(cells[:4]) + (" | …" if len(cells) > 4 else "")
            idx.anomalies.append((no, f"a {len(cells)}-column table (| {shown} |) is not a `| Keywords | File |` index"))
            continue
        if _is_separator(cells):
            continue
        if len(cells) < 2 or not cells[-1]:
            idx.anomalies.append((no, "table row without a file cell"))
            continue
        if len(cells) > 2:
            idx.anomalies.append((no, f"row has {len(cells)} columns, expected 2"))
        links = _file_cell_links(cells[-1] if len(cells) == 2 else cells[1])
        idx.rows.append(IndexRow(no, split_keywords(cells[0]), links, line))
    if idx.header_line is None and idx.rows:
        idx.anomalies.append((idx.rows[0].line, "table has no `| Keywords | File |` header"))
    return idx


def _is_foreign_header(cells: list[str]) -> bool:
    """A header row of some other table: words only, no link, no `.md` name."""
    return all(c and "](" not in c and ".md" not in c.lower() for c in cells)


def format_file_cell(target: str) -> str:
    """The canonical L1 file cell: `[dir/name](dir/name.md)`."""
    stem = target[:-3] if target.endswith(".md") else target
    return f"[{stem}]({target})"


def format_domain_row(keywords: list[str], target: str) -> str:
    return f"| {' '.join(keywords)} | {format_file_cell(target)} |"


# ------------------------------------------------------------------ L0


def parse_l0(path: str, text: str) -> L0Index:
    lines = text.splitlines()
    has_sections = any(SECTION.match(line) for line in lines)
    idx = L0Index(path, "sections" if has_sections else "table")
    section: str | None = None
    for no, line in enumerate(lines, 1):
        s = line.strip()
        if "<a" in s.lower() and HTML_LINK.search(s):
            s = _html_links_as_markdown(s)  # `<a href="x.md">x</a>` routes like `[x](x.md)`
            if s.startswith("["):
                s = "|" + s
        if not s or HTML_ONLY.match(s):
            continue
        m = SECTION.match(s)
        if m:
            section = m.group(1).strip()
            idx.sections.append((no, section))
            continue
        if not s.startswith("|"):
            if s.startswith("#") and no <= 3:
                continue  # a title line is tolerated in L0
            idx.anomalies.append((no, "line is neither a section header nor an index row"))
            continue
        cells = _cells(s)
        if _is_header(cells) or _is_separator(cells):
            continue
        if len(cells) == 1 or (len(cells) >= 2 and ":" in cells[0] and "](" in cells[0]):
            row = _parse_evolved_row(no, line, cells[0] if len(cells) == 1 else "|".join(cells))
            if row is None and len(cells) == 1 and LINK_WITH_COUNT.match(cells[0]):
                row = _parse_evolved_row(no, line, ":" + cells[0])  # links with no keywords
        else:
            links = _file_cell_links(cells[1])
            counts = [int(c) for c in cells[2:] if c.isdigit()]
            if counts and len(links) == 1 and links[0].count is None:
                links[0].count = counts[0]
            row = IndexRow(no, split_keywords(cells[0]), links, line)
        if row is None:
            idx.anomalies.append((no, "row has no `keywords: [name](path)` form"))
            continue
        row.section = section
        if not row.links:
            idx.anomalies.append((no, "row routes to no file"))
        idx.rows.append(row)
    if not idx.rows and not idx.sections:
        idx.dialect = "empty"
    return idx


def _html_links_as_markdown(s: str) -> str:
    def md(m: re.Match) -> str:
        text = HTML_TAG.sub("", m.group(2)).strip() or m.group(1)
        return f"[{text}]({m.group(1)})"

    return HTML_LINK.sub(md, s).strip()


def _parse_evolved_row(no: int, line: str, body: str) -> IndexRow | None:
    if ":" not in body:
        return None
    kw, rest = body.split(":", 1)
    links = []
    for m in LINK_WITH_COUNT.finditer(rest):
        target, unsafe = resolve_target(m.group(2))
        count = int(m.group(3)) if m.group(3) else None
        links.append(IndexLink(m.group(1), m.group(2), target, count, unsafe))
    return IndexRow(no, split_keywords(kw), links, line)


def format_l0_link(link: IndexLink) -> str:
    out = f"[{link.name}]({link.raw})"
    if link.count is not None:
        out += f" ({link.count})"
    return out


def format_l0_row(keywords: list[str], links: list[IndexLink], dialect: str = "sections") -> str:
    if dialect == "table":
        cell = ", ".join(f"[{lk.name}]({lk.raw})" for lk in links)
        counts = [lk.count for lk in links]
        tail = f" {counts[0]} |" if len(links) == 1 and counts[0] is not None else ""
        return f"| {' '.join(keywords)} | {cell} |{tail}"
    return f"|{' '.join(keywords)}: " + ", ".join(format_l0_link(lk) for lk in links)

