"""Loading a store: walk, read and parse every file (through the store cache), attach the
indexes, then count tokens (`Loading`). How is one `LoadOptions` value, built once by a face
(the CLI from its arguments, the app from its settings) and passed down."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

from ..base import cache as _cache
from ..base.config import Config, load_config, pinned
from ..base.paths import is_within
from ..base.today import current_day
from . import formats as fmts
from .discovery import StoreError
from .findings import Finding, Severity
from .loading import Loading
from .reading import attach_index, attach_list_indexes, read_record
from .records import LEVEL_L2
from .serena_patterns import MemoryPatterns, read_patterns
from .store import Store
from .walk import EXPERIENCE_TOP, walk

READ_STEP = 256  # files read between two reports of a load's walk (`begin_load(read=…)`)


@dataclass(frozen=True)
class LoadOptions:
    """How a store is loaded, and what runs on it once loaded (`live.workspace.open_workspace`
    and the workbench read `check`, `only`, `budgets`; `load_store` the rest)."""

    given: str | None = None  # the path as the user typed it (messages); None: the root
    config: Config | None = None  # None: the store's own .curator.yaml
    today: date | None = None  # None: `current_day()`
    token_counter: object = None  # base.tokens.TokenCounter; None: no counts
    # () → duplicate.topic's vectors, or None (`live.semantic_embedder`: the faces hand it in;
    # the checks stand below retrieval and never import it); None here: that check is silent
    meaning: Callable[[], object] | None = None
    fmt: str | None = None  # None: detected from the files
    repo_root: Path | None = None  # the repository the store belongs to (a source of several)
    use_cache: bool = True  # the store cache: an unchanged file is not read again
    check: bool = True  # False: load only (no findings, no budgets)
    only: frozenset[str] | None = None  # the checks to run (None: all)
    budgets: bool = True  # False: the budget report is built when first asked for
    agents: tuple[str, ...] | None = None  # the instruction checks' agents (`NAME[@VERSION]`; None: every present one)

    def but(self, **changes) -> LoadOptions:
        """These options with some fields changed (`dataclasses.replace`)."""
        if changes.get("only") is not None:
            changes["only"] = frozenset(changes["only"])
        return replace(self, **changes)


DEFAULT = LoadOptions()


def load_store(root: Path | str, options: LoadOptions = DEFAULT, **changes) -> Store:
    """Walk and read the store (`changes`: fields of `options` changed for this load). With
    `use_cache`, a file whose stat key matches its entry in the store's cache (see
    `curator.base.cache`) is not read: its parsed fields come from the cache and its text is read
    only if something asks for it."""
    return begin_load(root, options.but(**changes), background=False).finish()


def begin_load(root: Path | str, options: LoadOptions = DEFAULT, *, background: bool = True,
               read: Callable[[int], None] | None = None, **changes) -> Loading:
    """`load_store` whose token counts are made elsewhere (`background`) while the caller goes
    on with the store: see `Loading`. `read(n)` hears every READ_STEP files the walk has read."""
    opts = options.but(**changes)
    store = _new_store(Path(root), opts)
    patterns = _patterns(store)
    cache = _cache.store_cache(store.root) if opts.use_cache else None
    if cache is not None:
        cache.begin_walk(f"{store.config!r}\0{store.format}\0{patterns.to_json() if patterns else ''}")
    _read_records(store, patterns, cache, read)
    _attach_indexes(store, cache)
    if cache is not None:
        cache.end_walk()
    return Loading(store, opts.token_counter, cache, background)


def _new_store(root: Path, opts: LoadOptions) -> Store:
    """The empty store: its config (with what the config refused as findings) and format."""
    if not root.exists():
        raise StoreError(f"store not found: {opts.given or root}")
    if not root.is_dir():
        raise StoreError(f"store is not a folder: {opts.given or root}")
    cfg = pinned(opts.config if opts.config is not None else load_config(root), opts.agents)
    store = Store(root=root, given=opts.given or str(root), config=cfg, today=opts.today or current_day(),
                  format=opts.fmt or fmts.detect_format(root))
    store.repo_root = opts.repo_root
    store.meaning = opts.meaning
    store.load_findings += [Finding("parse.error", Severity.ERROR, ".curator.yaml", note)
                            for note in cfg.refused]  # trust.py
    return store


def _patterns(store: Store) -> MemoryPatterns | None:
    """A Serena store's index file and ignore patterns (their notes become findings)."""
    root, fmt = store.root, store.format
    if fmt == fmts.SERENA:
        try:
            store.serena_index = fmts.serena_index_file({e.name for e in os.scandir(root) if e.is_file()})
        except OSError:
            store.serena_index = None
    patterns = read_patterns(root) if fmt in (fmts.SERENA, fmts.SERENA_TIERED) else None
    if patterns is not None:
        store.memory_patterns = patterns
        store.load_findings += [Finding("parse.error", Severity.WARNING, ".", note) for note in patterns.notes]
    return patterns


def _roots(root: Path, cfg: Config) -> list[tuple[Path, str]]:
    """(folder, prefix) to walk: the store, then each folder its config includes that neither
    holds it nor lies inside it."""
    real_root = root.resolve()
    roots = [(root, "")]
    for inc in cfg.include:
        inc_path = root / inc
        try:
            resolved = inc_path.resolve()
        except (OSError, RuntimeError):
            continue
        if resolved.is_dir() and not is_within(resolved, real_root) and not is_within(real_root, resolved):
            roots.append((inc_path, inc.rstrip("/")))
    return roots


def _read_records(store: Store, patterns: MemoryPatterns | None, cache, read: Callable[[int], None] | None) -> None:
    """Every file the walk finds, read (or taken from the cache) into `store.records`, sorted."""
    root, fmt, cfg = store.root, store.format, store.config
    roots = _roots(root, cfg)
    allowed = [r.resolve() for r, _ in roots]
    only_top = EXPERIENCE_TOP if fmt == fmts.EXPERIENCE and not root.name.endswith("-experience") else None
    for base, prefix in roots:
        for rel, abspath in walk(base, prefix, allowed, store.load_findings, cfg, only_top if not prefix else None):
            if patterns is not None and patterns.is_ignored(rel):
                patterns.hidden.append(rel)  # Serena never lists, reads or writes it: not counted, not fixed
                continue
            store.records[rel] = read_record(store, rel, abspath, store.load_findings, cache)
            if read is not None and len(store.records) % READ_STEP == 0:
                read(len(store.records))
    store.records = dict(sorted(store.records.items()))
    if fmt == fmts.SERENA:
        from .serena_listing import say_linked

        say_linked(store)


def _attach_indexes(store: Store, cache) -> None:
    """The indexes linked to their records; a Serena store's tiers and start-up load."""
    if store.adapter.is_tiered:
        for rec in store.records.values():
            if rec.level < LEVEL_L2:
                attach_index(store, rec, cache)
    else:
        attach_list_indexes(store)
    if store.format in (fmts.SERENA_TIERED, fmts.SERENA):
        from .tiering import apply as apply_tiering

        apply_tiering(store)  # tiers and start-up load read from the store (.curator.yaml wins)


