"""Loading a store: discovery, a safe recursive walk, lenient parsing of every file."""

from __future__ import annotations

import hashlib
import marshal
import os
import re
import stat
import time
from collections import defaultdict
from dataclasses import dataclass, field, fields
from datetime import date
from pathlib import Path

from .. import cache as _cache
from ..config import Config, load_config
from . import formats as fmts
from . import markdown as md
from .findings import Finding, Severity
from .frontmatter import split_frontmatter
from .indexes import DomainIndex, IndexLink, IndexRow, L0Index, parse_domain_index, parse_l0
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
from .special import special_finding

L0_NAME = "memory-index.md"


class StoreError(Exception):
    """The store cannot be opened at all (missing, not a folder); the CLI exits 2."""


# ------------------------------------------------------------------ discovery


@dataclass(frozen=True, slots=True)
class Located:
    root: Path  # the store a single-store command works on (the repository's first source)
    given: str  # as the user gave it (or how it was found), for reports
    notice: str | None = None  # e.g. "no store found; showing the bundled sample store"
    is_sample: bool = False
    repo: Path | None = None  # the repository when the path held several memory systems
    layout: object | None = None  # its model.sources.Layout


def locate_store(arg: str | os.PathLike | None, cwd: Path | None = None, demo: bool = True) -> Located:
    """The path given (a store, or a repository holding memory systems), else a repository
    found upward from the current folder, else the bundled sample repository (only when `demo`:
    commands for machines raise StoreError instead of checking the demo)."""
    from ..locations import demo_store
    from .sources import discover, find_repository

    if arg is not None and str(arg) != "":
        path = Path(arg).expanduser()
        if not path.exists():
            raise StoreError(f"store not found: {arg}")
        if not path.is_dir():
            raise StoreError(f"store is not a folder: {arg}")
        return _from_layout(discover(path), str(arg))
    here = (cwd or Path.cwd()).resolve()
    found = find_repository(here)
    if found is not None:
        try:
            shown = str(found.relative_to(here)) or "."
        except ValueError:
            shown = str(found)
        return _from_layout(discover(found), shown)
    if not demo:
        raise StoreError(
            f"no agent memory found in {here} or above (looked for .serena/memories, .claude/memory, "
            "docs/*-experience); give the store's or the repository's path"
        )
    sample, is_copy = demo_store()
    where = f" (your copy: {sample}; delete it to start over)" if is_copy else ""
    located = _from_layout(discover(sample), "sample_memories")
    return Located(
        located.root,
        "sample_memories",
        notice=f"No agent memory found here or above; opened the bundled sample repository{where}.",
        is_sample=True,
        repo=located.repo,
        layout=located.layout,
    )


def _from_layout(layout, given: str) -> Located:
    if layout.single:
        return Located(layout.root, given, layout=layout)
    memory = layout.memory_sources()
    if not memory:
        raise StoreError(
            f"no agent memory found in {given} (looked for .serena/memories, .claude/memory, "
            "docs/*-experience and ~/.claude/projects/<slug>/memory)"
        )
    writable = [s for s in memory if not s.read_only] or memory
    return Located(writable[0].root, given, repo=layout.root, layout=layout)


