"""Small, fast readers for the markdown shapes memories use. No full markdown parser needed."""

from __future__ import annotations

import re
from dataclasses import dataclass

KEY_VALUE = re.compile(r"^\*\*([^*\n]{1,60})\*\*\s*:\s*(.*)$")
PLAIN_KEY = re.compile(r"^(Error|Summary|Remediation|Practice|Impact|Cause|Context)\s*:\s*(.+)$")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
LINK = re.compile(r"(?<!!)\[([^\]\n]*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE_OPEN = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
# every style people date file names in: 2026-01-08, 2026_01_08, 2026.01.08, 20260108, and a compact
# date run into its time (20260108T1430, 202601081430, 20260108143005); the same separator twice
DATE_IN_NAME = re.compile(r"(?<!\d)((?:19|20)\d\d)([-_.]?)(0[1-9]|1[0-2])\2(0[1-9]|[12]\d|3[01])"
                          r"(?:(?!\d)|(?<=\d{8})(?=(?:[01]\d|2[0-3])[0-5]\d(?:[0-5]\d)?(?!\d)))")


@dataclass(frozen=True, slots=True)
class Link:
    text: str
    target: str
    line: int  # 1-based, in the whole file


@dataclass(frozen=True, slots=True)
class Heading:
    level: int
    text: str
    line: int


def iter_unfenced(lines: list[str], first_line: int = 1):
    """(line_no, line) for lines outside fenced code blocks."""
    blob = "\n".join(lines)
    if "```" not in blob and "~~~" not in blob:
        return enumerate(lines, first_line)  # no line can open a fence (most memories)
    return _unfenced(lines, first_line)


def _unfenced(lines: list[str], first_line: int):
    fence: str | None = None
    for offset, line in enumerate(lines):
        m = FENCE_OPEN.match(line)
        if fence is None:
            if m:
                fence = m.group(1)[0] * len(m.group(1))
                continue
            yield first_line + offset, line
        elif m and m.group(1).startswith(fence[0]) and len(m.group(1)) >= len(fence):
            fence = None


def headings(lines: list[str], first_line: int = 1) -> list[Heading]:
    out = []
    for no, line in iter_unfenced(lines, first_line):
        if line.startswith("#"):
            m = HEADING.match(line)
            if m:
                out.append(Heading(len(m.group(1)), m.group(2), no))
    return out


INLINE_CODE = re.compile(r"(`+)(.+?)\1")


def links(lines: list[str], first_line: int = 1) -> list[Link]:
    """Markdown links outside fenced code and inline code spans (`[a](b)` in backticks is text)."""
    out = []
    for no, line in iter_unfenced(lines, first_line):
        if "](" in line:
            if "`" in line:
                line = INLINE_CODE.sub(lambda m: " " * len(m.group(0)), line)
            for m in LINK.finditer(line):
                out.append(Link(m.group(1), m.group(2), no))
    return out


def key_values(lines: list[str]) -> dict[str, str]:
    """`**Key**: value` lines and the experience-entry `Error:` / `Summary:` lines."""
    out: dict[str, str] = {}
    for line in lines:
        if ":" not in line[:72]:
            continue  # cheap test first: most lines are prose
        m = KEY_VALUE.match(line) or PLAIN_KEY.match(line)
        if m:
            out.setdefault(m.group(1).strip(), m.group(2).strip())
    return out


def sections(lines: list[str]) -> dict[str, str]:
    """`## Heading` -> the text under it (experience entries and reflexion records)."""
    out: dict[str, str] = {}
    current: str | None = None
    buf: list[str] = []
    for line in lines:
        if line.startswith("## "):
            if current is not None:
                out.setdefault(current, "\n".join(buf).strip())
            current, buf = line[3:].strip(), []
        elif current is not None:
            buf.append(line)
    if current is not None:
        out.setdefault(current, "\n".join(buf).strip())
    return out


def title(lines: list[str]) -> str | None:
    for line in lines[:40]:
        if line.startswith("# "):
            return line[2:].strip() or None
    return None


def date_in_name(name: str) -> str | None:
    """The date a file name carries, as YYYY-MM-DD (THE parser of dates in names: expiry and
    recency read it), else None."""
    m = DATE_IN_NAME.search(name)
    return f"{m.group(1)}-{m.group(3)}-{m.group(4)}" if m else None


_COMMENT_OPEN = re.compile(r"^ {0,3}<!--")
_COMMENT_SPAN = re.compile(r"<!--[\s\S]*?-->")


def comment_free_lines(text: str) -> tuple[list[tuple[int, str]], bool]:
    """(line number, what is left of the line) of the text without its block-level HTML comments,
    as Claude Code strips them (`stripHtmlCommentsFromTokens`, read at 2.1.88 and 2.1.332): a
    comment opening a line (at most three spaces in, outside fenced code) runs to the line that
    closes it, and of those lines only what lies outside `<!-- ... -->` spans is kept; a comment
    that never closes is kept whole, as text. Also whether one never closes."""
    out: list[tuple[int, str]] = []
    fence = ""
    block: list[tuple[int, str]] = []  # the lines of a comment still open
    text = text.replace("\r\n", "\n")  # the markdown lexer Claude Code strips with turns CRLF into LF
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    for no, line in enumerate(lines if lines[-1] else lines[:-1], 1):
        if block:
            block.append((no, line))
            if "-->" in line:
                _residue(block, out)
                block = []
            continue
        m = FENCE_OPEN.match(line)
        if m:
            fence = "" if fence and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) else fence or m.group(1)
        if fence or not _COMMENT_OPEN.match(line):
            out.append((no, line))
            continue
        block = [(no, line)]
        if "-->" in line[line.index("<!--") + 4:]:
            _residue(block, out)
            block = []
    out += block  # never closed: Claude Code keeps it as text
    return out, bool(block)


def _residue(block: list[tuple[int, str]], out: list[tuple[int, str]]) -> None:
    """What a closed comment block leaves: its lines without the comment spans, if anything."""
    rest = _COMMENT_SPAN.sub("", "".join(line for _, line in block))
    if rest.strip():
        out.append((block[-1][0], rest))
