"""Loading a store: walk, read and parse every file (through the store cache), attach the
indexes, then count tokens (`Loading`)."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

from ..base import cache as _cache
from ..base.config import Config, load_config
from ..base.paths import is_within
from . import formats as fmts
from .discovery import StoreError
from .findings import Finding, Severity
from .loading import Loading
from .reading import EXPERIENCE_TOP, attach_index, attach_list_indexes, read_record, walk
from .records import LEVEL_L2
from .serena_patterns import read_patterns
from .store import Store


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
    store's cache (see `curator.base.cache`) is not read: its parsed fields come from the cache and
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
    store = Store(root=root, given=given or str(root), config=cfg, today=today or current_day(), format=fmt)
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
        if resolved.is_dir() and not is_within(resolved, real_root) and not is_within(real_root, resolved):
            roots.append((inc_path, inc.rstrip("/")))
    allowed = [r.resolve() for r, _ in roots]
    only_top = EXPERIENCE_TOP if fmt == fmts.EXPERIENCE and not root.name.endswith("-experience") else None
    if fmt == fmts.SERENA:
        try:
            store.serena_index = fmts.serena_index_file({e.name for e in os.scandir(root) if e.is_file()})
        except OSError:
            store.serena_index = None
    patterns = read_patterns(root) if fmt in (fmts.SERENA, fmts.SERENA_TIERED) else None
    if patterns is not None:
        store.memory_patterns = patterns
        findings += [Finding("parse.error", Severity.WARNING, ".", note) for note in patterns.notes]
    cache = _cache.store_cache(root) if use_cache else None
    if cache is not None:
        cache.begin_walk(f"{cfg!r}\0{fmt}\0{patterns.to_json() if patterns else ''}")
    for base, prefix in roots:
        for rel, abspath in walk(base, prefix, allowed, findings, cfg, only_top if not prefix else None):
            if patterns is not None and patterns.is_ignored(rel):
                patterns.hidden.append(rel)  # Serena never lists, reads or writes it: not counted, not fixed
                continue
            rec = read_record(store, rel, abspath, findings, cache)
            store.records[rel] = rec
    store.records = dict(sorted(store.records.items()))
    if store.adapter.is_tiered:
        for rec in store.records.values():
            if rec.level < LEVEL_L2:
                attach_index(store, rec, cache)
    else:
        attach_list_indexes(store)
    if store.format in (fmts.SERENA_TIERED, fmts.SERENA):
        from .tiering import apply as apply_tiering

        apply_tiering(store)  # tiers and start-up load read from the store (.curator.yaml wins)
    if cache is not None:
        cache.end_walk()
    return Loading(store, token_counter, cache, background)


def current_day() -> date:
    """The day checks count from: CURATOR_TODAY=YYYY-MM-DD fixes it (the tests do)."""
    fixed = os.environ.get("CURATOR_TODAY")
    if fixed:
        try:
            return date.fromisoformat(fixed)
        except ValueError:
            pass
    return date.today()