# ------------------------------------------------------------------ the store


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
    # the TokenCounter that filled record.tokens: the session's (curator.session) — the snapshot
    # only names it, so plans recount with the same encoding
    counter: object | None = None
    format: str = fmts.SERENA_TIERED  # the memory format (model/formats.py)
    repo_root: Path | None = None  # the repository holding the store (links resolve against it)
    # list-dialect indexes other than the always-loaded one (experience folder READMEs)
    list_indexes: dict[str, ListIndex] = field(default_factory=dict)
    serena_index: str | None = None  # a plain Serena store's hand-written index file
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

    def has_view(self, key: str) -> bool:
        return key in self._views

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

    # -- tokens ----------------------------------------------------------

    def count_tokens(self, counter) -> None:
        """Fill `tokens` on every readable record (cached by content hash in the counter).
        Only while the snapshot is being built: `load_store(token_counter=)` calls it."""
        if self._frozen:
            raise FrozenStore("count tokens while loading: load_store(token_counter=...)")
        known = _cache.store_cache(self.root)  # counts kept per file, under their encoding
        _count(counter, self._uncounted(counter, known), known)
        self.encoding = counter.encoding
        self.counter = counter

    def _uncounted(self, counter, known) -> list[Record]:
        """The readable records whose count the store cache does not hold (the others get
        theirs from it now)."""
        encoding = counter.encoding
        entries, HASH, TOKENS = known.entries, _cache.HASH, _cache.TOKENS
        todo = []
        for r in self.records.values():
            if r.error is None:
                e = entries.get(r.path)
                t = e[TOKENS] if e is not None and e[HASH] == r.content_hash and r.content_hash else None
                if t is not None and t[0] == encoding:
                    r.tokens = t[1]
                else:
                    todo.append(r)
        return todo

    # -- a new snapshot after files changed on disk ------------------------

    def evolve(self, changed) -> Store:
        """The snapshot after `changed` (store-relative paths: edited, added, deleted — a rename
        is its old and its new path) were touched on disk. Only those files are read again;
        every other record is this snapshot's own object, and so is every view whose inputs did
        not change. When nothing really changed (the same bytes), this snapshot is returned."""
        changed = sorted({p for p in changed if p})
        if not changed:
            return self
        records = dict(self.records)
        load_findings = [f for f in self.load_findings if f.path not in changed]
        cache = _cache.store_cache(self.root)
        touched: set[str] = set()
        new_recs: list[Record] = []
        index_changed = False
        new = Store(root=self.root, given=self.given, config=self.config, records=records, l0=self.l0,
                    domain_indexes=dict(self.domain_indexes), load_findings=load_findings, today=self.today,
                    encoding=self.encoding, counter=self.counter, format=self.format, repo_root=self.repo_root,
                    list_indexes=dict(self.list_indexes), serena_index=self.serena_index)
        for path in changed:
            old = records.get(path)
            abspath = old.abspath if old is not None else self.root / path
            level, _ = _classify(path, self.format, self._index_name())
            if not self.reads_path(path) or not os.path.isfile(abspath) or self._escapes(abspath, load_findings, path):
                if old is None:
                    continue  # never was a record (and is not one now)
                del records[path]
                cache.drop(path)
                touched.add(NAMES)
                index_changed = index_changed or level < LEVEL_L2
                continue
            rec = _read_record(new, path, abspath, load_findings, cache)
            if old is not None and rec.content_hash == old.content_hash and rec.error == old.error \
                    and rec.content_hash is not None:
                load_findings += [f for f in self.load_findings if f.path == path]
                continue  # the same bytes (e.g. our own write, seen again by the watcher)
            if old is None:
                touched.add(NAMES)
            touched.add(TEXT if rec.level == LEVEL_L2 else INDEXES)
            index_changed = index_changed or rec.level < LEVEL_L2
            records[path] = rec
            new_recs.append(rec)
        if not touched and sorted(load_findings, key=Finding.sort_key) == sorted(self.load_findings, key=Finding.sort_key):
            return self
        if NAMES in touched:
            new.records = dict(sorted(records.items()))
        if self.counter is not None:
            _count(self.counter, [r for r in new_recs if r.error is None], cache)
        if self.adapter.is_tiered:
            if index_changed:
                new.l0 = self.l0 if self.l0 is not None and self.l0.path in new.records else None
                for p in changed:
                    if p in records and records[p] is self.records.get(p):
                        continue  # the same bytes: its parsed index stays (else it showed 0 rows)
                    new.domain_indexes.pop(p, None)
                    if new.l0 is not None and new.l0.path == p:
                        new.l0 = None
                for rec in new_recs:
                    if rec.level < LEVEL_L2:
                        _attach_index(new, rec, cache)
                new.domain_indexes = dict(sorted(new.domain_indexes.items()))
                touched.add(INDEXES)
        elif index_changed or NAMES in touched:
            _attach_list_indexes(new)  # names resolve against the files there are
            touched.add(INDEXES)
        new._views = {k: v for k, v in self._views.items() if not (v[0] & touched)}
        return new.freeze()  # the store cache is saved by whoever owns it (Session.flush)

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
        if any(_is_within(target, a) for a in allowed):
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
        return not self.config.is_excluded(rel)

    def _index_name(self) -> str | None:
        """The always-loaded index of this store's format (None: it has none)."""
        if self.format == fmts.SERENA_TIERED:
            return L0_NAME
        if self.format == fmts.CLAUDE:
            return fmts.CLAUDE_INDEX
        if self.format == fmts.SERENA:
            return self.serena_index
        return None


