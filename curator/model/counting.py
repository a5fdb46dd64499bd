"""Token counting for a snapshot being built: from the store cache when it holds the count,
else by the counter (`count_records`; `loading.Loading` counts a whole load elsewhere)."""

from __future__ import annotations

from .records import Record


def count_records(counter, todo: list[Record], known) -> None:
    """Token counts for records of a snapshot being built, kept in the store cache."""
    encoding = counter.encoding
    counts = counter.count_many([(r.content_hash, r.text) for r in todo]) if todo else []
    set_counts(counter, encoding, todo, counts, known)


def set_counts(counter, encoding: str, todo: list[Record], counts: list[int], known) -> None:
    for r, n in zip(todo, counts, strict=True):
        r.tokens = n
        if counter.encoding == encoding and r.content_hash:
            known.set_tokens(r.path, r.content_hash, encoding, n)
