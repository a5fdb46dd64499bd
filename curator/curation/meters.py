"""Keyword meters and suggestions: a row's uniqueness, the rows it collides with, and the
distinctive words of a record that collide least (the promote wizard calls these per keystroke)."""

from __future__ import annotations

import math
import re
from collections import Counter

from ..checks.keyword_checks import row_uniqueness
from ..model.frontmatter import split_frontmatter
from ..model.store import INDEXES, NAMES, TEXT, Store
from ..model.vocabulary import STOPWORDS, content_words


def meter(store: Store, index: str, keywords: list[str], replacing_line: int | None = None):
    """Uniqueness of a would-be row in `index` and the rows (any index) it would collide with."""
    kws = frozenset(k.lower() for k in keywords)
    rows = next((rows for path, rows in store.all_indexes() if path == index), [])  # (memory-index.md too)
    others = [r.keyword_set for r in rows if r.line != replacing_line]
    uniqueness = row_uniqueness(kws, others) if others else 1.0
    collisions = []
    for path, idx_rows in store.all_indexes():
        for r in idx_rows:
            if path == index and r.line == replacing_line:
                continue
            shared = kws & r.keyword_set
            if len(shared) >= 2:
                collisions.append((path, r.line, sorted(shared)))
    collisions.sort(key=lambda c: -len(c[2]))
    return uniqueness, collisions


def suggest(store: Store, text: str, index: str | None = None, limit: int = 12) -> list[str]:
    """Distinctive words of a text that collide least with keywords already in the indexes.

    Frontmatter is left out (session ids and dates are not search words); words of the `#`
    title count three times, as they name what the memory is about."""
    every, per_index = _keyword_use(store)
    local = per_index.get(index, Counter()) if index is not None else Counter()
    _fm, body, _line = split_frontmatter(text)
    counts: Counter = Counter()
    for line in body.splitlines():
        weight = 3 if line.lstrip().startswith("# ") else 1
        for w in content_words(line):
            if w not in STOPWORDS and w not in TEMPLATE_WORDS and len(w) < 30 and not _id_like(w):
                counts[w] += weight
    df, n = _document_frequency(store)

    def score(kv):
        word, tf = kv
        idf = math.log(1 + n / (1 + df.get(word, 0)))  # words in every memory route nowhere
        taken = every.get(word, 0) + 2 * local.get(word, 0)  # this index's own rows weigh 3
        return -(tf * idf / (1 + 2 * taken)), word

    ranked = sorted(counts.items(), key=score)
    return [w for w, _ in ranked[:limit]]


# section names of the record templates (ADR-002 reflexion, experience entries): every record
# has them, so they tell memories apart from nothing
TEMPLATE_WORDS = frozenset(
    "known issue symptoms root cause solution prevention related summary error remediation practice "
    "impact validation reflection reflect notes context".split()
)
ID_LIKE = re.compile(r"^(?=.*\d)(?:[\d\-_.:/]+|[0-9a-f]{6,}|[0-9a-f]{8}-[0-9a-f\-]+)$")


def _id_like(word: str) -> bool:
    """Dates, numbers, hashes and session ids: unique, so they look distinctive, but no query
    ever uses them."""
    return bool(ID_LIKE.match(word))


def _keyword_use(store: Store) -> tuple[Counter, dict[str, Counter]]:
    """How many rows use each keyword, in every index and per index: a view of the snapshot
    (it reads the indexes only, so an edited memory keeps it)."""

    def build() -> tuple[Counter, dict[str, Counter]]:
        every: Counter = Counter()
        per_index: dict[str, Counter] = {}
        for path, rows in store.all_indexes():
            mine = per_index.setdefault(path, Counter())
            for r in rows:
                kws = r.keyword_set
                every.update(kws)
                mine.update(kws)
        return every, per_index

    return store.view("curation.keyword_use", build, reads={INDEXES})


def _document_frequency(store: Store) -> tuple[Counter, int]:
    """In how many memories each content word occurs: a view of the snapshot (it reads the
    memories' text and which memories exist)."""

    def build() -> tuple[Counter, int]:
        df: Counter = Counter()
        mems = store.memories()
        for r in mems:
            df.update(set(content_words(r.text)))
        return df, max(1, len(mems))

    return store.view("curation.document_frequency", build, reads={TEXT, NAMES})
