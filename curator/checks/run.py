"""`run_checks(store)`: every check of the registry that applies, findings sorted by path, line, check."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from ..model.findings import Finding
from ..model.store import Store
from .cached import run_cached
from .context import Context
from .registry import CHECKS, TOKENS, families

# family module -> the check ids it can emit (lets --only skip whole families), from the registry;
# the modules are imported when a run needs them (an unchanged store's findings come from the cache)
FAMILIES = families()


# the families whose checks read token counts run last: a store still being counted
# (`model.counting.Loading`) is finished only when they need it
_TOKEN_FAMILIES = [(n, ids) for n, ids in FAMILIES if any(TOKENS in CHECKS[i].reads for i in ids)]
_ORDER = [f for f in FAMILIES if f not in _TOKEN_FAMILIES] + _TOKEN_FAMILIES


def run_checks(store: Store, only: set[str] | list[str] | None = None, facts_cache=None,
               loading=None, progress: Callable[[float], None] | None = None) -> list[Finding]:
    """The findings of `store`. With `loading` (a `model.counting.Loading` of this store, its
    counts still being made), the checks that read no token run first, then the loading is
    finished (the store frozen with every count) and the rest run: the caller's store is then
    `loading.finish()` — the same, complete snapshot. `progress(fraction)` hears after each
    family of checks that ran (a large store's checks take seconds; a cached result, none)."""
    wanted = set(only) if only else None
    unknown = (wanted or set()) - set(CHECKS)
    if unknown:
        raise ValueError(f"unknown check id(s): {', '.join(sorted(unknown))}")

    def run() -> list[Finding]:
        ctx = Context(store, wanted, facts_cache)
        for done, (name, ids) in enumerate(_ORDER, 1):
            if loading is not None and (name, ids) in _TOKEN_FAMILIES:
                loading.finish()
            if any(ctx.wants(i) for i in ids):
                import_module(f"{__package__}.{name}").run(ctx)
                if progress is not None:
                    progress(done / len(_ORDER))
        if loading is not None:
            loading.finish()
        for f in store.load_findings:
            if ctx.wants(f.check):
                ctx.findings.append(f)
        return sorted(ctx.findings, key=Finding.sort_key)

    if facts_cache is not None:  # a caller with its own facts cache (the app, tests) runs them
        return run()
    return run_cached(store, wanted, run, loading)  # unchanged store: the findings of the last run

