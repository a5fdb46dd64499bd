"""The line-based three-way merge the write path uses to keep someone else's edits: an edit
made meanwhile is put onto curator's change (or curator's onto theirs) when the two touch
different lines; appends at the end always merge."""

from __future__ import annotations

from enum import Enum
from typing import Final, Literal


class _NoMerge(Enum):
    """The merge's "no" (None already means an absent file): one value, which `is` tells apart."""

    NO_MERGE = "no merge"


NO_MERGE: Final = _NoMerge.NO_MERGE
NoMerge = Literal[_NoMerge.NO_MERGE]


def rebase(base: bytes | None, changed: bytes | None, onto: bytes | None) -> bytes | None | NoMerge:
    """The changes someone made from `base` to `changed`, applied onto `onto` — a clean three-way
    merge by lines (None: the file is absent), or NO_MERGE when the two sides touch the same
    lines or one side creates or deletes the file. Appends at the end never conflict with a
    change elsewhere."""
    if changed == base:
        return onto
    if onto == base:
        return changed
    if base is None or changed is None or onto is None:
        return NO_MERGE
    if changed.startswith(base) and (base.endswith(b"\n") or not base) and (onto.endswith(b"\n") or not onto):
        return onto + changed[len(base):]  # the common case: lines appended at the end
    b, c, o = (x.splitlines(keepends=True) for x in (base, changed, onto))
    merged = _merge(b, c, o)
    # repeated lines make the alignment ambiguous (a change may be read as an insert here and a
    # delete there): the merge is kept only when the mirrored alignment agrees with it
    if merged is NO_MERGE or _merge(b[::-1], c[::-1], o[::-1]) != (merged[::-1]):
        return NO_MERGE
    return b"".join(merged)


def _merge(b: list[bytes], c: list[bytes], o: list[bytes]) -> list[bytes] | NoMerge:
    """Both sides' hunks against `b` applied together (lists of lines), or NO_MERGE."""
    from difflib import SequenceMatcher

    def hunks(other):
        return [(i1, i2, other[j1:j2]) for tag, i1, i2, j1, j2
                in SequenceMatcher(None, b, other, autojunk=False).get_opcodes() if tag != "equal"]

    theirs, ours = hunks(c), hunks(o)
    for ti1, ti2, _ in theirs:
        for oi1, oi2, _ in ours:
            if ti1 < oi2 and oi1 < ti2 or ti1 == oi1 or ti1 == ti2 == oi2 or oi1 == oi2 == ti2:
                return NO_MERGE  # overlapping, or both at one spot: which goes first is not ours to say
    out: list[bytes] = []
    at = 0
    for i1, i2, lines in sorted(theirs + ours, key=lambda h: (h[0], h[1])):
        out += b[at:i1]
        out += lines
        at = i2
    out += b[at:]
    return out
