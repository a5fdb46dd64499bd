"""A memory as the passages the sentence encoder reads: the model takes 128 word pieces, and the
memories people keep run to thousands of words, so a memory is embedded as its sections.

The body is cut at its headings (outside fenced code); consecutive sections are packed into one
passage while they fit, a section longer than a passage is read in overlapping windows. Each
passage starts with the memory's head (name and title, at most HEAD_PIECES pieces), so the model
reads every window knowing what the memory is about, then the section's heading path. A passage
keeps where it starts (heading, line) and a short excerpt, for explanations.

Pure: text in, passages out (the tokenizer counts pieces; nothing is embedded here).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from itertools import accumulate

BUDGET = 128  # the model's pieces per passage, [CLS] and [SEP] included
HEAD_PIECES = 24  # the memory's head, at most, at the start of every passage
OVERLAP = 0.25  # of a window, read again by the next one when a section is cut
EXCERPT = 110  # characters
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")


@dataclass(frozen=True, slots=True)
class Passage:
    heading: str  # the heading path of its first section ("Setup › Docker"), "" before any heading
    line: int  # its first line in the memory's body (1-based)
    text: str  # what the model reads: head, heading path, the words
    excerpt: str  # the first words, for an explanation


@dataclass(slots=True)
class _Section:
    path: str
    line: int  # its heading's line (the first line when it has none)
    start: int  # its first line of text
    lines: list[str]


def sections(body: str) -> list[_Section]:
    """The body cut at its headings (a heading inside fenced code is code, not a cut)."""
    out = [_Section("", 1, 1, [])]
    trail: list[tuple[int, str]] = []
    fenced = False
    for no, line in enumerate(body.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
        m = None if fenced or not line.startswith("#") else HEADING.match(line)
        if m:
            level, title = len(m.group(1)), m.group(2).strip()
            trail = [(lv, t) for lv, t in trail if lv < level] + [(level, title)]
            out.append(_Section(" › ".join(t for _, t in trail if t), no, no + 1, []))
        else:
            out[-1].lines.append(line)
    return [s for s in out if any(x.strip() for x in s.lines) or s.path]


def split(head: str, body: str, tokenizer, budget: int = BUDGET) -> list[Passage]:
    """The passages of one memory. `tokenizer` is the encoder's WordPiece (`count(word)`)."""
    count = tokenizer.count
    head_words = _fit(count, head.split(), HEAD_PIECES)
    prefix = " ".join(head_words)
    room = budget - 2 - sum(map(count, head_words))
    out: list[Passage] = []
    pack: list[tuple[_Section, list[str]]] = []
    used = 0

    def flush() -> None:
        nonlocal pack, used
        if pack:
            first = pack[0][0]
            words = [w for s, ws in pack for w in ([*s.path.split(), *ws] if s is not first else ws)]
            out.append(_passage(prefix, first.path, first.line, words))
        pack, used = [], 0

    for sec in sections(body):
        words = " ".join(sec.lines).split()
        costs = _costs(tokenizer, words)
        head_cost = sum(_costs(tokenizer, sec.path.split()))
        cost = head_cost + sum(costs)
        if cost <= room - used:
            pack.append((sec, words))
            used += cost
            continue
        flush()
        if cost <= room:
            pack, used = [(sec, words)], cost
            continue
        lines = _line_starts(sec.lines)
        for start, end in _windows(costs, room - head_cost):
            out.append(_passage(prefix, sec.path, sec.start + _line_of(lines, start), words[start:end]))
    flush()
    return out or [_passage(prefix, "", 1, [])]


def _passage(prefix: str, heading: str, line: int, words: list[str]) -> Passage:
    text = " ".join(x for x in (prefix, heading, " ".join(words)) if x)
    excerpt = " ".join(words)
    if len(excerpt) > EXCERPT:
        excerpt = excerpt[:EXCERPT].rsplit(" ", 1)[0] + " …"
    return Passage(heading, line, text, excerpt)


def _costs(tokenizer, words: list[str]) -> list[int]:
    """Each word's pieces: looked up in C (`map`), counted in Python only for words not met yet."""
    costs = list(map(tokenizer._counts.get, words))
    if None in costs:
        costs = [c if c is not None else tokenizer.count(w) for c, w in zip(costs, words, strict=True)]
    return costs


def _fit(count, words: list[str], room: int) -> list[str]:
    out, used = [], 0
    for w in words:
        n = count(w)
        if used + n > room:
            break
        out.append(w)
        used += n
    return out


def _windows(costs: list[int], room: int):
    """(start, end) word spans of overlapping windows of at most `room` pieces: each as long as
    fits, the next starting OVERLAP of it back (found by bisection over the running sums: a long
    memory is cut in one pass, not word by word)."""
    room = max(room, 8)
    sums = [0, *accumulate(costs)]  # sums[i]: the pieces of words[:i]
    n, start = len(costs), 0
    while start < n:
        end = max(bisect_right(sums, sums[start] + room, start, n + 1) - 1, start + 1)
        yield start, end
        if end >= n:
            return
        # the first word from which the rest of the window fits OVERLAP of it (one word at least)
        start = bisect_left(sums, sums[end] - room * OVERLAP, start + 1, end)


def _line_starts(lines: list[str]) -> list[int]:
    """How many words come before each line of a section, and after its last (running sums)."""
    return [0, *accumulate(len(line.split()) for line in lines)]


def _line_of(starts: list[int], word_index: int) -> int:
    """The line (0-based, within the section's text) holding its `word_index`-th word."""
    return min(bisect_right(starts, word_index), len(starts) - 1) - 1 if len(starts) > 1 else 0
