"""Checks that depend on a memory format's own rules (model/formats.py): the frontmatter a
format expects, the always-loaded index's load cap, links an index makes outside the store,
and Serena's `mem:NAME` references."""

from __future__ import annotations

from ..model import formats as fmts
from ..model.auto_memory import committed_claude_memory, store_auto_off
from ..model.claude_index import inline_sections
from ..model.findings import Frontmatter, Severity, SplitIndex
from ..model.linkres import outside_verdict
from ..model.list_index import ListIndex, mem_references, name_resolver
from .context import Context
from .home_links import report_home_link


def run(ctx: Context) -> None:
    store = ctx.store
    if ctx.paths is not None:  # a re-check of some memories: what each says about itself
        if store.format == fmts.CLAUDE:
            _claude_frontmatter(ctx)
        if store.format in (fmts.SERENA, fmts.SERENA_TIERED) and ctx.wants("links.broken"):
            _mem_refs(ctx)
        return
    if store.format == fmts.CLAUDE:
        _claude_frontmatter(ctx)
        _past_cap(ctx)
    if store.format in (fmts.SERENA, fmts.SERENA_TIERED) and ctx.wants("links.broken"):
        _mem_refs(ctx)
    if ctx.wants("links.broken"):
        _index_external_links(ctx)
    if store.format == fmts.EXPERIENCE and ctx.wants("experience.unpaired"):
        _twins(ctx)


def _twins(ctx: Context) -> None:
    """An entry and its summary share a file name: `X/entries/N` ↔ `X/summary/entries/N`."""
    records = ctx.store.records
    for path, rec in records.items():
        # rooted, so a store opened at docs/error-experience (paths `entries/…`) pairs as docs/ does
        rooted = "/" + path
        if rec.level != 2 or "/entries/" not in rooted or rec.stem == "README":
            continue
        if "/summary/entries/" in rooted:
            entry = rooted.replace("/summary/entries/", "/entries/", 1)[1:]
            if entry not in records:
                ctx.add(
                    "experience.unpaired",
                    path,
                    f"summary of {entry}, which is gone",
                    severity=Severity.WARNING,
                    target=entry,
                )
        else:
            head, _, name = rooted.partition("/entries/")
            folder = f"{head}/summary/entries/"[1:]
            summary = folder + name
            if summary not in records and any(p.startswith(folder) for p in records):
                ctx.add("experience.unpaired", path, f"no summary twin ({summary})", target=summary)


def _claude_frontmatter(ctx: Context) -> None:
    if not ctx.wants("frontmatter.missing"):
        return
    for path in ctx.file_paths():
        rec = ctx.store.records[path]
        if rec.level != 2 or not rec.readable or rec.frontmatter_error:
            continue
        fm = rec.frontmatter or {}
        meta = m if isinstance(m := fm.get("metadata"), dict) else {}
        missing = [k for k in ctx.store.adapter.required_frontmatter if _blank(fm.get(k)) and _blank(meta.get(k))]
        if not fm:
            ctx.add(
                "frontmatter.missing",
                path,
                "no frontmatter: Claude Code expects `name`, `description` and `type` "
                "(user|feedback|project|reference) to decide when a memory is relevant",
                line=1,
                fix=Frontmatter(path, "draft"),
            )
            continue
        if missing:
            ctx.add(
                "frontmatter.missing",
                path,
                f"frontmatter lacks {', '.join(f'`{k}`' for k in missing)} (flat or under `metadata:`)",
                line=1,
                fix=Frontmatter(path, "draft"),
            )
        kind = fm.get("type") if not _blank(fm.get("type")) else meta.get("type")
        if not _blank(kind) and str(kind).strip().lower() not in fmts.CLAUDE_TYPES:
            ctx.add(
                "frontmatter.missing",
                path,
                f"type {str(kind)!r} is not one of {', '.join(fmts.CLAUDE_TYPES)}",
                line=1,
            )


def _blank(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _past_cap(ctx: Context) -> None:
    """Claude Code reads only the first 200 lines or 25 KB of its auto memory's MEMORY.md: name
    what is past it. An imported MEMORY.md loads whole (no cap): nothing is past it."""
    if not ctx.wants("budget.past-cap"):
        return
    store = ctx.store
    if store.l0 is None or store.l0.path not in store.records:
        return
    from ..model.imports import startup_import

    if startup_import(store) is not None or store_auto_off(store):
        return  # imported it loads whole; with auto memory off it does not load at all
    rec = store.records[store.l0.path]
    cap = fmts.claude_cap(store)  # the version the repository pins, as `context` reads it
    first = fmts.claude_cap_of(rec.text, cap)
    if first is None:
        return
    lines = rec.text.splitlines()
    lost = []
    for row in store.l0.rows:
        if row.line >= first:
            lost += [lk.target for lk in row.links]
    reached_earlier = {lk.target for row in store.l0.rows if row.line < first for lk in row.links}
    lost = [t for t in dict.fromkeys(lost) if t not in reached_earlier]
    from ..model.memory_md import cut_by

    by_lines = (cut_by(rec.text, cap["lines"], cap["bytes"]) == "lines" if cap.get("strip")
                else first == cap["lines"] + 1)
    why = f"the first {cap['lines']} lines" if by_lines else f"the first {cap['bytes'] // 1000} KB"
    shown = ", ".join(lost[:5]) + (", …" if len(lost) > 5 else "")
    committed = committed_claude_memory(store.root)  # then the cap bites only where it is someone's auto memory
    ctx.add(
        "budget.past-cap",
        rec.path,
        f"lines {first}–{len(lines)} are past Claude Code's auto-memory cap (it reads only {why} of "
        f"{rec.path}): " + ("where this folder is your auto memory (autoMemoryDirectory or a link), "
                            if committed else "") + "the agent never sees them"
        + (f"; {len(lost)} topic file(s) listed only there: {shown}" if lost else "")
        + ("; here it is a committed folder, which loads only when a loaded file imports it, then whole"
           if committed else ""),
        line=first,
        fix=SplitIndex(rec.path) if inline_sections(rec.text) else None,
    )


def _mem_refs(ctx: Context) -> None:
    store = ctx.store
    resolve = None
    for path in ctx.file_paths():
        rec = store.records[path]
        if rec.level != 2 or not rec.readable or "mem:" not in rec.text:
            continue
        resolve = resolve or name_resolver([p for p, r in store.records.items() if r.level == 2])
        for name, line in mem_references(rec.text):
            if resolve(name) is None:
                ctx.add("links.broken", path, f"mem:{name} names no memory of this store", line=line, target=name)


def external_links(store):
    """(index path, its folder on disk, line, link as written, target) of every link a list index
    makes outside the memory folder (`../../CLAUDE.md`, repository docs)."""
    indexes = [store.l0] if isinstance(store.l0, ListIndex) else []
    indexes += list(getattr(store, "list_indexes", {}).values())
    for idx in indexes:
        rec = store.records.get(idx.path)
        if rec is None:
            continue
        for line, raw in idx.external:
            target = raw.split("#", 1)[0].split("?", 1)[0]
            if target and "://" not in target:
                yield idx.path, rec.abspath.parent, line, raw, target


def _index_external_links(ctx: Context) -> None:
    store = ctx.store
    for path, folder, line, raw, target in external_links(store):
        if report_home_link(ctx, path, raw, line):
            continue
        if outside_verdict(store, folder, target) == "missing":
            ctx.add("links.broken", path, f"link to {raw} reaches nothing", line=line, target=target)
