"""Links into a home folder (`/Users/alice/…`, `/home/bob/…`, `~/…`, `C:\\Users\\…`): written on
one machine, they reach nothing on any other checkout — worth saying so, not just "broken"."""

from __future__ import annotations

import re

HOME = re.compile(r"^(?:(/Users/[^/]+|/home/[^/]+|/root)|(~)|([A-Za-z]:[\\/]Users[\\/][^\\/]+))(?=[\\/])")


def home_prefix(target: str) -> str | None:
    """The home folder a link target starts in, or None."""
    m = HOME.match(target)
    return m.group(0) if m else None


def home_message(raw: str, prefix: str, meant: str | None) -> str:
    where = "a home folder (~)" if prefix == "~" else f"another machine's home folder ({prefix})"
    return (f"link to {raw} points into {where}: no other checkout has it"
            + (f" — the memory folder has {meant}: link it relatively" if meant else
               " — copy the file into the memory folder and link it relatively, or drop the link"))


# Claude Code's auto memory: ~/.claude/projects/<slug>/memory/ (the slug is the project's path
# with every non-alphanumeric character turned into `-`), reached by ~, a home path or `../..`
AUTO_MEMORY = re.compile(r"(?:^|[\\/])\.claude[\\/]projects[\\/]([^\\/]+)[\\/]memory[\\/](.+)$")


def auto_memory(target: str) -> tuple[str, str] | None:
    """(slug, file in it) of a link into someone's Claude Code auto-memory folder, else None."""
    m = AUTO_MEMORY.search(target)
    return (m.group(1), m.group(2).replace("\\", "/")) if m else None


def auto_memory_message(raw: str, slug: str, name: str, store_folder: str, meant: str | None) -> str:
    """Which folder the link reaches and what to do: the file lives in one person's auto memory."""
    where = f"~/.claude/projects/{slug}/memory/"
    said = (f"link to {raw} points into one user's Claude Code auto memory ({where}, in their home folder, "
            "never committed): no other checkout has it")
    if meant:
        return f"{said} — {store_folder} holds {meant}: link it relatively"
    return f"{said} — copy {name} from there into {store_folder} and link it as {name.rsplit('/', 1)[-1]}, or drop the line"

