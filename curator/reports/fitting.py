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
