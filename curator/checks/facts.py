"""Per-file facts the checks derive from text, kept in the store's cache (`curator.base.cache`).

Counting headings, collecting links and fingerprinting text for near-duplicates is most of a
check run's time on a large store; a file that has not changed has the same facts, so a warm run
reads them back from its entry in the store cache (plain tuples, loaded by marshal in C).
"""

from __future__ import annotations

import hashlib
import posixpath
import re
import zlib
from array import array
from collections.abc import Iterable, Sequence
from itertools import compress
from typing import NamedTuple

from ..base.cache import ContentCache, store_cache
from ..model import formats as fmts
from ..model import markdown as md

CACHE_VERSION = 5  # 3: links inside inline code are not links; 4: merged with the per-store cache;
# 5: the exact identity of a non-ASCII body keeps its letters
WORD = re.compile(r"[a-z0-9]+")
UNICODE_WORD = re.compile(r"\w+")
SAMPLE_MOD = 8  # keep shingles whose first word's crc32 is 0 mod 8 (content-defined sampling)


class Facts(NamedTuple):
    h1: int
    h2: int
    links: tuple[tuple[str, int], ...]  # (target as written, line)
    exact: bytes  # digest of the normalised words (exact duplicates)
    # crc32 of sampled 8-word shingles (near-duplicate candidates), sorted; 4 bytes each in an
    # array (a tuple of Python ints is 40: 16 MB at 10k files), bytes as the store cache keeps it
    fingerprints: Sequence[int]
    words: int


# bytes other than a-z and 0-9 become spaces: every byte of a non-ASCII character is ≥ 0x80,
# so splitting the translated UTF-8 gives exactly WORD's matches (in a third less time)
_WORD_BYTES = bytes(c if 48 <= c <= 57 or 97 <= c <= 122 else 32 for c in range(256))


def words_of(text: str) -> list[str]:
    """WORD.findall(text.lower())."""
    return text.lower().encode("utf-8", "surrogatepass").translate(_WORD_BYTES).decode("ascii").split()


class _Sampled(dict):
    """word -> does a shingle starting with it get sampled (crc32 of the word ≡ 0 mod
    SAMPLE_MOD): each distinct word hashed once, then looked up in C (`map`), not hashed at
    each of its ~3.7 million places in a 10k-file store."""

    LIMIT = 500_000  # distinct words kept (a long-lived app meets ever new ones)

    def __missing__(self, word: str) -> bool:
        if len(self) >= self.LIMIT:
            self.clear()
        sampled = self[word] = zlib.crc32(word.encode()) % SAMPLE_MOD == 0
        return sampled


_SAMPLED = _Sampled()


def shingle_prints(words: list[str], n: int, sampled: bool) -> set[int]:
    if len(words) < n:
        return {zlib.crc32(" ".join(words).encode())} if words else set()
    keep: Iterable[int] = range(len(words) - n + 1)
    if sampled:
        keep = compress(keep, map(_SAMPLED.__getitem__, words))  # words past the last shingle: not kept
    return {zlib.crc32(" ".join(words[j : j + n]).encode()) for j in keep}


BOILERPLATE = re.compile(
    r"^#{2,6}\s*(related|related memories|related files|related documents|see also|references|links|"
    r"cross[- ]references|sources|tags|metadata)\b.*$",
    re.IGNORECASE,
)
HEADING_LINE = re.compile(r"^#{1,6}\s")


def content_body(body: str) -> str:
    """The body without boilerplate sections (`## Related` lists, `## References`, tags):
    two memories sharing only those are not near-duplicates, and a real pair is not hidden by
    a long shared list."""
    if "#" not in body:
        return body
    out, skipping, level = [], False, 0
    for line in body.splitlines():
        if HEADING_LINE.match(line):
            depth = len(line) - len(line.lstrip("#"))
            if BOILERPLATE.match(line):
                skipping, level = True, depth
                continue
            if skipping and depth <= level:
                skipping = False
        if not skipping:
            out.append(line)
    return "\n".join(out)


