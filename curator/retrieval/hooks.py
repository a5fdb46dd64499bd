"""Document expansion: what people wrote *about* a memory elsewhere in the store.

Two human-written summaries point at a memory: the keywords of the index rows that route to it
(ADR-017 stores) and, in a Claude Code memory folder, the `- [Title](file.md) — hook` line of
`MEMORY.md`. Both are added to the memory's searchable head (name, title, description), which
BM25 weighs above the body.
"""

from __future__ import annotations

import posixpath
import re

LINK_LINE = re.compile(r"^\s*[-*+]\s+\[(?P<title>[^\]]+)\]\((?P<target>[^)\s]+)\)\s*(?:[—–:-]+\s*(?P<hook>.*))?$")
HOOK_FILES = ("MEMORY.md",)


def memory_hooks(store) -> dict[str, str]:
    """memory path → "Title hook" from every `MEMORY.md` link line in the store."""
    out: dict[str, str] = {}
    for path, rec in store.records.items():
        if rec.name not in HOOK_FILES or not rec.readable:
            continue
        base = posixpath.dirname(path)
        for line in rec.text.splitlines():
            m = LINK_LINE.match(line)
            if not m:
                continue
            target = m["target"].split("#", 1)[0]
            if not target or "://" in target:
                continue
            target = posixpath.normpath(posixpath.join(base, target.removeprefix("./")))
            text = f"{m['title']} {m['hook'] or ''}".strip()
            out[target] = f"{out[target]} {text}" if target in out else text
    return out


SUMMARY_KEYS = ("name", "title", "description", "summary", "subject", "topic", "category", "tags", "keywords",
                "aliases")  # `aliases`: Obsidian's other names of a note; `subject`, `category`: stores' own schemes


def frontmatter_text(rec) -> str:
    """A memory's own summary fields (name, description, subject, tags, aliases …) from its
    frontmatter: what its writer said it is about, weighed with its title."""
    fm = rec.frontmatter if isinstance(rec.frontmatter, dict) else {}
    parts = []
    for key in SUMMARY_KEYS:
        v = fm.get(key)
        if isinstance(v, str):
            parts.append(v)
        elif isinstance(v, list):
            parts.extend(str(x) for x in v if isinstance(x, str | int))
    return " ".join(parts)


def index_keywords(store, path: str) -> str:
    """The keywords of every index row that routes to this memory."""
    kws: list[str] = []
    for route in store.routes_to.get(path, ()):
        kws.extend(sorted(route.row.keyword_set))
    return " ".join(dict.fromkeys(kws))