def _count(counter, todo: list[Record], known) -> None:
    """Token counts for records of a snapshot being built, kept in the store cache."""
    encoding = counter.encoding
    counts = counter.count_many([(r.content_hash, r.text) for r in todo]) if todo else []
    _set_counts(counter, encoding, todo, counts, known)


def _count_in_child(send, lengths, texts) -> None:
    try:
        send.send(lengths(texts))
    except BaseException:  # noqa: BLE001 - the parent sees no result and counts itself
        pass
    finally:
        send.close()


def _set_counts(counter, encoding: str, todo: list[Record], counts: list[int], known) -> None:
    for r, n in zip(todo, counts, strict=True):
        r.tokens = n
        if counter.encoding == encoding and r.content_hash:
            known.set_tokens(r.path, r.content_hash, encoding, n)


class Loading:
    """A snapshot being built whose token counts are made elsewhere — a forked process, else a
    thread (see `_fork`) — while the caller goes on (counting is most of a cold load):
    `store` has every record read and parsed but no new counts yet, and is not frozen;
    `finish()` waits for the counts, fills them in and freezes it. Between the two, whatever
    reads no token may run on `store` (the checks that declare no TOKENS read:
    `checks.run_checks(loading=)`); nothing else sees it. The worker only counts: the records
    and the store cache are touched on the caller's thread, in `finish`."""

    def __init__(self, store: Store, counter, cache, background: bool = True) -> None:
        import threading

        self.store = store
        self._counter = counter
        self._cache = cache
        self._counts: list[int] | None = None
        self._error: BaseException | None = None
        self._thread = None
        self._process = None
        self._todo: list[Record] = []
        self._encoding = counter.encoding if counter is not None else None
        if counter is None:
            return
        self._todo = store._uncounted(counter, self._known())
        if not self._todo:
            self._counts = []
            return
        items = [(r.content_hash, r.text) for r in self._todo]  # texts read here, not there
        if background and self._fork(items):
            return
        if background:
            self._thread = threading.Thread(target=self._work, args=(items,), name="curator-count", daemon=True)
            self._thread.start()
        else:
            self._work(items)

    def _known(self):
        """Where the counts are kept: the load's own store cache, else the store's."""
        return self._cache if self._cache is not None else _cache.store_cache(self.store.root)

    def _fork(self, items) -> bool:
        """Count in a forked process (a thread would wait for the GIL after every file while
        the checks hold it): where `fork` is safe — Linux, no other thread — and useful (two
        processors or more), and the counter can hand its cache lookups and its results
        across (`lookup` / `learn`)."""
        import sys
        import threading

        counter = self._counter
        if sys.platform != "linux" or threading.active_count() > 1 or not hasattr(counter, "learn"):
            return False
        if len(os.sched_getaffinity(0)) < 2:
            return False  # one processor: a second process only adds its start
        import multiprocessing

        from .. import tokens

        out, missing = counter.lookup(items)
        texts = [items[i][1] for i in missing]
        if not texts:
            self._counts = [int(n or 0) for n in out]
            return True
        for stream in (sys.stdout, sys.stderr):
            stream.flush()  # the child must not write the parent's buffered output again
        ctx = multiprocessing.get_context("fork")
        receive, send = ctx.Pipe(duplex=False)
        try:
            proc = ctx.Process(target=_count_in_child, args=(send, tokens.lengths, texts), daemon=True,
                               name="curator-count")
            proc.start()
        except OSError:
            return False  # no process to spare: a thread counts
        send.close()
        self._process = (proc, receive, items, out, missing)
        return True

    def _work(self, items) -> None:
        try:
            self._counts = self._counter.count_many(items)
        except BaseException as exc:  # noqa: BLE001 - raised again by finish, on the caller's thread
            self._error = exc

    def _collect(self) -> None:
        """The forked counter's results (counted here instead when it failed)."""
        proc, receive, items, out, missing = self._process
        self._process = None
        try:
            encoding, counts, reason = receive.recv()
        except (EOFError, OSError, ValueError, TypeError):
            encoding = None
        finally:
            receive.close()
            proc.join()
        if encoding is None or len(counts) != len(missing):
            self._work(items)  # the child died: count here
        else:
            self._counts = self._counter.learn(items, out, missing, counts, encoding, reason)

    def finish(self) -> Store:
        store = self.store
        if store.frozen:
            return store
        if self._process is not None:
            self._collect()
        if self._thread is not None:
            self._thread.join()
        if self._error is not None:
            raise self._error
        counter = self._counter
        if counter is not None:
            _set_counts(counter, self._encoding, self._todo, self._counts or [], self._known())
            store.encoding = counter.encoding
            store.counter = counter
        if self._cache is not None:
            self._cache.save()
        return store.freeze()


