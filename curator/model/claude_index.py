"""The inline sections of a Claude Code `MEMORY.md`: `## ` sections holding knowledge rather
than `- [Title](file.md) — hook` lines. Past the load cap they are never seen; moved into topic
files they cost one line each."""

from __future__ import annotations

import re
from dataclasses import dataclass

_ENTRY = re.compile(r"^\s*[-*]\s+\[[^\]]*\]\([^)]+\)")
# an entry line as index.duplicate-entry counts them: a list item or table row that opens with its
# link (`- [Title](file.md) — hook`, `- **[Title](file.md)** — hook`, `- [ ] [Title](file.md)`,
# `| [Title](file.md) | … |`); a fact that ends "See [x](x.md)" is not one
ENTRY_LINE = re.compile(r"^\s*(?:(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?|\|\s*)(?:\*\*|__)?\[[^\]]*\]\(")
_H2 = re.compile(r"^##\s+(.+?)\s*#*\s*$")
MIN_LINES = 3  # a section this short costs no more than the line that would replace it


@dataclass(frozen=True, slots=True)
class Section:
    title: str
    start: int  # 1-based line of the heading
    end: int  # last line (inclusive)
    body: list[str]


def inline_sections(text: str) -> list[Section]:
    lines = text.splitlines()
    heads = [(i, m.group(1)) for i, ln in enumerate(lines) if (m := _H2.match(ln))]
    out = []
    for k, (i, title) in enumerate(heads):
        end = heads[k + 1][0] if k + 1 < len(heads) else len(lines)
        body = lines[i + 1 : end]
        while body and not body[-1].strip():
            body = body[:-1]
        content = [ln for ln in body if ln.strip()]
        entries = sum(1 for ln in content if _ENTRY.match(ln))
        if len(content) >= MIN_LINES and entries < len(content) / 2:
            out.append(Section(title, i + 1, i + len(body) + 1, body))
    return out
