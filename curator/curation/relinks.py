"""Markdown links a fix re-points or drops: `relink` points a link at the file it meant, and a
link whose meant file the page links already (or that is the page itself) is dropped instead —
a re-link never makes a "Related" list name one file twice."""

from __future__ import annotations

import posixpath
import re


def unlink(line: str, old: str) -> str | None:
    """The line without its link to `old`: a list item made of that link (and a hook) goes
    (None), a link in prose keeps its text."""
    pattern = r"\[([^\]]*)\]\(\s*<?" + re.escape(old) + r">?(?:\s+[\"'(][^)]*)?\s*\)"
    if re.match(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\*\*)?" + pattern, line):
        return None
    return re.sub(pattern, lambda m: m.group(1), line, count=1)


def linked_already(draft, path: str, line: int, new: str) -> bool:
    """Would re-pointing this link make the page link `new` twice (or link itself)? Read from
    the page as this plan leaves it, every other line."""
    folder = posixpath.dirname(path)
    target = posixpath.normpath(posixpath.join(folder, new.split("#", 1)[0]))
    if target == path:
        return True
    count = len(draft.text(path).splitlines())
    others = "\n".join(draft.current_line(path, i) or "" for i in range(1, count + 1) if i != line)
    for m in re.finditer(r"\]\(\s*<?([^)\s>#]+)", others):
        if posixpath.normpath(posixpath.join(folder, m.group(1))) == target:
            return True
    return False


def relink(line: str, old: str, new: str) -> str:
    """The line with its markdown links to `old` pointing at `new` (`](old)`, `](<old>)`,
    `](old "title")`)."""
    return re.sub(r"(\]\(\s*<?)" + re.escape(old) + r"(?=>?(?:\s+[\"'(][^)]*)?\s*\))",
                  lambda m: m.group(1) + new, line)
