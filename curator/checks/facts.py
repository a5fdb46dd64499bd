"""Per-file facts the checks derive from text, cached by content hash in the user cache folder.

Counting headings, collecting links and fingerprinting text for near-duplicates is most of a
check run's time on a large store; a file that has not changed has the same facts, so a warm run
reads them back instead (the same idea as the token cache).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import re
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from ..model import markdown as md

CACHE_VERSION = 2
WORD = re.compile(r"[a-z0-9]+")
SAMPLE_MOD = 8  # keep shingles whose first word's crc32 is 0 mod 8 (content-defined sampling)


@dataclass(frozen=True, slots=True)
class Facts:
    h1: int
    h2: int
    links: tuple[tuple[str, int], ...]  # (target as written, line)
    exact: bytes  # digest of the normalised words (exact duplicates)
    fingerprints: tuple[int, ...]  # crc32 of sampled 8-word shingles (near-duplicate candidates)
    words: int


def words_of(text: str) -> list[str]:
    return WORD.findall(text.lower())


def shingle_prints(words: list[str], n: int, sampled: bool) -> set[int]:
    if len(words) < n:
        return {zlib.crc32(" ".join(words).encode())} if words else set()
    keep = range(len(words) - n + 1)
    if sampled:
        keep = [j for j in keep if zlib.crc32(words[j].encode()) % SAMPLE_MOD == 0]
    return {zlib.crc32(" ".join(words[j : j + n]).encode()) for j in keep}


def compute(text: str, body: str, shingle: int) -> Facts:
    lines = text.splitlines()
    h1 = h2 = 0
    if "#" in text:
        for h in md.headings(lines):
            h1 += h.level == 1
            h2 += h.level == 2
    links = tuple((lk.target, lk.line) for lk in md.links(lines)) if "](" in text else ()
    words = words_of(body)
    exact = hashlib.blake2b(" ".join(words).encode(), digest_size=16).digest()
    return Facts(h1, h2, links, exact, tuple(sorted(shingle_prints(words, shingle, True))), len(words))


class FactsCache:
    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._data: dict[str, Facts] | None = None
        self._dirty = False

    def _load(self) -> dict[str, Facts]:
        if self._data is None:
            self._data = {}
            if self.path is not None:
                try:
                    with open(self.path, "rb") as fh:
                        version, data = pickle.load(fh)  # our own file in the user cache folder
                    if version == CACHE_VERSION and isinstance(data, dict):
                        self._data = data
                except Exception:  # noqa: BLE001 - a damaged cache only costs time
                    self._data = {}
        return self._data

    def get(self, key: str, shingle: int, make) -> Facts:
        data = self._load()
        full = f"{shingle}:{key}"
        facts = data.get(full)
        if facts is None:
            facts = data[full] = make()
            self._dirty = True
        return facts

    def flush(self) -> None:
        if not self._dirty or self.path is None or self._data is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".facts-", suffix=".tmp")
            with os.fdopen(fd, "wb") as fh:
                pickle.dump((CACHE_VERSION, self._data), fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, self.path)
            self._dirty = False
        except OSError:
            pass


def default_cache() -> FactsCache:
    if os.environ.get("CURATOR_TOKENS") == "estimate":
        return FactsCache(None)
    from ..locations import cache_dir

    return FactsCache(cache_dir() / "facts.pickle")


def facts_for(ctx) -> dict[str, Facts]:
    """Facts of every readable file, memoised for the run and cached across runs."""

    def build() -> dict[str, Facts]:
        cache = ctx.facts_cache
        shingle = ctx.config.thresholds.shingle
        out = {}
        for path, rec in ctx.store.records.items():
            if rec.readable:
                key = rec.content_hash or hashlib.sha256(rec.text.encode()).hexdigest()
                out[path] = cache.get(key, shingle, lambda rec=rec: compute(rec.text, rec.body(), shingle))
        cache.flush()
        return out

    return ctx.memo("facts", build)