# ------------------------------------------------------------------ loading


def load_store(
    root: Path | str,
    *,
    given: str | None = None,
    config: Config | None = None,
    today: date | None = None,
    token_counter=None,
    fmt: str | None = None,
    repo_root: Path | None = None,
    use_cache: bool = True,
) -> Store:
    """Walk and read the store. With `use_cache`, a file whose stat key matches its entry in the
    store's cache (see `curator.cache`) is not read: its parsed fields come from the cache and
    its text is read only if something asks for it."""
    return begin_load(root, given=given, config=config, today=today, token_counter=token_counter, fmt=fmt,
                      repo_root=repo_root, use_cache=use_cache, background=False).finish()


def begin_load(
    root: Path | str,
    *,
    given: str | None = None,
    config: Config | None = None,
    today: date | None = None,
    token_counter=None,
    fmt: str | None = None,
    repo_root: Path | None = None,
    use_cache: bool = True,
    background: bool = True,
) -> Loading:
    """`load_store` whose token counts are made elsewhere (`background`) while the caller goes
    on with the store: see `Loading`."""
    root = Path(root)
    if not root.exists():
        raise StoreError(f"store not found: {given or root}")
    if not root.is_dir():
        raise StoreError(f"store is not a folder: {given or root}")
    cfg = config if config is not None else load_config(root)
    fmt = fmt or fmts.detect_format(root)
    store = Store(root=root, given=given or str(root), config=cfg, today=today or _today(), format=fmt)
    store.repo_root = repo_root
    findings = store.load_findings
    findings += [Finding("parse.error", Severity.ERROR, ".curator.yaml", note) for note in cfg.refused]  # trust.py
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
    only_top = EXPERIENCE_TOP if fmt == fmts.EXPERIENCE and not root.name.endswith("-experience") else None
    if fmt == fmts.SERENA:
        try:
            store.serena_index = fmts.serena_index_file({e.name for e in os.scandir(root) if e.is_file()})
        except OSError:
            store.serena_index = None
    cache = _cache.store_cache(root) if use_cache else None
    if cache is not None:
        cache.begin_walk(f"{cfg!r}\0{fmt}")
    for base, prefix in roots:
        for rel, abspath in _walk(base, prefix, allowed, findings, cfg, only_top if not prefix else None):
            rec = _read_record(store, rel, abspath, findings, cache)
            store.records[rel] = rec
    store.records = dict(sorted(store.records.items()))
    if store.adapter.is_tiered:
        for rec in store.records.values():
            if rec.level < LEVEL_L2:
                _attach_index(store, rec, cache)
    else:
        _attach_list_indexes(store)
    if store.format in (fmts.SERENA_TIERED, fmts.SERENA):
        from .tiering import apply as apply_tiering

        apply_tiering(store)  # tiers and start-up load read from the store (.curator.yaml wins)
    if cache is not None:
        cache.end_walk()
    return Loading(store, token_counter, cache, background)


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


