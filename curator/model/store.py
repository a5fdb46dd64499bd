"""The store snapshot: one immutable `Store` (records, indexes, derived views) and `evolve`,
the next snapshot after files changed on disk."""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from ..base import cache as _cache
from ..base.config import Config
from ..base.paths import is_within
from . import formats as fmts
from .counting import count_records
from .findings import Finding, Severity
from .indexes import DomainIndex, IndexLink, IndexRow, L0Index
from .list_index import ListIndex
from .reading import L0_NAME, attach_index, attach_list_indexes, classify, read_record
from .records import LEVEL_L2, UNREADABLE, Record
from .serena_patterns import MemoryPatterns
from .walk import EXPERIENCE_TOP

if TYPE_CHECKING:  # a type only: the fast retrieve path never loads the tokenizer's module
    from ..base.tokens import TokenCounter


@dataclass(slots=True)
class Route:
    """One index row that routes to a file."""

    index: str  # path of the index holding the row
    row: IndexRow
    link: IndexLink


class FrozenStore(AttributeError):
    """A snapshot was asked to change; build a new one with `Store.evolve`."""


# what a derived view reads: it is carried into an evolved snapshot when none of these changed
TEXT = "text"  # the contents of memories (L2)
INDEXES = "indexes"  # the index files (rows, routes)
NAMES = "names"  # which files exist (an addition, a deletion or a rename)
EVERYTHING = frozenset({TEXT, INDEXES, NAMES})


