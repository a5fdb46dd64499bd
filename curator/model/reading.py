"""The loader's read: what kind each file is, reading and parsing one file (or taking its parsed
fields from the store cache), and attaching parsed indexes (which files there are: `walk.py`)."""

from __future__ import annotations

import hashlib
import os
import stat
import time
from pathlib import Path
from typing import Protocol

from ..base import cache as _cache
from ..base.config import Config
from . import formats as fmts
from . import markdown as md
from .cache_encoding import decode_index, encode_index, plain_frontmatter, unplain
from .findings import Finding, Severity
from .frontmatter import split_frontmatter
from .indexes import DomainIndex, L0Index, parse_domain_index, parse_l0
from .list_index import ListIndex, name_resolver, parse_list_index
from .records import (
    DOMAIN_INDEX,
    EXPERIENCE,
    EXPERIENCE_SUMMARY,
    L0_INDEX,
    LEVEL_L0,
    LEVEL_L1,
    LEVEL_L2,
    LIST_INDEX,
    MEMORY,
    UNREADABLE,
    Record,
)


class Building(Protocol):
    """What the reader fills of a snapshot being built: a `Store` before it is frozen (named
    here, by what it holds, so the reader never imports the store module that calls it)."""

    format: str
    config: Config
    records: dict[str, Record]
    l0: L0Index | ListIndex | None
    domain_indexes: dict[str, DomainIndex]
    list_indexes: dict[str, ListIndex]

    @property
    def adapter(self) -> fmts.Format: ...

    def index_name(self) -> str | None: ...

L0_NAME = "memory-index.md"


def _logical(rel: str) -> str:
    while rel.startswith("../"):
        rel = rel[3:]
    return rel


def classify(rel: str, fmt: str = fmts.SERENA_TIERED, index_name: str | None = None) -> tuple[int, str]:
    if fmt == fmts.SERENA_TIERED:
        if "/" not in rel:
            if rel == L0_NAME:
                return LEVEL_L0, L0_INDEX
            if rel.endswith("-index.md"):
                return LEVEL_L1, DOMAIN_INDEX
    elif fmt == fmts.EXPERIENCE:
        name = rel.rsplit("/", 1)[-1]
        if name in ("README.md", "summary.md") or ("/" not in rel and name.endswith("-experience.md")):
            return LEVEL_L1, LIST_INDEX
    elif index_name is not None and rel == index_name:
        return LEVEL_L0, LIST_INDEX
    logical = _logical(rel)
    if "-experience/" in logical:
        if "/summary/" in logical:
            return LEVEL_L2, EXPERIENCE_SUMMARY
        return LEVEL_L2, EXPERIENCE
    return LEVEL_L2, MEMORY


def read_record(store: Building, rel: str, abspath, findings: list[Finding], cache=None) -> Record:
    level, kind = classify(rel, store.format, store.index_name())
    if cache is not None:
        hit = _from_cache(cache, store.config, rel, abspath, level, kind, findings)
        if hit is not None:
            return hit
    tier = _tier(store.config, rel, level)
    rec = Record(path=rel, abspath=Path(abspath), tier=tier, level=level, kind=kind)
    verified_ns = time.time_ns()  # before the read: a later edit in the same tick is racy
    raw, st, error = _read_bytes(rec, store.config.thresholds.max_file_bytes)
    text = None
    if raw is not None:
        rec.content_hash = hashlib.sha256(raw).hexdigest()
        text, error = _decoded(raw)
    if text is None:
        _refuse(rec, error or "cannot read", findings)
        if raw is not None and st is not None and cache is not None:  # read but no text: the refusal is kept by content
            cache.put(rel, _cache.stat_key(st), verified_ns, rec.content_hash, rec.error, None)
        return rec
    _parse(rec, text, level)
    if cache is not None and st is not None:
        data, encoded = plain_frontmatter(rec.frontmatter)
        if data is not None:
            fields = (rec.title, data, encoded, rec.frontmatter_error, rec.frontmatter_error_line,
                      rec.body_line, rec.date, rec.meta, len(text))
            cache.put(rel, _cache.stat_key(st), verified_ns, rec.content_hash, None, fields, tier)
    return rec


def _refuse(rec: Record, message: str, findings: list[Finding]) -> None:
    rec.error = message
    rec.kind = UNREADABLE
    findings.append(Finding("parse.error", Severity.ERROR, rec.path, message))


def _read_bytes(rec: Record, limit: int) -> tuple[bytes | None, os.stat_result | None, str | None]:
    """(bytes, stat, None), or (None, stat or None, why not): one open + fstat + read, so the
    size check and the read see the same file; O_NONBLOCK so a FIFO behind a symlink is
    reported, not waited on. Sets the record's size and mtime."""
    try:
        fd = os.open(rec.abspath, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, RuntimeError) as exc:
        return None, None, f"cannot read: {getattr(exc, 'strerror', None) or exc}"
    try:
        st = os.fstat(fd)
        rec.size, rec.mtime = st.st_size, st.st_mtime
        if not stat.S_ISREG(st.st_mode):
            return None, st, "not a regular file"
        if st.st_size > limit:
            return None, st, f"file is too large to read ({_mb(st.st_size)}; the limit is {_mb(limit)})"
        chunks = []
        while True:
            chunk = os.read(fd, max(st.st_size + 1, 65536))
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks), st, None
    except OSError as exc:
        return None, None, f"cannot read: {exc.strerror or exc}"
    finally:
        os.close(fd)


def _decoded(raw: bytes) -> tuple[str | None, str | None]:
    """(text, None), or (None, why it is no markdown)."""
    if b"\x00" in raw[:8192]:
        return None, "binary file (contains NUL bytes), not markdown"
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        return None, f"not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start})"