# an experience source rooted at `docs/` reads only the experience folders and their indexes
EXPERIENCE_TOP = re.compile(r"^[\w.-]*-experience(\.md)?$")


def _walk(base: Path, prefix: str, allowed: list[Path], findings: list[Finding], cfg: Config, only_top=None):
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
            if only_top is not None and folder == base and not only_top.match(entry.name):
                continue
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
                    special = special_finding(rel, target)  # a link to a FIFO or a device
                    if special is not None:
                        findings.append(special)
                    elif entry.name.endswith(".md"):
                        yield rel, entry.path
                    continue
                if entry.is_dir(follow_symlinks=False):
                    stack.append((Path(entry.path), rel))
                elif entry.name.endswith(".md") and entry.is_file(follow_symlinks=False):
                    yield rel, entry.path
                elif not entry.is_file(follow_symlinks=False) and (special := special_finding(rel, entry.path)):
                    findings.append(special)  # never opened (model/special.py)
            except OSError as exc:
                findings.append(Finding("parse.error", Severity.ERROR, rel, f"cannot read: {exc}"))


def _logical(rel: str) -> str:
    while rel.startswith("../"):
        rel = rel[3:]
    return rel


def _classify(rel: str, fmt: str = fmts.SERENA_TIERED, index_name: str | None = None) -> tuple[int, str]:
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


def _read_record(store: Store, rel: str, abspath, findings: list[Finding], cache=None) -> Record:
    level, kind = _classify(rel, store.format, store._index_name())
    if cache is not None:
        hit = _from_cache(cache, store.config, rel, abspath, level, kind, findings)
        if hit is not None:
            return hit
    tier = _tier(store.config, rel, level)
    abspath = Path(abspath)
    rec = Record(path=rel, abspath=abspath, tier=tier, level=level, kind=kind)
    limit = store.config.thresholds.max_file_bytes
    verified_ns = time.time_ns()  # before the read: a later edit in the same tick is racy

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
        fail("binary file (contains NUL bytes), not markdown")
        if cache is not None:
            cache.put(rel, _cache.stat_key(st), verified_ns, rec.content_hash, rec.error, None)
        return rec
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        fail(f"not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start})")
        if cache is not None:
            cache.put(rel, _cache.stat_key(st), verified_ns, rec.content_hash, rec.error, None)
        return rec
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
    if cache is not None:
        data, encoded = _plain_frontmatter(rec.frontmatter)
        if data is not None:
            fields = (rec.title, data, encoded, rec.frontmatter_error, rec.frontmatter_error_line,
                      rec.body_line, rec.date, rec.meta, len(text))
            cache.put(rel, _cache.stat_key(st), verified_ns, rec.content_hash, None, fields, tier)
    return rec


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
    rec.frontmatter = _unplain(data) if encoded else data
    rec.error = None
    _TEXT.__set__(rec, None)
    return rec


def _plain_frontmatter(data: dict) -> tuple[object, bool]:
    """(what marshal can store, whether dates had to be tagged) — (None, False) when neither."""
    try:
        marshal.dumps(data)
        return data, False
    except ValueError:
        pass
    try:
        plain = _plain(data)
        marshal.dumps(plain)
        return plain, True
    except (ValueError, TypeError):
        return None, False


