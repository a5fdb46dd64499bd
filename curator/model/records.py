"""A record: one file of the store, with what every service needs to know about it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

LEVEL_L0, LEVEL_L1, LEVEL_L2 = 0, 1, 2

# kinds
L0_INDEX = "l0-index"
DOMAIN_INDEX = "domain-index"
LIST_INDEX = "list-index"  # MEMORY.md, a plain Serena index file, an experience folder README
MEMORY = "memory"
EXPERIENCE = "experience"
EXPERIENCE_SUMMARY = "experience-summary"
UNREADABLE = "unreadable"


@dataclass(slots=True, eq=False)
class Record:
    path: str  # relative to the store root, "/"-separated (may start with "../" for included folders)
    abspath: Path
    tier: str  # session | semantic | reflexion | transient
    level: int  # 0 (L0), 1 (domain index), 2 (memory)
    kind: str
    text: str = ""
    content_hash: str = ""  # sha256 of the raw bytes (ADR-037 de-duplication key)
    size: int = 0  # bytes
    title: str | None = None
    frontmatter: dict = field(default_factory=dict)
    frontmatter_error: str | None = None
    frontmatter_error_line: int | None = None
    body_line: int = 1  # first line of the body, after frontmatter
    date: str | None = None  # YYYY-MM-DD, from the name or the frontmatter
    meta: dict[str, str] = field(default_factory=dict)  # **Key**: value and Error:/Summary: lines
    tokens: int | None = None
    mtime: float = 0.0
    error: str | None = None  # why the file could not be read (parse.error)

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    @property
    def stem(self) -> str:
        n = self.name
        return n[:-3] if n.endswith(".md") else n

    @property
    def folder(self) -> str:
        return self.path.rsplit("/", 1)[0] if "/" in self.path else ""

    @property
    def readable(self) -> bool:
        return self.error is None

    @property
    def chars(self) -> int:
        return len(self.text)

    def lines(self) -> list[str]:
        return self.text.splitlines()

    def body(self) -> str:
        if self.body_line <= 1:
            return self.text
        return "\n".join(self.text.splitlines()[self.body_line - 1 :])

    def display_title(self) -> str:
        return self.title or self.frontmatter.get("title") or self.frontmatter.get("task") or self.stem
