"""store.superseded: a memory that says, at its top, that it is superseded, archived, deprecated
or obsolete (`SUPERSEDED — see x.md`, `> **DEPRECATED (2026-01-17)**: This memory is historical`,
`# Session 826 Learnings (DEPRECATED)`, frontmatter `status: superseded`). Its author has retired
it: it should be archived, not indexed — the agent that retrieves it reads advice the store itself
has replaced. `superseded(rec)` is what the orphan check reads to leave such a memory unlisted.
"""

from __future__ import annotations

import re

from ..model.findings import Prune
from .context import Context

WORDS = ("SUPERSEDED", "ARCHIVED", "DEPRECATED", "OBSOLETE", "RETIRED")
_MARK = re.compile(r"^(?:[#>*_\s\[(]|\*\*)*(" + "|".join(WORDS) + r")\b(?!-)", re.I)
_TITLE_MARK = re.compile(r"[(\[]\s*(" + "|".join(WORDS) + r")\s*[)\]]\s*$")
_PHRASE = re.compile(r"\b(?:this (?:file|memory|note|document|page) (?:is|has been|was) (?:superseded|replaced|"
                     r"deprecated|archived|retired)|superseded by|replaced by atomic memories)\b", re.I)
STATUS = frozenset({"superseded", "archived", "deprecated", "obsolete", "retired"})
HEAD = 6  # non-blank lines read from the top (after the frontmatter)


def superseded(rec) -> str | None:
    """The line (or `status:` value) by which the memory says it is retired, else None. The
    word must be the status of the memory, in capitals or as its own marker — a memory *about*
    deprecated APIs (`# Deprecated endpoints`) is not retired."""
    if not rec.readable or rec.level != 2:
        return None
    status = (rec.frontmatter or {}).get("status") if isinstance(rec.frontmatter, dict) else None
    if isinstance(status, str) and status.strip().lower() in STATUS:
        return f"status: {status.strip()}"
    seen = 0
    for line in rec.body().splitlines():
        s = line.strip()
        if not s:
            continue
        seen += 1
        if seen > HEAD:
            break
        m = _MARK.match(s)
        if m and m.group(1).isupper():
            return s
        title = _TITLE_MARK.search(s) if s.startswith("#") else None
        if title and title.group(1).isupper():
            return s
        if not s.startswith("#") and _PHRASE.search(s):
            return s
    return None


def run(ctx: Context) -> None:
    store = ctx.store
    routed = store.routes_to
    for path in ctx.file_paths():
        rec = store.records[path]
        said = superseded(rec)
        if said is None:
            continue
        where = " and is still listed by the index, so the agent may read it" if path in routed else ""
        shown = said if len(said) <= 90 else said[:87] + "..."
        ctx.add("store.superseded", path, f"says it is retired ({shown!r}){where}: archive it rather than keep it "
                "among the live memories", line=None, fix=Prune(path))