def compute(text: str, body: str, shingle: int) -> Facts:
    lines = text.splitlines()
    h1 = h2 = 0
    if "#" in text:
        for h in md.headings(lines):
            h1 += h.level == 1
            h2 += h.level == 2
    links = tuple((lk.target, lk.line) for lk in md.links(lines)) if "](" in text else ()
    content = content_body(body)
    words = words_of(content)
    # a body in another script (elephant.ai's Chinese summaries) has few ASCII words or none:
    # its identity takes every letter, else all such notes are "the same text"
    norm = " ".join(words) if content.isascii() else " ".join(UNICODE_WORD.findall(content.lower()))
    exact = hashlib.blake2b(norm.encode("utf-8", "surrogatepass"), digest_size=16).digest()
    return Facts(h1, h2, links, exact, array("I", sorted(shingle_prints(words, shingle, True))), len(words))


FactsCache = ContentCache


def default_cache() -> ContentCache:
    """Facts of texts met in this process (the persistent copy is the store cache's)."""
    return ContentCache(None, CACHE_VERSION)


_as_facts = tuple.__new__
PRINTS = Facts._fields.index("fingerprints")


def _kept(hit: tuple) -> Facts:
    """Facts as the store cache gives them back: marshal keeps the fingerprints' array as bytes."""
    prints = hit[PRINTS]
    if not isinstance(prints, array):
        packed = array("I")
        if isinstance(prints, bytes):
            packed.frombytes(prints)
        else:
            packed.extend(prints)
        hit = (*hit[:PRINTS], packed, *hit[PRINTS + 1 :])
    return _as_facts(Facts, hit)


def facts_for(ctx, paths: list[str] | None = None) -> dict[str, Facts]:
    """Facts of every readable file (or of `paths`), memoised for the run, cached across runs."""

    def build(wanted, flush: bool) -> dict[str, Facts]:
        cache = ctx.facts_cache
        kept = store_cache(ctx.store.root)
        shingle = ctx.config.thresholds.shingle
        variant = (CACHE_VERSION, shingle)
        out = {}
        records = ctx.store.records
        for path in wanted:
            rec = records.get(path)
            if rec is not None and rec.readable:
                digest = rec.content_hash
                hit = kept.facts(path, digest, variant) if digest else None
                if hit is not None:
                    out[path] = _kept(hit)
                    continue
                key = digest or hashlib.sha256(rec.text.encode()).hexdigest()
                facts = cache.get(f"{shingle}:{key}", lambda rec=rec: compute(rec.text, rec.body(), shingle))
                out[path] = facts
                if digest:
                    kept.set_facts(path, digest, variant, tuple(facts))
        if flush:
            cache.flush()
            kept.save()
        return out

    if paths is not None:
        # a few files (a re-check): the cache is written by the next full run, not per edit
        return build(paths, False)
    return ctx.memo("facts", lambda: build(list(ctx.store.records), True))


SKIP_SCHEMES = ("http://", "https://", "mailto:", "ftp://", "data:", "tel:")


def resolve_link(rec, raw: str) -> tuple[str, str] | None:
    """(target as the store names it, target relative to the store or rooted at "/") of a link
    written in `rec`, or None for links that are not files (web, anchors, other schemes)."""
    if raw.startswith(SKIP_SCHEMES) or raw.startswith("#") or "://" in raw:
        return None
    from urllib.parse import unquote

    target = unquote(raw.split("#", 1)[0].split("?", 1)[0])
    if not target:
        return None
    if target.startswith("/"):
        return target, target
    if rec.folder:
        return target, posixpath.normpath(posixpath.join(rec.folder, target))
    return target, posixpath.normpath(target)


def link_probe(store, rec, raw: str) -> str | None:
    """The file on disk whose existence decides whether a link is broken; None when the link
    is not a file or reaches a record of the store."""
    resolved = resolve_link(rec, raw)
    if resolved is None:
        return None
    target, name = resolved
    if target.startswith("/"):
        return str(store.root / target.lstrip("/"))
    if name in store.records or _memory_name(store, target):
        return None
    return str(rec.abspath.parent / target)


def _memory_name(store, target: str) -> bool:
    """Does a Serena link name a memory from the store root? Serena reads a memory by its name,
    its path from the store root, so `[x](x.md)` in `git/a.md` reaches the top-level `x.md`."""
    if store.format not in (fmts.SERENA, fmts.SERENA_TIERED) or target.startswith("../"):
        return False
    return posixpath.normpath(target) in store.records