def _parse(rec: Record, text: str, level: int) -> None:
    """The record's text and what is parsed from it: frontmatter, title, key-values, date."""
    rec.text = text
    fm, body, body_line = split_frontmatter(text)
    rec.frontmatter = fm.data
    rec.frontmatter_error, rec.frontmatter_error_line = fm.error, fm.error_line
    rec.body_line = body_line
    body_lines = body.splitlines()
    rec.title = md.title(body_lines)
    if level == LEVEL_L2:
        rec.meta = md.key_values(body_lines[:80])
    rec.date = md.date_in_name(rec.name) or _fm_date(fm.data)


def _tier(config: Config, rel: str, level: int) -> str:
    return "semantic" if level < LEVEL_L2 else config.tier_for(_logical(rel))


# ------------------------------------------------------------------ the cached read path

_TEXT = Record.__dict__["text"]  # the slots under the lazy properties below
_ABSPATH = Record.__dict__["abspath"]


class CachedRecord(Record):
    """A record whose parsed fields came from the store cache. Its text is read from disk the
    first time something asks for it (most runs never do), and its `abspath` is a `Path` only
    once used."""

    __slots__ = ("_chars",)
    _chars: int  # the text's length, from the cache (the text itself is read when asked for)

    @property
    def text(self) -> str:
        text = _TEXT.__get__(self)
        if text is None:
            try:
                with open(_ABSPATH.__get__(self), "rb") as fh:
                    text = fh.read().decode("utf-8", "replace")
            except OSError:
                text = ""
            _TEXT.__set__(self, text)
        return text

    @text.setter
    def text(self, value: str) -> None:
        _TEXT.__set__(self, value)

    @property
    def abspath(self) -> Path:
        path = _ABSPATH.__get__(self)
        if not isinstance(path, Path):
            path = Path(path)
            _ABSPATH.__set__(self, path)
        return path

    @abspath.setter
    def abspath(self, value) -> None:
        _ABSPATH.__set__(self, value)

    @property
    def chars(self) -> int:
        text = _TEXT.__get__(self)
        return self._chars if text is None else len(text)


def _from_cache(cache, config: Config, rel: str, abspath, level: int, kind: str, findings) -> Record | None:
    """The record from its cache entry when the file's stat key matches (a racy entry is
    trusted only after its bytes hash the same); None when the file must be read."""
    try:
        st = os.stat(abspath)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    key = _cache.stat_key(st)
    entry, trusted = cache.lookup(rel, key)
    if entry is None:
        return None
    if not trusted:
        verified_ns = time.time_ns()
        try:
            with open(abspath, "rb") as fh:
                raw = fh.read()
        except OSError:
            return None
        if hashlib.sha256(raw).hexdigest() != entry[_cache.HASH]:
            return None
        entry = cache.confirm(rel, entry, key, verified_ns)
    rec = CachedRecord.__new__(CachedRecord)
    rec.path, rec.level, rec.kind = rel, level, kind
    rec.tier = entry[_cache.TIER] or _tier(config, rel, level)
    _ABSPATH.__set__(rec, abspath)
    rec.content_hash = entry[_cache.HASH]
    rec.size, rec.mtime = st.st_size, st.st_mtime
    rec.tokens = None
    error = entry[_cache.ERROR]
    if error is not None:
        _TEXT.__set__(rec, "")
        rec._chars = 0
        rec.title = rec.frontmatter_error = rec.frontmatter_error_line = rec.date = None
        rec.frontmatter, rec.meta, rec.body_line = {}, {}, 1
        rec.error, rec.kind = error, UNREADABLE
        findings.append(Finding("parse.error", Severity.ERROR, rel, error))
        return rec
    (rec.title, data, encoded, rec.frontmatter_error, rec.frontmatter_error_line,
     rec.body_line, rec.date, rec.meta, rec._chars) = entry[_cache.FIELDS]
    rec.frontmatter = unplain(data) if encoded else data
    rec.error = None
    _TEXT.__set__(rec, None)
    return rec



def _fm_date(data: dict) -> str | None:
    value = data.get("date")
    if value is None:
        return None
    text = str(value)
    return md.date_in_name(text)


def _mb(n: int) -> str:
    return f"{n / 1_000_000:.1f} MB"


def attach_list_indexes(store: Building) -> None:
    """Parse every list-dialect index of a non-tiered store (names resolve against its files)."""
    resolve = name_resolver([p for p, r in store.records.items() if r.level == LEVEL_L2])
    store.l0 = None
    store.list_indexes = {}
    dialect = store.adapter.index_kind
    for rec in store.records.values():
        if rec.kind != LIST_INDEX or not rec.readable:
            continue
        idx = parse_list_index(rec.path, rec.text, resolve, dialect=dialect)
        if rec.level == LEVEL_L0:
            store.l0 = idx
        else:
            store.list_indexes[rec.path] = idx


def attach_index(store: Building, rec: Record, cache=None) -> None:
    if not rec.readable or rec.kind not in (L0_INDEX, DOMAIN_INDEX):
        return
    want = L0Index if rec.kind == L0_INDEX else DomainIndex
    parsed = None
    if cache is not None and rec.content_hash:
        parsed = decode_index(cache.index(rec.path, rec.content_hash))
    if not isinstance(parsed, want):  # not kept, or kept as the other kind: parsed again
        parsed = parse_l0(rec.path, rec.text) if want is L0Index else parse_domain_index(rec.path, rec.text)
        if cache is not None and rec.content_hash:
            encoded = encode_index(parsed)
            if encoded is not None:
                cache.set_index(rec.path, rec.content_hash, encoded)
    if isinstance(parsed, L0Index):
        store.l0 = parsed
    elif isinstance(parsed, DomainIndex):
        store.domain_indexes[rec.path] = parsed
