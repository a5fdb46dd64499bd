"""The index rows of two states of a store compared: rows added, removed, re-pointed (their
target renamed or changed) and re-keyworded, with each row's uniqueness before and after."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..checks.keyword_checks import row_uniqueness
from ..model.store import Store


@dataclass(slots=True)
class RowChange:
    change: str  # added | removed | re-pointed | re-keyworded
    index: str
    target: str  # the target now (the old one for removed)
    old_target: str | None = None
    line: int | None = None  # in the index now (before, for removed)
    keywords: list[str] = field(default_factory=list)
    old_keywords: list[str] = field(default_factory=list)
    uniqueness: float | None = None  # of the row in its index, after
    old_uniqueness: float | None = None  # before



_MD_LINK = re.compile(r"\[([^\]]*)\]\(\s*<?([^)\s>]+\.md)>?\s*\)")
_WORD = re.compile(r"[\w][\w'-]*")


@dataclass(slots=True)
class _Row:
    index: str
    line: int
    target: str
    keywords: tuple[str, ...]
    others: list[frozenset]  # keyword sets of the other rows of the index (for uniqueness)

    @property
    def kwset(self) -> frozenset:
        return frozenset(k.lower() for k in self.keywords)


def _rows(store: Store | None) -> dict[str, list[_Row]]:
    """index path → its rows, one per (row, link target). Keyword indexes from the model; a
    Claude Code `MEMORY.md` link list too (its 'keywords' are the words of the hook)."""
    if store is None:
        return {}
    out: dict[str, list[_Row]] = {}
    for index, rows in store.all_indexes():
        sets = [r.keyword_set for r in rows]
        mine = out.setdefault(index, [])
        for i, row in enumerate(rows):
            others = sets[:i] + sets[i + 1 :]
            for link in row.links:
                mine.append(_Row(index, row.line, link.target or link.raw, tuple(row.keywords), others))
    for path, rec in store.records.items():
        if Path(path).name != "MEMORY.md" or not rec.readable or path in out:
            continue
        parsed = []
        for no, line in enumerate((rec.text or "").splitlines(), 1):
            for m in _MD_LINK.finditer(line):
                hook = line[m.end() :]
                words = tuple(w.lower() for w in _WORD.findall(hook))
                base = str(Path(path).parent)
                target = m.group(2) if base == "." else f"{base}/{m.group(2)}"
                parsed.append((no, target, words))
        sets = [frozenset(w) for _, _, w in parsed]
        out[path] = [_Row(path, no, t, w, sets[:i] + sets[i + 1 :]) for i, (no, t, w) in enumerate(parsed)]
    return out


def _uniq(row: _Row) -> float | None:
    if not row.keywords:
        return None
    return round(row_uniqueness(row.kwset, row.others) if row.others else 1.0, 3)


def diff_rows(before: Store | None, after: Store | None, renames: dict[str, str]) -> list[RowChange]:
    old_all, new_all = _rows(before), _rows(after)
    out: list[RowChange] = []
    for index in sorted(set(old_all) | set(new_all)):
        old = {r.target: r for r in old_all.get(index, [])}
        new = {r.target: r for r in new_all.get(index, [])}
        for t in sorted(set(old) & set(new)):
            o, n = old[t], new[t]
            if o.kwset != n.kwset:
                out.append(RowChange("re-keyworded", index, t, line=n.line, keywords=list(n.keywords),
                                     old_keywords=list(o.keywords), uniqueness=_uniq(n), old_uniqueness=_uniq(o)))
        gone = [t for t in old if t not in new]
        came = [t for t in new if t not in old]
        # a row whose target changed: to the renamed file, or the same keywords pointing elsewhere
        for g in list(gone):
            o = old[g]
            match = renames.get(g) if renames.get(g) in came else None
            if match is None:
                best = max(came, key=lambda c: _jaccard(o.kwset, new[c].kwset), default=None)
                if best is not None and o.kwset and _jaccard(o.kwset, new[best].kwset) >= 0.5:
                    match = best
            if match is None:
                continue
            n = new[match]
            gone.remove(g)
            came.remove(match)
            out.append(RowChange("re-pointed", index, match, old_target=g, line=n.line, keywords=list(n.keywords),
                                 old_keywords=list(o.keywords) if o.kwset != n.kwset else [],
                                 uniqueness=_uniq(n), old_uniqueness=_uniq(o)))
        for t in came:
            n = new[t]
            out.append(RowChange("added", index, t, line=n.line, keywords=list(n.keywords), uniqueness=_uniq(n)))
        for t in gone:
            o = old[t]
            out.append(RowChange("removed", index, t, line=o.line, old_keywords=list(o.keywords),
                                 old_uniqueness=_uniq(o)))
    order = {"added": 0, "re-pointed": 1, "re-keyworded": 2, "removed": 3}
    out.sort(key=lambda c: (c.index, order[c.change], c.line or 0))
    return out


def _jaccard(a: frozenset, b: frozenset) -> float:
    return len(a & b) / len(a | b) if a or b else 0.0


# ------------------------------------------------------------------ tokens and budgets


