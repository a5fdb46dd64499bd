"""size.*, frontmatter.invalid and links.broken: what a single file says about itself."""

from __future__ import annotations

import os
import posixpath

from ..model.findings import Frontmatter, Relink, Severity, Unlink
from ..model.frontmatter import quoted_frontmatter
from ..model.linkres import outside_verdict, trusted_place
from .context import Context
from .facts import _memory_name, facts_for, link_probe, resolve_link
from .home_links import report_home_link


def run(ctx: Context, paths: list[str] | None = None) -> None:
    """Every file's own problems; `paths` (or the context's) limits the run to some files (a
    re-check after an edit)."""
    if paths is None and ctx.paths is not None:
        paths = ctx.file_paths()
    all_facts = facts_for(ctx, paths)
    for path in paths if paths is not None else list(ctx.store.records):
        rec = ctx.store.records.get(path)
        if rec is not None and rec.readable:
            check_record(ctx, path, rec, all_facts[path])


def check_record(ctx: Context, path: str, rec, facts) -> None:
    th = ctx.config.thresholds
    if rec.frontmatter_error:
        quotable = rec.frontmatter_error.startswith("frontmatter is not valid YAML") and quoted_frontmatter(rec.text)
        ctx.add("frontmatter.invalid", path, rec.frontmatter_error, line=rec.frontmatter_error_line,
                fix=Frontmatter(path, "quote") if quotable else None)
    n = rec.chars
    if rec.level < 2 and not ctx.store.adapter.is_tiered:
        n = 0  # a list index (MEMORY.md, a folder README) is judged by its format's load cap
    if n > th.size_error_chars:
        ctx.add(
            "size.chars",
            path,
            f"{n:,} characters (limit {th.size_error_chars:,}): " + _split_advice(rec),
            severity=Severity.ERROR,
        )
    elif n >= th.size_warn_chars:
        ctx.add("size.chars", path, f"{n:,} characters (warning from {th.size_warn_chars:,})")
    h1, h2 = (facts.h1, facts.h2) if n else (0, 0)
    if h2 > th.max_h2:
        ctx.add("size.headings", path, f"{h2} `##` headings (at most {th.max_h2})")
    if h1 > th.max_h1:
        ctx.add("size.headings", path, f"{h1} `#` headings (at most {th.max_h1})")
    if rec.level == 2 and facts.links:
        _links(ctx, rec, facts.links)


MAX_PART = 255  # bytes in one path component: longer cannot name a file anywhere


def _exists(path) -> bool:
    """Whether a path names something (a symlink counts, unfollowed), never raising."""
    try:
        return os.path.lexists(path)
    except (OSError, ValueError):
        return False


def _usable(target: str) -> bool:
    return "\x00" not in target and all(len(p.encode("utf-8", "surrogatepass")) <= MAX_PART for p in target.split("/"))


def _included(ctx: Context, resolved: str) -> bool:
    return any(resolved.startswith(posixpath.normpath(i.rstrip("/")) + "/") for i in ctx.config.include)


def _split_advice(rec) -> str:
    if rec.level == 0:
        return "move rows into domain indexes (L0 should only route)"
    if rec.level == 1:
        return "split it into narrower domain indexes routed from memory-index.md"
    return "split it into atomic memories"


def _linked(store, rec, links) -> set[str]:
    """The records this memory's links reach (a Serena name from the store root counts)."""
    out = set()
    for raw, _ in links:
        both = resolve_link(rec, raw)
        if both is None:
            continue
        written, resolved = both
        if resolved in store.records:
            out.add(resolved)
        elif _memory_name(store, written):
            out.add(posixpath.normpath(written))
    return out


