"""duplicate.topic's second stage: two memories alike in meaning that are still two records.

Meaning alone puts memories of one *area* together; a maintainer merges only those that say the
same thing. Read over the corpus (issue 32's table: /work/research/duplicates/JUDGED.md), the
pairs people dismiss are records their authors named as distinct, on one of three marks the
names carry, and no pair they accept has one:

- `days`: both names are dated, on different days, and each name says something the other's does
  not: two pieces of work (`ebay_scheduled_listing_backend_20251101` and `…_ui_20251102`: one feature,
  backend and UI). Fixes of one thing on two days (`viewer_fixes_1102`, `viewer_ui_fixes_1103`: one
  name inside the other) are still compared.
- `incidents`: two dated entries of an experience log whose names differ so: each entry is one
  incident by the format, so two of a day are two incidents (one incident written twice shares its
  text, which duplicate.near finds).
- `series`: two numbered items of one series (`labeler-004-…-all-files`, `labeler-005-…-all-patterns`)
  whose names differ so: the author numbered two rules. A renumbered copy
  (`protocol-001-verificationbased-gates` / `protocol-002-verification-based-gate-effectiveness`)
  keeps a name inside the other's and stays a finding; so does an unnumbered consolidation
  (`design-004-composability-88` / `design-composability`).

Names only: the stage reads no body, so a check pays for it per candidate pair, never per memory.
Nothing here is fitted (no threshold): each mark is what the names declare.
"""

from __future__ import annotations

import re

from ..model.records import EXPERIENCE
from ..model.tiering import DATED

_TOKEN = re.compile(r"[a-z0-9]+")
_ORDINAL = 3  # digits of an item number (`004`); longer runs are years, issue numbers, scores


def distinct_records(a, b) -> str | None:
    """Why records `a` and `b` are two records whatever their meaning ('days', 'incidents',
    'series'), or None when the names do not tell them apart."""
    da, db = _day(a.stem), _day(b.stem)
    if da and db and (da != db or (a.kind == EXPERIENCE and b.kind == EXPERIENCE)):
        if _apart(_TOKEN.findall(DATED.sub(" ", a.stem.lower())), _TOKEN.findall(DATED.sub(" ", b.stem.lower()))):
            return "days" if da != db else "incidents"
    na, nb = _numbered(a.stem), _numbered(b.stem)
    if na and nb and na[0] and na[0] == nb[0] and na[1] != nb[1] and _apart(na[2], nb[2]):
        return "series"
    return None


def _day(stem: str) -> str | None:
    m = DATED.search(stem)
    return re.sub(r"\D", "", m.group(0)) if m else None


def _numbered(stem: str) -> tuple[tuple[str, ...], str, list[str]] | None:
    """(series tokens, item number, the rest) of a name like `labeler-004-matcher-type`."""
    toks = _TOKEN.findall(stem.lower())
    for i, t in enumerate(toks):
        if t.isdigit() and len(t) <= _ORDINAL:
            return tuple(toks[:i]), t.lstrip("0") or "0", toks[i + 1 :]
    return None


def _word(t: str) -> str:
    return t[:-1] if len(t) > 3 and t.endswith("s") and not t.endswith("ss") else t  # plural as singular


def _apart(a: list[str], b: list[str]) -> bool:
    """Each name has a word the other's lacks (numbers left out; plural as singular;
    `verificationbased` is in `verification-based`)."""
    wa, wb = [_word(t) for t in a if not t.isdigit()], [_word(t) for t in b if not t.isdigit()]
    return any(not _covered(w, wb) for w in wa) and any(not _covered(w, wa) for w in wb)


def _covered(word: str, words: list[str]) -> bool:
    return word in words or (len(word) > 4 and word in "".join(words))