def _plain(value):
    # YAML's safe loader never makes tuples, so a tuple marks a tagged value
    from datetime import date, datetime

    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, datetime):
        return ("datetime", value.isoformat())
    if isinstance(value, date):
        return ("date", value.isoformat())
    if value is None or isinstance(value, (str, int, float, bool, bytes, set, frozenset)):
        return value
    raise TypeError(type(value).__name__)


def _unplain(value):
    from datetime import date, datetime

    if isinstance(value, dict):
        return {_unplain(k): _unplain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_unplain(v) for v in value]
    if isinstance(value, tuple) and len(value) == 2:
        return datetime.fromisoformat(value[1]) if value[0] == "datetime" else date.fromisoformat(value[1])
    return value


def _fm_date(data: dict) -> str | None:
    value = data.get("date")
    if value is None:
        return None
    text = str(value)
    return md.date_in_name(text)


def _mb(n: int) -> str:
    return f"{n / 1_000_000:.1f} MB"


def _attach_list_indexes(store: Store) -> None:
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


def _attach_index(store: Store, rec: Record, cache=None) -> None:
    if not rec.readable or rec.kind not in (L0_INDEX, DOMAIN_INDEX):
        return
    parsed = None
    if cache is not None and rec.content_hash:
        parsed = _decode_index(cache.index(rec.path, rec.content_hash))
    if parsed is None:
        if rec.kind == L0_INDEX:
            parsed = parse_l0(rec.path, rec.text)
        else:
            parsed = parse_domain_index(rec.path, rec.text)
        if cache is not None and rec.content_hash:
            encoded = _encode_index(parsed)
            if encoded is not None:
                cache.set_index(rec.path, rec.content_hash, encoded)
    if rec.kind == L0_INDEX:
        store.l0 = parsed
    else:
        store.domain_indexes[rec.path] = parsed


# a parsed index as plain tuples (field values in declaration order; private fields are derived)
_INDEX_TYPES = {"L0Index": L0Index, "DomainIndex": DomainIndex}
_ROW_FIELDS = tuple(f.name for f in fields(IndexRow) if not f.name.startswith("_"))
_LINK_FIELDS = tuple(f.name for f in fields(IndexLink) if not f.name.startswith("_"))
# rows and links are rebuilt positionally: their public fields must come first
assert tuple(f.name for f in fields(IndexRow))[: len(_ROW_FIELDS)] == _ROW_FIELDS
assert tuple(f.name for f in fields(IndexLink))[: len(_LINK_FIELDS)] == _LINK_FIELDS


def _encode_index(idx) -> tuple | None:
    try:
        values = {}
        for f in fields(idx):
            value = getattr(idx, f.name)
            if f.name == "rows":
                value = tuple(
                    tuple(
                        tuple(tuple(getattr(link, n) for n in _LINK_FIELDS) for link in row.links)
                        if n == "links" else getattr(row, n)
                        for n in _ROW_FIELDS
                    )
                    for row in value
                )
            values[f.name] = value
        encoded = (type(idx).__name__, values)
        marshal.dumps(encoded)
        return encoded
    except (ValueError, TypeError, AttributeError):
        return None  # a value marshal cannot store: parsed again next time


def _decode_index(encoded):
    if encoded is None:
        return None
    try:
        kind, values = encoded
        li = _ROW_FIELDS.index("links")
        rows = []
        link = IndexLink
        for t in values["rows"]:
            if len(t) != len(_ROW_FIELDS):
                return None
            t = list(t)
            t[li] = [link(*x) for x in t[li]]
            rows.append(IndexRow(*t))  # public fields lead, in declaration order (checked below)
        return _INDEX_TYPES[kind](**{**values, "rows": rows})
    except (KeyError, TypeError, ValueError):
        return None
