"""Advice on a row's keywords, shared by the keyword editor's meter and `curator keywords`."""

from __future__ import annotations


def too_few(store, keywords: list[str]) -> str | None:
    """The warning for a row with fewer keywords than the check wants (None when enough)."""
    need = store.config.thresholds.min_keywords
    if len(keywords) >= need:
        return None
    return f"fewer than {need} keywords: the row will get a keywords.too-few warning (ADR-017 recommends 10–15)"
