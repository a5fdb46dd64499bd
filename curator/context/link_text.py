"""`instructions.link-as-text`: an instruction file whose whole text is the path of another file
of the repository (`CLAUDE.md` holding `AGENTS.md`, no newline). That is how git checks out a
symbolic link where symbolic links are off (`core.symlinks=false`, the default on Windows): the
agents read those few characters, not the file they name."""

from __future__ import annotations

import posixpath

from .builder import Builder
from .fs import Text
from .model import AgentContext

_MAX = 255  # git stores a link as its target; a target is a short path


def link_target(b: Builder, rel: str) -> str | None:
    """The file `rel`'s text names when it reads as a link checked out as text, else None."""
    if rel in b.fs.links:
        return None
    got = b.fs.read(rel)
    if not isinstance(got, Text) or not 0 < got.size <= _MAX:
        return None
    text = got.text
    if not text or text != text.strip() or any(c in text for c in "\n\r\t") or text.startswith(("/", "~", "@")):
        return None  # a link's text is one line (spaces only inside a name), and relative
    folder = posixpath.dirname(rel)
    target = posixpath.normpath(posixpath.join(folder, text))
    if target.startswith("../") or target == rel:
        return None
    return target if target in b.fs.fileset else None  # (a word naming a folder is more likely prose)


def check(b: Builder, built: dict[str, AgentContext]) -> set[str]:
    """A finding on each such file an agent loads (or would load on demand); the files found."""
    if b.only is not None and "instructions.link-as-text" not in b.only:
        return set()
    readers: dict[str, list[str]] = {}
    for ctx in built.values():
        for rel in {e.path for e in ctx.startup} | {o.path for o in ctx.on_demand}:
            if not rel.startswith(("~", "/")):
                readers.setdefault(rel, []).append(ctx.label)
    found = set()
    for rel in sorted(readers):
        target = link_target(b, rel)
        if target is None:
            continue
        found.add(rel)
        who = ", ".join(dict.fromkeys(readers[rel]))
        text = getattr(b.fs.read(rel), "text", "")
        b.add("instructions.link-as-text", rel, f"holds only the text {text!r}: a symbolic link to {target} checked "
              "out as a plain file (git does so where links are off, the default on Windows) — "
              f"{who} read{'s' if ',' not in who else ''} those {len(text)} characters, not {target}", 1, target)
    return found
