"""Memory formats: one adapter each, saying how a folder is recognised, which of its files are
indexes, what the agent loads at start-up (and the cap on it), which names and frontmatter the
format expects, and which checks mean something for it.

Formats (ids are stable; reports and config use them):
- `serena-tiered`: a Serena store routed through an ADR-017 keyword index (`memory-index.md`
  in the table or `[Section]` dialect, `*-index.md` domain indexes).
- `serena`: a plain Serena store (by far the most common): memories named by the agent in
  snake_case or UPPER_SNAKE, topic subfolders, optionally a hand-written index file in one of
  the dialects people use (`- **name** — description` bullets, backtick-name tables, links).
- `claude`: a Claude Code memory folder: `MEMORY.md` (always loaded, first 200 lines or 25 KB)
  listing topic files with frontmatter `name`, `description`, `type`.
- `experience`: experience entries (`docs/{error,good}-experience/entries/` with
  `summary/entries/` twins and a README index per folder).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..agents import rules_for

SERENA_TIERED = "serena-tiered"
SERENA = "serena"
CLAUDE = "claude"
EXPERIENCE = "experience"
FORMATS = (SERENA_TIERED, SERENA, CLAUDE, EXPERIENCE)

# the index file of a plain Serena store, in the order they are looked for
SERENA_INDEX_NAMES = (
    "memory-index.md",
    "memory_index.md",
    "_index.md",
    "INDEX.md",
    "index.md",
    "MEMORY_INDEX.md",
    "00_index.md",
)
CLAUDE_INDEX = "MEMORY.md"
CLAUDE_TYPES = ("user", "feedback", "project", "reference")

_KEYWORD_TABLE = re.compile(r"^\s*\|\s*(keywords?|triggers)\s*\|", re.I | re.M)
_EVOLVED_ROW = re.compile(r"^\s*\|[^|\n]*:\s*\[[^\]]*\]\([^)]*\)", re.M)
_SECTION = re.compile(r"^\s*\[[^\]]+\]\s*$", re.M)


@dataclass(frozen=True, slots=True)
class Format:
    id: str
    label: str
    # which index dialect the always-loaded index is written in ("adr017" for tiered stores)
    index_kind: str
    # keys every memory's frontmatter should have (empty: frontmatter is optional)
    required_frontmatter: tuple[str, ...] = ()

    @property
    def is_tiered(self) -> bool:
        return self.id == SERENA_TIERED


ADAPTERS: dict[str, Format] = {
    SERENA_TIERED: Format(SERENA_TIERED, "Serena, tiered index (ADR-017)", "adr017"),
    SERENA: Format(SERENA, "Serena", "names"),
    CLAUDE: Format(CLAUDE, "Claude Code memory", "memory-md", ("name", "description", "type")),
    EXPERIENCE: Format(EXPERIENCE, "experience entries", "links"),
}

# Claude Code reads only the start of MEMORY.md into every session (its rule: curator/agents)
_CAP = rules_for("claude-code").value("memory.auto-cap")
CLAUDE_CAP_LINES: int = _CAP["lines"]
CLAUDE_CAP_BYTES: int = _CAP["bytes"]
CLAUDE_CAP_STRIP: bool = bool(_CAP.get("strip"))


def claude_cap(store) -> dict:
    """The `memory.auto-cap` row of the Claude Code version pinned for the store
    (`auto_memory.claude_pinned`), as `curator context` reads it; else the newest."""
    from .auto_memory import claude_pinned

    version = claude_pinned(store)
    if version is None:
        return _CAP
    return rules_for("claude-code", version).value("memory.auto-cap", _CAP)


def claude_cap_of(text: str, cap: dict) -> int | None:
    """`claude_cap_line` by one version's cap row."""
    return claude_cap_line(text, cap["lines"], cap["bytes"], bool(cap.get("strip")))


def claude_cap_line(text: str, lines: int = CLAUDE_CAP_LINES, max_bytes: int = CLAUDE_CAP_BYTES,
                    strip: bool | None = None) -> int | None:
    """The first line (1-based) of MEMORY.md that Claude Code does not load, or None when all of
    it loads: since 2.1.83 as `memory_md.loaded_index` reads it (frontmatter and comments out,
    200 lines, then 25,000 characters); before, its first `lines` lines (`max_bytes` 0: no byte
    cut)."""
    if CLAUDE_CAP_STRIP if strip is None else strip:
        from .memory_md import loaded_index

        return loaded_index(text, lines, max_bytes)[1]
    used = 0
    for no, line in enumerate(text.splitlines(keepends=True), 1):
        if no > lines:
            return no
        used += len(line.encode("utf-8"))
        if max_bytes and used > max_bytes:
            return no
    return None


def claude_cap_words(cap: dict) -> str:
    """`first 200 lines or 25 KB` (or `first 200 lines`, before the byte cut) of a cap row."""
    return f"first {cap['lines']} lines" + (f" or {cap['bytes'] // 1000} KB" if cap.get("bytes") else "")


def adapter(fmt: str) -> Format:
    return ADAPTERS.get(fmt, ADAPTERS[SERENA_TIERED])


def _read_head(path: Path, limit: int = 65536) -> str:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return ""
    try:
        if not os.path.isfile(path):
            return ""
        return os.read(fd, limit).decode("utf-8", "replace")
    except OSError:
        return ""
    finally:
        os.close(fd)


def detect_format(root: Path) -> str:
    """The format of a memory folder, from what is in it (never raises)."""
    root = Path(root)
    name = root.name
    try:
        names = {e.name for e in os.scandir(root)}
    except OSError:
        names = set()
    if CLAUDE_INDEX in names or (name == "memory" and root.parent.name in (".claude",)):
        return CLAUDE
    if name.endswith("-experience") or "entries" in names and any(
        n.endswith("-experience") for n in (name, root.parent.name)
    ):
        return EXPERIENCE
    if any(n.endswith("-experience") and (root / n).is_dir() for n in names) and "memory-index.md" not in names:
        return EXPERIENCE
    if "memory-index.md" in names:
        head = _read_head(root / "memory-index.md")
        if _KEYWORD_TABLE.search(head) or _EVOLVED_ROW.search(head) or _SECTION.search(head):
            return SERENA_TIERED
    for n in names:
        if n.endswith("-index.md") and n != "memory-index.md":
            # ADR-017 domain indexes: a keyword table, or any table in a `skills-*-index.md`
            head = _read_head(root / n, 8192)
            if _KEYWORD_TABLE.search(head) or (n.startswith("skills-") and "|" in head):
                return SERENA_TIERED
    return SERENA


def serena_index_file(names: set[str] | list[str]) -> str | None:
    """The hand-written index of a plain Serena store, if it has one."""
    present = set(names)
    for candidate in SERENA_INDEX_NAMES:
        if candidate in present:
            return candidate
    return None
