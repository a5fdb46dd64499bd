"""orphan.unindexed: semantic memories no index reaches, with the index they likely belong in."""

from __future__ import annotations

from ..config import glob_match
from ..model.findings import Fix
from .context import Context
from .naming_checks import EXEMPT


def likely_index(ctx: Context, path: str, text: str) -> str | None:
    """The index of memories the orphan most likely belongs in (`model.homes.choose_index`:
    never an index of indexes or an observations sidecar; folder, name and content evidence),
    the same index `curator fix` plans its row in."""
    from ..model.homes import Profiles, choose_index

    profiles = ctx.memo("orphan.homes", lambda: Profiles.of(ctx.store))
    return choose_index(ctx.store, path, profiles)


def run(ctx: Context) -> None:
    store, cfg = ctx.store, ctx.config
    routed = store.routes_to
    for path, rec in store.records.items():
        if rec.level != 2 or rec.kind != "memory" or rec.tier != "semantic" or not rec.readable:
            continue
        if path in routed or cfg.is_orphan_allowed(path) or _stem(path) in EXEMPT:
            continue
        if any(glob_match(path, g) for g in cfg.startup_load):
            continue  # auto-loaded at start-up: no index needed
        index = likely_index(ctx, path, rec.text)
        fix = None
        if index:
            # keywords are suggested when the fix is planned (curation.suggest), not for every
            # orphan on every check run
            fix = Fix("index-orphan", f"add a row to {index}", {"path": path, "index": index})
        ctx.add(
            "orphan.unindexed",
            path,
            "no index routes to this memory" + (f"; it likely belongs in {index}" if index else ""),
            suggestion=index,
            fix=fix,
        )


def _stem(path: str) -> str:
    return path.rsplit("/", 1)[-1].removesuffix(".md")
