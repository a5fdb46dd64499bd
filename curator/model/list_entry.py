"""One `- [Title](file.md) — hook` line of a list index (a Claude Code MEMORY.md), and the line
two such lines for one file become when merged.

The merge keeps the first line and adds only what the second says that the first does not: its
hook (and its title, when that is not the file's name or already said), after `; `. Nothing is
dropped, so the merged line is the two lines' information in one always-loaded line; a second
line that adds nothing is simply a repeat."""

from __future__ import annotations

import re
from dataclasses import dataclass

_ENTRY = re.compile(r"^(?P<lead>\s*[-*+]\s+)\[(?P<title>[^\]]*)\]\((?P<link><[^>]+>|[^)\s]+)\)"
                    r"(?:\s*(?:—|–|--|-|:)\s*(?P<hook>.*?))?\s*$")


@dataclass(frozen=True, slots=True)
class Entry:
    title: str
    link: str
    hook: str


def parse_entry(line: str) -> Entry | None:
    """The entry a line is, or None for anything else (prose, several links, a heading)."""
    m = _ENTRY.match(line.rstrip("\r\n"))
    if m is None or "](" in (m.group("hook") or ""):
        return None
    return Entry(m.group("title").strip(), m.group("link").strip("<>"), (m.group("hook") or "").strip())


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


def merged_entry(first: str, second: str) -> str | None:
    """`first` with what `second` adds (`first` itself when it adds nothing); None when either
    is not a one-link entry line (then the lines are merged by hand)."""
    a, b = parse_entry(first), parse_entry(second)
    if a is None or b is None:
        return None
    have = _norm(first)
    name = b.link.rsplit("/", 1)[-1]
    title = b.title if b.title and _norm(b.title) not in have and b.title not in (name, name.removesuffix(".md")) else ""
    hook = b.hook if b.hook and _norm(b.hook) not in have else ""
    piece = f"{title}: {hook}" if title and hook else title or hook
    if not piece:
        return first
    body = first.rstrip("\r\n")
    ending = first[len(body):]
    return body.rstrip() + ("; " if a.hook else " — ") + piece + ending
