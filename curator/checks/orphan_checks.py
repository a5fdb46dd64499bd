"""orphan.unindexed: semantic memories no index reaches, with the index they likely belong in."""

from __future__ import annotations

from ..base.config import glob_match
from ..model import formats as fmts
from ..model.findings import IndexOrphan, ListEntry, Severity
from ..model.tiering import is_log
from .context import Context
from .naming_checks import EXEMPT
from .superseded_checks import superseded


def likely_index(ctx: Context, path: str, text: str) -> str | None:
    """The index of memories the orphan most likely belongs in (`model.homes.choose_index`:
    never an index of indexes or an observations sidecar; folder, name and content evidence),
    the same index `curator fix` plans its row in."""
    from ..model.homes import Profiles, choose_index

    profiles = ctx.memo("orphan.homes", lambda: Profiles.of(ctx.store))
    return choose_index(ctx.store, path, profiles)


PATHWISE = ("orphan.unindexed",)  # a tiered store's finding of a memory reads its text only


def pathwise(store) -> bool:
    """Whether a re-check after a text edit may run the check on the edited memories alone:
    in a tiered store an orphan's finding reads its own text (superseded, likely index) and the
    indexes; the other formats' findings read names and listings, not text."""
    return store.format == fmts.SERENA_TIERED


def recheck(ctx: Context, homes=None):
    """`ctx.paths`' findings after a text edit, the indexes' profiles (`model.homes.Profiles`)
    reused from the last run: they read the indexes and names, which a text edit leaves alone.
    Returns the profiles, for the next re-check."""
    if homes is not None:
        homes = homes.moved_to(ctx.store)
        ctx.memo("orphan.homes", lambda: homes)
    if ctx.wants("orphan.unindexed"):
        _tiered(ctx)
    return ctx.memo("orphan.homes", lambda: None) if ctx.wants("orphan.unindexed") else homes


def run(ctx: Context) -> None:
    fmt = ctx.store.format
    if fmt == fmts.SERENA_TIERED:
        _tiered(ctx)
    elif fmt == fmts.SERENA:
        _names_only(ctx)
    else:
        _listed(ctx)


def _candidates(ctx: Context) -> list[str]:
    cfg = ctx.config
    return [
        path
        for path, rec in ctx.store.records.items()
        if rec.level == 2 and rec.readable and not cfg.is_orphan_allowed(path) and _stem(path) not in EXEMPT
    ]


def _names_only(ctx: Context) -> None:
    """Plain Serena: `list_memories` shows the agent every name, so an unlisted memory is not
    lost — one finding for the store, with advice, never one per file."""
    store = ctx.store
    # session logs (transient records, or a plain store's dated logs) are not meant to be listed
    candidates = _candidates(ctx)
    memories = [p for p in candidates if not is_log(ctx.config, store.records[p])]
    # said, so "of 32 memories" reads against the 35 records every other screen counts
    logs = [store.records[p] for p in candidates if p not in set(memories)]
    n_aside = len(logs)
    what = "transient record" if all(r.tier == "transient" for r in logs) else "dated session log"
    aside = f" ({n_aside} {what}{'s' if n_aside != 1 else ''} aside)" if n_aside else ""
    if not memories:
        return
    if store.l0 is None:
        catalog = _catalog(store, memories)
        if catalog is not None:  # a registry by another name (pause-monitor's catalog-memory.md)
            path, named = catalog
            missing = [p for p in memories if p not in named and p != path]
            if missing:
                shown = _first_names(missing)
                ctx.add("orphan.unindexed", path,
                        f"names {len(memories) - 1 - len(missing)} of {len(memories) - 1} memories; "
                        f"{len(missing)} {'is' if len(missing) == 1 else 'are'} not named ({shown}) — the agent "
                        "still sees their names through list_memories", severity=Severity.INFO)
            return
        if len(memories) >= 20:
            ctx.add(
                "orphan.unindexed",
                ".",
                f"no index file: the agent chooses among {len(memories)} memories by name alone "
                "(Serena's list_memories); a short memory_index.md of `- **name** — when to read it` "
                "lines helps it pick",
                severity=Severity.INFO,
            )
        return
    listed = store.routes_to
    missing = [p for p in memories if p not in listed]
    if missing:
        shown = _first_names(missing)
        ctx.add(
            "orphan.unindexed",
            store.l0.path,
            f"lists {len(memories) - len(missing)} of {len(memories)} memories{aside}; {len(missing)} {'is' if len(missing) == 1 else 'are'} not "
            f"listed ({shown}) — the agent still sees their names through list_memories",
        )  # a warning: the store keeps an index, and it has fallen behind