def _links(ctx: Context, rec, links) -> None:
    store = ctx.store
    linked = None
    for raw, line in links:
        both = resolve_link(rec, raw)
        if both is None:
            continue
        written, resolved = both
        if not _usable(resolved):
            ctx.add("links.broken", rec.path, f"link to {raw[:80]}… names no possible file (a part over {MAX_PART} bytes)",
                    line=line, target=resolved[:200])
            continue
        if report_home_link(ctx, rec.path, raw, line):
            continue
        probe = link_probe(store, rec, raw)  # the cached findings depend on the same probes
        if probe is not None and not trusted_place(store, probe) and not _included(ctx, resolved):
            # outside the repository: reported, never looked up (no existence oracle for it)
            ctx.add("links.broken", rec.path, f"link to {raw} leaves the store and its repository; curator does not follow it",
                    line=line, target=resolved, severity=Severity.INFO)
            continue
        exists = probe is None or _exists(probe)
        if not exists and outside_verdict(store, rec.abspath.parent, written) != "missing":
            continue  # a repository file, or outside a store copied without its repository
        if not exists:
            inside = resolved.endswith(".md") and not resolved.startswith("../") and not written.startswith("/")
            cands = likely_meant(ctx, resolved) if inside else []
            meant = cands[0] if len(cands) == 1 else None
            fix_as = posixpath.relpath(meant, rec.folder or ".") if meant else None
            if meant is not None and linked is None:
                linked = _linked(store, rec, links)
            fragment = raw[len(raw.split("#", 1)[0]):]
            if meant is not None and linked is not None and (meant in linked or meant == rec.path):
                # re-pointing it would link the same file twice on one page (or the page to itself)
                said = "this page itself" if meant == rec.path else f"{meant}, which this page links already"
                ctx.add("links.broken", rec.path, f"link to {raw} reaches nothing (it likely meant {said}: drop it)",
                        line=line, target=resolved, suggestion=meant, fix=Unlink(rec.path, line, raw, meant))
                continue
            if meant:
                why = f" (it likely meant {meant}: link it as {fix_as})"
            elif cands:  # ambiguous: never guessed, the candidates named
                shown = ", ".join(cands[:4]) + (", …" if len(cands) > 4 else "")
                why = f" ({len(cands)} files have that name: {shown} — link the one it meant)"
            else:
                why = ""
            ctx.add(
                "links.broken",
                rec.path,
                f"link to {raw} reaches nothing{why}",
                line=line,
                target=resolved,
                suggestion=meant,
                fix=Relink(rec.path, line, raw, fix_as + fragment) if fix_as else None,
            )


def likely_meant(ctx: Context, resolved: str) -> list[str]:
    """The existing files a broken link may have meant: every file of that name elsewhere
    (moved), else a close rename of it. One is a fix; several are for the author to choose."""
    by_name = ctx.memo("links.by_name", lambda: _by_name(ctx))
    base = resolved.rsplit("/", 1)[-1].lower()
    same = by_name.get(base, [])
    if same:
        folder = resolved.rsplit("/", 1)[0] if "/" in resolved else ""
        return sorted(same, key=lambda p: (_distance(folder, p), p))
    from .index_checks import closest_path

    guess = closest_path(ctx, resolved)
    if guess and _same_words(resolved, guess):
        return [guess]
    return []


def _by_name(ctx: Context) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path, rec in ctx.store.records.items():
        if rec.readable:
            out.setdefault(path.rsplit("/", 1)[-1].lower(), []).append(path)
    return out


def _distance(folder: str, path: str) -> int:
    a = folder.split("/") if folder else []
    b = path.split("/")[:-1]
    common = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        common += 1
    return len(a) + len(b) - 2 * common


def _same_words(old: str, new: str) -> bool:
    """A rename keeps most of the words of the name (`security-003-x` → `security-003-x-90`)."""
    a = set(old.rsplit("/", 1)[-1].removesuffix(".md").lower().split("-"))
    b = set(new.rsplit("/", 1)[-1].removesuffix(".md").lower().split("-"))
    return len(a & b) >= max(2, 0.6 * min(len(a), len(b)))
