"""Fitting a name into a width, shared by every report and the app's tables."""

from __future__ import annotations


def middle_cut(name: str, width: int) -> str:
    """`name` in `width` characters, cut from the middle (`pr-review/…-autofix.md`): both the
    folder and the file's own name stay readable."""
    if len(name) <= width:
        return name
    keep = width - 1
    head = keep // 2 - 1 if keep > 8 else keep // 2
    return name[:head] + "…" + name[len(name) - (keep - head):]


def unique_tails(paths) -> dict[str, str]:
    """Each path's shortest tail of whole folders that no other of `paths` ends with: the file's
    name where it is the only one so named, `client/core.md` and `server/core.md` where a store
    keeps a core.md in each folder (a narrow table showed three rows of `core.md`)."""
    split = {p: p.split("/") for p in dict.fromkeys(paths)}
    out: dict[str, str] = {}
    for p, parts in split.items():
        n = 1
        while n < len(parts) and any(q != p and q_parts[-n:] == parts[-n:] for q, q_parts in split.items()):
            n += 1
        out[p] = "/".join(parts[-n:])
    return out
