"""links.broken for a link into a home folder: said as such, re-linked when the memory folder
holds the one file of that name (a Claude Code folder committed from `~/.claude/projects/…`)."""

from __future__ import annotations

import posixpath

from ..model.findings import Relink
from ..model.homes_links import auto_memory, auto_memory_message, home_message, home_prefix
from .context import Context


def report_home_link(ctx: Context, path: str, raw: str, line: int) -> bool:
    """Report a link of `path` into a home folder (or into a Claude Code auto-memory folder, by
    any road); False when it is not one."""
    target = raw.split("#", 1)[0]
    prefix = home_prefix(target)
    auto = auto_memory(target)
    if prefix is None and auto is None:
        return False
    base = target.replace("\\", "/").rsplit("/", 1)[-1].lower()
    same = [p for p, r in ctx.store.records.items() if p.rsplit("/", 1)[-1].lower() == base and r.readable]
    meant = same[0] if len(same) == 1 and same[0] != path else None
    folder = posixpath.dirname(path) or "."
    fix = Relink(path, line, raw, posixpath.relpath(meant, folder) + raw[len(target):]) if meant else None
    if auto is not None:
        store_folder = _shown_folder(ctx.store)
        message = auto_memory_message(raw, auto[0], auto[1], store_folder, meant)
    else:  # not auto memory: a home folder's link, so `prefix` is set
        message = home_message(raw, prefix or "~", meant)
    ctx.add("links.broken", path, message, line=line, target=target, suggestion=meant, fix=fix)
    return True


def _shown_folder(store) -> str:
    """The memory folder as the repository names it (`.claude/memory/`)."""
    import os

    repo = getattr(store, "repo_root", None)
    try:
        rel = os.path.relpath(store.root, repo) if repo else store.root.name
    except ValueError:
        rel = store.root.name
    return "the memory folder" if rel in (".", "") else rel.replace(os.sep, "/") + "/"
