"""Loading a store: discovery, a safe recursive walk, lenient parsing of every file."""

from __future__ import annotations

import hashlib
import os
import stat
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property
from pathlib import Path

from ..config import Config, load_config
from . import markdown as md
from .findings import Finding, Severity
from .frontmatter import split_frontmatter
from .indexes import DomainIndex, IndexLink, IndexRow, L0Index, parse_domain_index, parse_l0
from .records import (
    DOMAIN_INDEX,
    EXPERIENCE,
    EXPERIENCE_SUMMARY,
    L0_INDEX,
    LEVEL_L0,
    LEVEL_L1,
    LEVEL_L2,
    MEMORY,
    UNREADABLE,
    Record,
)

L0_NAME = "memory-index.md"


class StoreError(Exception):
    """The store cannot be opened at all (missing, not a folder); the CLI exits 2."""


# ------------------------------------------------------------------ discovery


@dataclass(frozen=True, slots=True)
class Located:
    root: Path
    given: str  # as the user gave it (or how it was found), for reports
    notice: str | None = None  # e.g. "no store found; showing the bundled sample store"
    is_sample: bool = False


def locate_store(arg: str | os.PathLike | None, cwd: Path | None = None) -> Located:
    """The store argument, else `.serena/memories` found upward, else the bundled sample."""
    from ..locations import demo_store

    if arg is not None and str(arg) != "":
        path = Path(arg).expanduser()
        if not path.exists():
            raise StoreError(f"store not found: {arg}")
        if not path.is_dir():
            raise StoreError(f"store is not a folder: {arg}")
        return Located(path, str(arg))
    here = (cwd or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        candidate = folder / ".serena" / "memories"
        if candidate.is_dir():
            try:
                shown = str(candidate.relative_to(here)) or "."
            except ValueError:
                shown = str(candidate)
            return Located(candidate, shown)
    sample, is_copy = demo_store()
    where = f" (your copy: {sample}; delete it to start over)" if is_copy else ""
    return Located(
        sample,
        "sample_memories",
        notice=f"No .serena/memories found here or above; opened the bundled sample store{where}.",
        is_sample=True,
    )


# ------------------------------------------------------------------ the store


@dataclass(slots=True)
class Route:
    """One index row that routes to a file."""

    index: str  # path of the index holding the row
    row: IndexRow
    link: IndexLink


@dataclass
class Store:
    root: Path
    given: str
    config: Config
    records: dict[str, Record] = field(default_factory=dict)
    l0: L0Index | None = None
    domain_indexes: dict[str, DomainIndex] = field(default_factory=dict)
    load_findings: list[Finding] = field(default_factory=list)
    today: date = field(default_factory=date.today)
    encoding: str = "none"  # the token encoding used: cl100k_base | estimate | none
    counter: object | None = None  # the TokenCounter that filled record.tokens

    # -- views ---------------------------------------------------------

    def get(self, path: str) -> Record | None:
        return self.records.get(path)

    def __contains__(self, path: str) -> bool:
        return path in self.records

    def memories(self) -> list[Record]:
        """Readable L2 records, every tier."""
        return [r for r in self.records.values() if r.level == LEVEL_L2 and r.readable]

    def indexes(self) -> list[Record]:
        return [r for r in self.records.values() if r.level < LEVEL_L2 and r.readable]

    def by_tier(self) -> dict[str, list[Record]]:
        out: dict[str, list[Record]] = defaultdict(list)
        for r in self.records.values():
            out[r.tier].append(r)
        return dict(out)

    def all_indexes(self) -> list[tuple[str, list[IndexRow]]]:
        """(index path, rows) for L0 and every domain index."""
        out = []
        if self.l0 is not None:
            out.append((self.l0.path, self.l0.rows))
        out += [(p, d.rows) for p, d in sorted(self.domain_indexes.items())]
        return out

    @cached_property
    def routes_to(self) -> dict[str, list[Route]]:
        """target path -> the index rows that point at it."""
        out: dict[str, list[Route]] = defaultdict(list)
        for index_path, rows in self.all_indexes():
            for row in rows:
                for link in row.links:
                    if link.target and not link.unsafe:
                        out[link.target].append(Route(index_path, row, link))
        return dict(out)

    @property
    def total_tokens(self) -> int:
        return sum(r.tokens or 0 for r in self.records.values())

    def domain_of(self, path: str) -> str | None:
        """The domain index that routes to a memory (first one, by path)."""
        for route in self.routes_to.get(path, []):
            if route.index in self.domain_indexes:
                return route.index
        return None

    def invalidate(self) -> None:
        """Drop derived views after records or indexes change (services keep theirs in
        `_cache_*` attributes so they go too)."""
        self.__dict__.pop("routes_to", None)
        self.drop_service_caches()

    def drop_service_caches(self) -> None:
        for key in [k for k in self.__dict__ if k.startswith("_cache_")]:
            del self.__dict__[key]

    # -- tokens ----------------------------------------------------------

    def count_tokens(self, counter) -> None:
        """Fill `tokens` on every readable record (cached by content hash in the counter)."""
        todo = [r for r in self.records.values() if r.readable]
        counts = counter.count_many([(r.content_hash, r.text) for r in todo])
        for r, n in zip(todo, counts, strict=True):
            r.tokens = n
        self.encoding = counter.encoding
        self.counter = counter

    # -- reloading one file (the app's re-check after an edit) ----------

    def reload(self, path: str) -> Record | None:
        """Re-read one file (or drop it if gone) and refresh its parsed index and load findings."""
        rec = self.records.get(path)
        abspath = rec.abspath if rec else self.root / path
        if path == L0_NAME or path.endswith("-index.md"):
            self.invalidate()  # routes come from index rows only; a memory edit keeps them
        else:
            self.drop_service_caches()  # e.g. word statistics over the memories
        self.load_findings = [f for f in self.load_findings if f.path != path]
        self.records.pop(path, None)
        self.domain_indexes.pop(path, None)
        if path == L0_NAME:
            self.l0 = None
        if not abspath.exists():
            return None
        new = _read_record(self, path, abspath, self.load_findings)
        self.records[path] = new
        _attach_index(self, new)
        return new


# ------------------------------------------------------------------ loading


def load_store(
    root: Path | str,
    *,
    given: str | None = None,
    config: Config | None = None,
    today: date | None = None,
    token_counter=None,
) -> Store:
    root = Path(root)
    if not root.exists():
        raise StoreError(f"store not found: {given or root}")
    if not root.is_dir():
        raise StoreError(f"store is not a folder: {given or root}")
    cfg = config if config is not None else load_config(root)
    store = Store(root=root, given=given or str(root), config=cfg, today=today or _today())
    findings = store.load_findings
    real_root = root.resolve()
    roots = [(root, "")]
    for inc in cfg.include:
        inc_path = (root / inc)
        try:
            resolved = inc_path.resolve()
        except (OSError, RuntimeError):
            continue
        if resolved.is_dir() and not _is_within(resolved, real_root) and not _is_within(real_root, resolved):
            roots.append((inc_path, inc.rstrip("/")))
    allowed = [r.resolve() for r, _ in roots]
    for base, prefix in roots:
        for rel, abspath in _walk(base, prefix, allowed, findings, cfg):
            rec = _read_record(store, rel, abspath, findings)
            store.records[rel] = rec
    store.records = dict(sorted(store.records.items()))
    for rec in store.records.values():
        _attach_index(store, rec)
    from .tiering import apply as apply_tiering

    apply_tiering(store)  # tiers and start-up load read from the store (.curator.yaml wins)
    if token_counter is not None:
        store.count_tokens(token_counter)
    return store


def _today() -> date:
    fixed = os.environ.get("CURATOR_TODAY")
    if fixed:
        try:
            return date.fromisoformat(fixed)
        except ValueError:
            pass
    return date.today()


def _is_within(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
        return True
    except ValueError:
        return False


def _walk(base: Path, prefix: str, allowed: list[Path], findings: list[Finding], cfg: Config):
    """Yield (rel, abspath) for every markdown file below base; never follows folder symlinks."""
    stack = [(base, prefix)]
    while stack:
        folder, rel_folder = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            findings.append(
                Finding("parse.error", Severity.ERROR, rel_folder or ".", f"cannot list folder: {exc.strerror or exc}")
            )
            continue
        for entry in entries:
            rel = f"{rel_folder}/{entry.name}" if rel_folder else entry.name
            if entry.name.startswith(".") and entry.name not in (".serena",):
                continue  # hidden files and folders (.git, .curator, editor swap files)
            if cfg.is_excluded(rel):
                continue
            try:
                is_link = entry.is_symlink()
                if is_link:
                    try:
                        target = Path(entry.path).resolve(strict=True)
                    except (OSError, RuntimeError):
                        if entry.name.endswith(".md"):
                            findings.append(
                                Finding("parse.error", Severity.ERROR, rel, "symbolic link is broken or loops")
                            )
                        continue
                    if not any(_is_within(target, a) for a in allowed):
                        findings.append(
                            Finding(
                                "index.unsafe-target",
                                Severity.ERROR,
                                rel,
                                "symbolic link leaves the store; not read",
                                target=str(target),
                            )
                        )
                        continue
                    if target.is_dir():
                        findings.append(
                            Finding(
                                "parse.error",
                                Severity.WARNING,
                                rel,
                                "symbolic link to a folder is not followed (loops and double counting)",
                            )
                        )
                        continue
                    if entry.name.endswith(".md"):
                        yield rel, Path(entry.path)
                    continue
                if entry.is_dir(follow_symlinks=False):
                    stack.append((Path(entry.path), rel))
                elif entry.name.endswith(".md") and entry.is_file(follow_symlinks=False):
                    yield rel, Path(entry.path)
            except OSError as exc:
                findings.append(Finding("parse.error", Severity.ERROR, rel, f"cannot read: {exc}"))


def _logical(rel: str) -> str:
    while rel.startswith("../"):
        rel = rel[3:]
    return rel


def _classify(rel: str) -> tuple[int, str]:
    if "/" not in rel:
        if rel == L0_NAME:
            return LEVEL_L0, L0_INDEX
        if rel.endswith("-index.md"):
            return LEVEL_L1, DOMAIN_INDEX
    logical = _logical(rel)
    if "-experience/" in logical:
        if "/summary/" in logical:
            return LEVEL_L2, EXPERIENCE_SUMMARY
        return LEVEL_L2, EXPERIENCE
    return LEVEL_L2, MEMORY


def _read_record(store: Store, rel: str, abspath: Path, findings: list[Finding]) -> Record:
    level, kind = _classify(rel)
    tier = "semantic" if level < LEVEL_L2 else store.config.tier_for(_logical(rel))
    rec = Record(path=rel, abspath=abspath, tier=tier, level=level, kind=kind)
    limit = store.config.thresholds.max_file_bytes

    def fail(message: str) -> Record:
        rec.error = message
        rec.kind = UNREADABLE
        findings.append(Finding("parse.error", Severity.ERROR, rel, message))
        return rec

    # one open + fstat + read: the size check and the read see the same file; O_NONBLOCK so a
    # FIFO behind a symlink is reported, not waited on
    try:
        fd = os.open(abspath, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, RuntimeError) as exc:
        return fail(f"cannot read: {getattr(exc, 'strerror', None) or exc}")
    try:
        st = os.fstat(fd)
        rec.size, rec.mtime = st.st_size, st.st_mtime
        if not stat.S_ISREG(st.st_mode):
            return fail("not a regular file")
        if st.st_size > limit:
            return fail(f"file is too large to read ({_mb(st.st_size)}; the limit is {_mb(limit)})")
        chunks = []
        while True:
            chunk = os.read(fd, max(st.st_size + 1, 65536))
            if not chunk:
                break
            chunks.append(chunk)
        raw = b"".join(chunks)
    except OSError as exc:
        return fail(f"cannot read: {exc.strerror or exc}")
    finally:
        os.close(fd)
    rec.content_hash = hashlib.sha256(raw).hexdigest()
    if b"\x00" in raw[:8192]:
        return fail("binary file (contains NUL bytes), not markdown")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return fail(f"not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start})")
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
    return rec


def _fm_date(data: dict) -> str | None:
    value = data.get("date")
    if value is None:
        return None
    text = str(value)
    return md.date_in_name(text)


def _mb(n: int) -> str:
    return f"{n / 1_000_000:.1f} MB"


def _attach_index(store: Store, rec: Record) -> None:
    if not rec.readable:
        return
    if rec.kind == L0_INDEX:
        store.l0 = parse_l0(rec.path, rec.text)
    elif rec.kind == DOMAIN_INDEX:
        store.domain_indexes[rec.path] = parse_domain_index(rec.path, rec.text)
