"""What Claude Code injects of an auto-memory `MEMORY.md` (`truncateEntrypointContent` and the
memory-file parser, read in its code at 2.1.88 and 2.1.332): the YAML frontmatter and the
block-level HTML comments taken out, the rest trimmed, its first 200 lines, then cut at the last
line break before 25,000 characters, and a warning line added when anything was cut. The
numbers are the `memory.auto-cap` row's (curator/agents/claude_code.py).

Pure: text in, (what loads, the first line of the file that does not) out. Claude Code ends lines
at `\n` only; the line it returns is numbered as the rest of curator numbers a file's lines
(Python's `splitlines`, which also breaks at a lone `\r`, U+2028 and a few more), so every
screen names the same line (`file_line`).
"""

from __future__ import annotations

import re

from .markdown import comment_free_lines

_FRONTMATTER = re.compile(r"---\s*\n([\s\S]*?)---\s*\n?")  # Claude Code's own pattern (`frontmatter_end`)
_SPACE = re.compile(r"\s*")
_WARNING = ("\n\n> WARNING: MEMORY.md is {why}. Only part of it was loaded: {what}. Keep index entries to one line "
            "under ~200 chars; move detail into topic files.")


def units(text: str) -> int:
    """Its length as JavaScript counts it (UTF-16 code units: an emoji is two)."""
    return len(text) if text.isascii() else len(text.encode("utf-16-le")) // 2


def frontmatter_end(text: str) -> int | None:
    """Where `_FRONTMATTER` matched at the start ends (None: no match), found in linear time: the
    pattern itself backtracks quadratically on "---" and many blank lines with no closing "---".
    Its greedy whitespace-then-newline ends at the last line break of the blank run after "---"; no
    closing "---" can start inside that run, so the lazy body reaches the first "---" after it, and
    the closing whitespace takes the blank run that follows."""
    if not text.startswith("---"):
        return None
    run = _blank_end(text, 3)
    newline = text.rfind("\n", 3, run)
    if newline < 0:
        return None
    close = text.find("---", newline + 1)
    return None if close < 0 else _blank_end(text, close + 3)


def _blank_end(text: str, at: int) -> int:
    """Where the whitespace from `at` ends (`\\s*` always matches, perhaps empty)."""
    m = _SPACE.match(text, at)
    return m.end() if m else at


def index_lines(text: str) -> list[tuple[int, str]]:
    """(line number in the file, line without its `\n`) of what is left once the frontmatter and
    block comments are out, trimmed as JavaScript's `trim` does; lines end at `\n` only (a `\r`
    is part of its line, as in Claude Code)."""
    text = text.removeprefix("\ufeff")
    end = frontmatter_end(text)
    start = text.count("\n", 0, end) if end else 0  # lines before the body (it may start mid-line)
    body = text[end:] if end else text
    if "<!--" in body:
        kept = [(no + start, line) for no, line in comment_free_lines(body)[0]]
    else:
        kept = [(no + start + 1, line + "\n") for no, line in enumerate(body.split("\n"))]
    out = [(no, line[:-1] if line.endswith("\n") else line) for no, line in kept]
    first = next((i for i, (_, line) in enumerate(out) if line.strip()), len(out))
    last = next((i for i in range(len(out) - 1, first - 1, -1) if out[i][1].strip()), first - 1)
    out = out[first:last + 1]
    if out:
        out[0] = (out[0][0], out[0][1].lstrip())
        out[-1] = (out[-1][0], out[-1][1].rstrip())
    return out


def loaded_index(text: str, max_lines: int, max_chars: int) -> tuple[str, int | None]:
    """(what Claude Code injects of MEMORY.md, the first line of the file it does not load; None
    when all of it loads)."""
    kept = index_lines(text)
    count = len(kept)
    size = sum(units(line) for _, line in kept) + max(count - 1, 0)
    if count <= max_lines and size <= max_chars:
        return "\n".join(line for _, line in kept), None
    part = kept[:max_lines]
    n, end = len(part), -1
    if sum(units(line) for _, line in part) + len(part) - 1 > max_chars:
        n = 0
        for i, (_, line) in enumerate(part):
            end += units(line) + 1  # where the break after this line is, in the joined text
            if end > max_chars:
                break
            n = i + 1
    shown = "\n".join(line for _, line in part[:n]) if n else \
        part[0][1].encode("utf-16-le")[: 2 * max_chars].decode("utf-16-le", "ignore")  # JavaScript's slice
    nxt = kept[n][1].strip() if n < count else ""
    what = (f"everything after the first {len(shown)} characters of line 1 was cut off" if n == 0 else
            f"{count - n} of {count} lines were cut off, starting at line {n + 1}"
            + (f' ("{nxt[:79] + "…" if len(nxt) > 80 else nxt}")' if nxt else ""))
    lines_over, chars_over = count > max_lines, size > max_chars
    why = (f"{_size(size)} (limit: {_size(max_chars)}) — index entries are too long" if chars_over and not lines_over
           else f"{count} lines (limit: {max_lines})" if not chars_over else f"{count} lines and {_size(size)}")
    first = kept[n][0] if n < count and n else kept[0][0]
    return shown + _WARNING.format(why=why, what=what), file_line(text, first)


def file_line(text: str, no: int) -> int:
    """The `splitlines` number of the line that starts `\n`-line `no` of `text` (the same place)."""
    at = -1
    for _ in range(no - 1):
        at = text.find("\n", at + 1)
        if at < 0:
            return no
    return len(text[: at + 1].splitlines()) + 1 if at >= 0 else 1


def _size(n: int) -> str:
    """Claude Code's `formatFileSize`: bytes below 1 KB, else KB with one decimal."""
    return f"{n} bytes" if n < 1024 else f"{n / 1024:.1f}".rstrip("0").rstrip(".") + "KB"


def cut_by(text: str, max_lines: int, max_chars: int) -> str | None:
    """What cuts MEMORY.md: "lines" (its first `max_lines` fit in `max_chars`), "chars", or None."""
    kept = index_lines(text)[: max_lines + 1]
    part = kept[:max_lines]
    if sum(units(line) for _, line in part) + len(part) - 1 > max_chars:
        return "chars"
    return "lines" if len(kept) > max_lines else None
