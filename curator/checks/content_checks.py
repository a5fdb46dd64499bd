"""size.*, frontmatter.invalid and links.broken: what a single file says about itself."""

from __future__ import annotations

import os
import posixpath
from urllib.parse import unquote

from ..model.findings import Severity
from .context import Context
from .facts import facts_for

SKIP_SCHEMES = ("http://", "https://", "mailto:", "ftp://", "data:", "tel:")


def run(ctx: Context, paths: list[str] | None = None) -> None:
    """Every file's own problems; `paths` limits the run to some files (re-check after an edit)."""
    all_facts = facts_for(ctx, paths)
    for path in paths if paths is not None else list(ctx.store.records):
        rec = ctx.store.records.get(path)
        if rec is not None and rec.readable:
            check_record(ctx, path, rec, all_facts[path])


def check_record(ctx: Context, path: str, rec, facts) -> None:
    th = ctx.config.thresholds
    if rec.frontmatter_error:
        ctx.add("frontmatter.invalid", path, rec.frontmatter_error, line=rec.frontmatter_error_line)
    n = len(rec.text)
    if n > th.size_error_chars:
        ctx.add(
            "size.chars",
            path,
            f"{n:,} characters (limit {th.size_error_chars:,}): split it into atomic memories",
            severity=Severity.ERROR,
        )
    elif n >= th.size_warn_chars:
        ctx.add("size.chars", path, f"{n:,} characters (warning from {th.size_warn_chars:,})")
    h1, h2 = facts.h1, facts.h2
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


def _links(ctx: Context, rec, links) -> None:
    store = ctx.store
    for raw, line in links:
        if raw.startswith(SKIP_SCHEMES) or raw.startswith("#") or "://" in raw:
            continue
        target = unquote(raw.split("#", 1)[0].split("?", 1)[0])
        if not target:
            continue
        if target.startswith("/"):
            resolved = posixpath.normpath(target.lstrip("/"))
        else:
            resolved = posixpath.normpath(posixpath.join(rec.folder, target)) if rec.folder else posixpath.normpath(target)
        if resolved in store.records:
            continue
        if not _usable(resolved):
            ctx.add("links.broken", rec.path, f"link to {raw[:80]}… names no possible file (a part over {MAX_PART} bytes)",
                    line=line, target=resolved[:200])
            continue
        if (resolved == ".." or resolved.startswith("../")) and not _included(ctx, resolved):
            # outside the store: reported, never looked up (no existence oracle for outside files)
            ctx.add("links.broken", rec.path, f"link to {raw} leaves the store; curator does not follow it",
                    line=line, target=resolved, severity=Severity.INFO)
            continue
        if not _exists(store.root / resolved):
            ctx.add(
                "links.broken",
                rec.path,
                f"link to {raw} reaches nothing",
                line=line,
                target=resolved,
            )
