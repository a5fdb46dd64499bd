"""links.broken for a link into a home folder: said as such, re-linked when the memory folder
holds the one file of that name (a Claude Code folder committed from `~/.claude/projects/…`)."""

from __future__ import annotations

import posixpath

from ..model.findings import Relink
from ..model.homes_links import home_message, home_prefix
from .context import Context


def report_home_link(ctx: Context, path: str, raw: str, line: int) -> bool:
    """Report a link of `path` into a home folder; False when it is not one."""
    target = raw.split("#", 1)[0]
    prefix = home_prefix(target)
    if prefix is None:
        return False
    base = target.replace("\\", "/").rsplit("/", 1)[-1].lower()
    same = [p for p, r in ctx.store.records.items() if p.rsplit("/", 1)[-1].lower() == base and r.readable]
    meant = same[0] if len(same) == 1 and same[0] != path else None
    folder = posixpath.dirname(path) or "."
    fix = Relink(path, line, raw, posixpath.relpath(meant, folder) + raw[len(target):]) if meant else None
    ctx.add("links.broken", path, home_message(raw, prefix, meant), line=line, target=target, suggestion=meant, fix=fix)
    return True