CATALOG_WORDS = ("catalog", "registry", "index", "idx", "home", "toc", "contents", "map", "start-here")
CATALOG_SHARE = 0.8  # of the other memories a file must name to be the store's index in practice


def _catalog(store, memories: list[str]) -> tuple[str, set[str]] | None:
    """A root memory, named like an index, that names most of the others (a table of ids, a list
    of backticked names): the store's index by another name. (path, the memories it names)."""
    from ..model.list_index import name_resolver, parse_list_index

    resolve = None
    best = None
    for path in memories:
        name = _stem(path).lower()
        if "/" in path or not any(w in name for w in CATALOG_WORDS):
            continue
        resolve = resolve or name_resolver(memories)
        idx = parse_list_index(path, store.records[path].text, resolve, dialect="names")
        named = {lk.target for row in idx.rows for lk in row.links} - {path}
        if len(named) >= CATALOG_SHARE * (len(memories) - 1) and (best is None or len(named) > len(best[1])):
            best = (path, named)
    return best


def _listed(ctx: Context) -> None:
    """Claude Code memory and experience folders: the index is how the agent (or a person)
    finds a file, so each file the index does not list is named."""
    store = ctx.store
    listed = store.routes_to
    if store.format == fmts.CLAUDE:
        if store.l0 is None:
            if store.unread_index() is not None:
                return  # its parse.error says it: what it lists is not known
            ctx.add(
                "orphan.unindexed",
                ".",
                "no MEMORY.md: Claude Code loads the index into every session and reaches topic "
                "files only through it, so none of these memories is ever seen",
                severity=Severity.ERROR,
            )
            return
        for path in _candidates(ctx):
            if path not in listed and superseded(store.records[path]) is None:  # retired: store.superseded
                ctx.add(
                    "orphan.unindexed",
                    path,
                    f"{store.l0.path} does not list this file: the agent never learns it exists",
                    suggestion=store.l0.path,
                    fix=ListEntry(path, store.l0.path),
                )
        return
    readmes = {p.rsplit("/", 1)[0] if "/" in p else "": p for p in store.list_indexes}
    for path in _candidates(ctx):
        folder = path.rsplit("/", 1)[0] if "/" in path else ""
        index = readmes.get(folder)
        if index is not None and path not in listed:
            ctx.add("orphan.unindexed", path, f"{index} does not list this entry", suggestion=index)


def _tiered(ctx: Context) -> None:
    store, cfg = ctx.store, ctx.config
    routed = store.routes_to
    records = store.records
    for path in (records if ctx.paths is None else ctx.file_paths()):
        rec = records[path]
        if rec.level != 2 or rec.kind != "memory" or rec.tier != "semantic" or not rec.readable or is_log(cfg, rec):
            continue
        if path in routed or cfg.is_orphan_allowed(path) or _stem(path) in EXEMPT:
            continue
        if any(glob_match(path, g) for g in cfg.startup_load):
            continue  # auto-loaded at start-up: no index needed
        if superseded(rec) is not None:
            continue  # retired by its author: archived (store.superseded), never indexed
        index = likely_index(ctx, path, rec.text)
        fix = None
        if index:
            # keywords are suggested when the fix is planned (curation.suggest), not for every
            # orphan on every check run
            fix = IndexOrphan(path, index)
        ctx.add(
            "orphan.unindexed",
            path,
            "no index routes to this memory" + (f"; it likely belongs in {index}" if index else ""),
            suggestion=index,
            fix=fix,
        )


def _first_names(paths: list[str]) -> str:
    """The first five memories' names, then an ellipsis: what an index leaves out, in a message."""
    return ", ".join(_stem(p) for p in paths[:5]) + (", …" if len(paths) > 5 else "")


def _stem(path: str) -> str:
    return path.rsplit("/", 1)[-1].removesuffix(".md")