@dataclass(eq=False)
class Store:
    """One immutable snapshot of a store. The loader (`load_store`) and `evolve` build it and
    then `freeze()` it: from then on nothing assigns to it (`FrozenStore`) and its records are
    never changed; a change on disk is a new snapshot from `evolve(paths)`, which shares every
    unchanged record (and every derived view whose inputs did not change) with this one."""

    root: Path
    given: str
    config: Config
    records: dict[str, Record] = field(default_factory=dict)
    l0: L0Index | None = None
    domain_indexes: dict[str, DomainIndex] = field(default_factory=dict)
    load_findings: list[Finding] = field(default_factory=list)
    today: date = field(default_factory=date.today)
    encoding: str = "none"  # the token encoding used: cl100k_base | estimate | none
    # the TokenCounter that filled record.tokens: the session's (curator.live.workbench) — the snapshot
    # only names it, so plans recount with the same encoding
    counter: TokenCounter | None = None
    # the face's vectors by meaning for duplicate.topic (`LoadOptions.meaning`): named, like the
    # counter, so every check run on this snapshot and the next has them; None: that check is silent
    meaning: Callable[[], object] | None = None
    format: str = fmts.SERENA_TIERED  # the memory format (model/formats.py)
    repo_root: Path | None = None  # the repository holding the store (links resolve against it)
    # list-dialect indexes other than the always-loaded one (experience folder READMEs)
    list_indexes: dict[str, ListIndex] = field(default_factory=dict)
    serena_index: str | None = None  # a plain Serena store's hand-written index file
    # Serena's ignored/read-only memory patterns (model/serena_patterns.py); None: none set
    memory_patterns: MemoryPatterns | None = None
    # derived views of this snapshot: key -> (what it reads, value); see `view`
    _views: dict = field(default_factory=dict, repr=False)
    _frozen: bool = field(default=False, repr=False)

    def __setattr__(self, name: str, value) -> None:
        if self.__dict__.get("_frozen"):
            raise FrozenStore(f"a store snapshot is immutable (set {name!r}); use evolve()")
        object.__setattr__(self, name, value)

    def freeze(self) -> Store:
        """No more assignments (the loader calls this when the snapshot is complete)."""
        object.__setattr__(self, "_frozen", True)
        return self

    @property
    def frozen(self) -> bool:
        return self._frozen

    @property
    def adapter(self) -> fmts.Format:
        return fmts.adapter(self.format)

    # -- derived views (computed once per snapshot) -------------------------

    def view(self, key: str, build, reads: frozenset[str] | set[str] = EVERYTHING):
        """A view services derive from this snapshot (word statistics, the retrieval engine,
        keyword use): built on first use, kept for the snapshot's life. `reads` says what it
        depends on (TEXT, INDEXES, NAMES): `evolve` hands it to the next snapshot when none of
        those changed. Views are thread-safe enough: two threads may build it twice, one wins."""
        got = self._views.get(key)
        if got is None:
            got = (frozenset(reads), build())
            self._views[key] = got
        return got[1]

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
        out += [(p, d.rows) for p, d in sorted(self.list_indexes.items())]
        return out

    @property
    def routes_to(self) -> dict[str, list[Route]]:
        """target path -> the index rows that point at it (a view: it reads the indexes only)."""
        return self.view("model.routes", self._routes, reads={INDEXES})

    def _routes(self) -> dict[str, list[Route]]:
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

    # -- a new snapshot after files changed on disk ------------------------

    def evolve(self, changed) -> Store:
        """The snapshot after `changed` (store-relative paths: edited, added, deleted — a rename
        is its old and its new path) were touched on disk. Only those files are read again;
        every other record is this snapshot's own object, and so is every view whose inputs did
        not change. When nothing really changed (the same bytes), this snapshot is returned."""
        changed = sorted({p for p in changed if p})
        if not changed:
            return self
        step = _Evolving(self._successor(changed), _cache.store_cache(self.root))
        for path in changed:
            self._reread(step, path)
        new, touched = step.new, step.touched
        if not touched and sorted(new.load_findings, key=Finding.sort_key) == sorted(self.load_findings,
                                                                                   key=Finding.sort_key):
            return self
        if NAMES in touched:
            new.records = dict(sorted(new.records.items()))
        if self.counter is not None:
            count_records(self.counter, [r for r in step.new_recs if r.error is None], step.cache)
        self._reindex(step, changed)
        new._views = {k: v for k, v in self._views.items() if not (v[0] & touched)}
        return new.freeze()  # the store cache is saved by whoever owns it (Workbench.flush)

    def _successor(self, changed: list[str]) -> Store:
        """The next snapshot before any file is read again: this one's records, indexes and
        settings, without the load findings of the changed files."""
        return Store(root=self.root, given=self.given, config=self.config, records=dict(self.records), l0=self.l0,
                     domain_indexes=dict(self.domain_indexes), today=self.today,
                     load_findings=[f for f in self.load_findings if f.path not in changed],
                     encoding=self.encoding, counter=self.counter, meaning=self.meaning, format=self.format,
                     repo_root=self.repo_root, list_indexes=dict(self.list_indexes), serena_index=self.serena_index,
                     memory_patterns=self.memory_patterns)

    def _reread(self, step: _Evolving, path: str) -> None:
        """One changed path into the next snapshot: gone (or no longer read), the same bytes
        (nothing but its load findings carried over), or a new record."""
        new, records = step.new, step.new.records
        old = records.get(path)
        abspath = old.abspath if old is not None else self.root / path
        level, _ = classify(path, self.format, self.index_name())
        if not self.reads_path(path) or not os.path.isfile(abspath) or self._escapes(abspath, new.load_findings, path):
            if old is not None:  # (else never was a record, and is not one now)
                del records[path]
                step.cache.drop(path)
                step.touched.add(NAMES)
                step.index_changed = step.index_changed or level < LEVEL_L2
            return
        rec = read_record(new, path, abspath, new.load_findings, step.cache)
        if old is not None and rec.content_hash == old.content_hash and rec.error == old.error \
                and rec.content_hash is not None:
            new.load_findings += [f for f in self.load_findings if f.path == path]
            return  # the same bytes (e.g. our own write, seen again by the watcher)
        if old is None:
            step.touched.add(NAMES)
        step.touched.add(TEXT if rec.level == LEVEL_L2 else INDEXES)
        step.index_changed = step.index_changed or rec.level < LEVEL_L2
        records[path] = rec
        step.new_recs.append(rec)

    def _reindex(self, step: _Evolving, changed: list[str]) -> None:
        """The next snapshot's indexes, parsed again where an index file (or, for list indexes,
        a name they resolve) changed."""
        new = step.new
        if self.adapter.is_tiered:
            if not step.index_changed:
                return
            new.l0 = self.l0 if self.l0 is not None and self.l0.path in new.records else None
            for p in changed:
                if p in new.records and new.records[p] is self.records.get(p):
                    continue  # the same bytes: its parsed index stays (else it showed 0 rows)
                new.domain_indexes.pop(p, None)
                if new.l0 is not None and new.l0.path == p:
                    new.l0 = None
            for rec in step.new_recs:
                if rec.level < LEVEL_L2:
                    attach_index(new, rec, step.cache)
            new.domain_indexes = dict(sorted(new.domain_indexes.items()))
            step.touched.add(INDEXES)
        elif step.index_changed or NAMES in step.touched:
            attach_list_indexes(new)  # names resolve against the files there are
            step.touched.add(INDEXES)

    def _escapes(self, abspath, findings: list[Finding], rel: str) -> bool:
        """A symbolic link that leaves the store (as the walk reports it): never read."""
        if not os.path.islink(abspath):
            return False
        try:
            target = Path(abspath).resolve(strict=True)
        except (OSError, RuntimeError):
            findings.append(Finding("parse.error", Severity.ERROR, rel, "symbolic link is broken or loops"))
            return True
        allowed = [self.root.resolve()] + [(self.root / inc).resolve() for inc in self.config.include]
        if any(is_within(target, a) for a in allowed):
            return False
        findings.append(Finding("index.unsafe-target", Severity.ERROR, rel, "symbolic link leaves the store; not read",
                                target=str(target)))
        return True

    def reads_path(self, rel: str) -> bool:
        """Would the loader's walk read this path? (markdown; nothing hidden, so not `.curator/`
        nor an editor's swap file; not excluded; an experience source's own folders only)"""
        if not rel.endswith(".md"):
            return False
        parts = [p for p in rel.split("/") if p != ".."]
        if not parts or any(p.startswith(".") and p != ".serena" for p in parts):
            return False
        if self.format == fmts.EXPERIENCE and not self.root.name.endswith("-experience") \
                and not rel.startswith("../") and not EXPERIENCE_TOP.match(parts[0]):
            return False
        patterns = self.memory_patterns
        if patterns is not None and patterns.is_ignored(rel):
            return False  # Serena's ignored_memory_patterns: never loaded
        return not self.config.is_excluded(rel)

    def index_name(self) -> str | None:
        """The always-loaded index of this store's format (None: it has none)."""
        if self.format == fmts.SERENA_TIERED:
            return L0_NAME
        if self.format == fmts.CLAUDE:
            return fmts.CLAUDE_INDEX
        if self.format == fmts.SERENA:
            return self.serena_index
        return None

    def unread_index(self) -> Record | None:
        """The index file when it is there but curator could not read it (not UTF-8, too large):
        the agent may still load it, so nothing is said of what it lists."""
        name = self.index_name()
        rec = self.records.get(name) if name else None
        return rec if rec is not None and rec.kind == UNREADABLE else None


@dataclass
class _Evolving:
    """What `Store.evolve`'s steps share: the next snapshot being built, the store cache, and
    what the changed files touched (which views and indexes must be made again)."""

    new: Store
    cache: _cache.StoreCache
    touched: set[str] = field(default_factory=set)
    new_recs: list[Record] = field(default_factory=list)
    index_changed: bool = False
