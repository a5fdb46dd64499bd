"""orphan.unindexed: semantic memories no index reaches, with the index they likely belong in."""

from __future__ import annotations

from collections import Counter

from ..config import glob_match
from ..model.findings import Fix
from ..model.vocabulary import content_words
from .context import Context
from .naming_checks import EXEMPT


def likely_index(ctx: Context, path: str, text: str) -> str | None:
    """The domain index whose targets share the memory's folder; else the best keyword overlap."""
    by_folder, keywords = ctx.memo("orphan.index_tables", lambda: _index_tables(ctx))
    folder = path.rsplit("/", 1)[0] if "/" in path else ""
    if folder and by_folder.get(folder):
        return by_folder[folder].most_common(1)[0][0]
    words = set(content_words(text))
    best, best_score = None, 0
    for ipath, kws in keywords.items():
        score = len(words & kws)
        if score > best_score:
            best, best_score = ipath, score
    return best


def _index_tables(ctx: Context):
    by_folder: dict[str, Counter] = {}
    keywords: dict[str, set[str]] = {}
    for ipath, idx in ctx.store.domain_indexes.items():
        keywords[ipath] = {k for row in idx.rows for k in row.keyword_set}
        for row in idx.rows:
            for link in row.links:
                if "/" in link.target:
                    by_folder.setdefault(link.target.rsplit("/", 1)[0], Counter())[ipath] += 1
    return by_folder, keywords


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
