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
