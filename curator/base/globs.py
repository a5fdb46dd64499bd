"""Glob patterns from a repository (rules' `paths:`/`globs:`/`applyTo`, `.curator.yaml` tiers),
compiled to regular expressions that never backtrack out of control.

A glob translated star by star (`*` → `[^/]*`) makes Python's backtracking engine try every way
to split a name between the stars: 20 `*` before an `a` run for ever on a long name. Here a glob
is read as *chunks* separated by folder-crossing stars (`**` → `.*`, `**/` → any folders): each
chunk is found at its leftmost place and committed (an atomic group), and inside a chunk each
piece between `*`s is placed leftmost and committed too. Leftmost placement is optimal for such
patterns (a later place never helps what follows), so the match is exact; each group is tried
at most once per position, so the time is polynomial in the glob and the path, never
exponential. Runs of stars collapse first (`***` is `**`, `*` beside `**` is `**`).

`**` crosses folders, `*` and `?` stay within one, `[..]` (`[!..]` negated) is one character of a
name, `{a,b}` alternatives (expanded, at most `MAX_ALTERNATIVES`). Globs longer than `MAX_GLOB`
characters or with more alternatives match nothing.
"""

from __future__ import annotations

import re
from functools import lru_cache

MAX_GLOB = 1000
MAX_ALTERNATIVES = 32
NOTHING = re.compile(r"(?!)")

# tokens: a regex fragment matching one character, or one of the stars
SEG, ANY, DIRS = "seg", "any", "dirs"  # `*` (within a name), `**` (anything), `**/` (any folders)
MID = "mid"  # `**/` inside a name (`a**/b`): nothing, or `**` then `/` — two alternatives
BREAK = "\x00"  # where an expanded `{..}` began or ended (no glob of curator's holds a NUL)


def expand_braces(glob: str, limit: int = MAX_ALTERNATIVES) -> list[str] | None:
    """`a{b,c}d` → [abd, acd] (nested, commas at depth 0 of the group); None past `limit`. An
    unbalanced `{` is a character."""
    start = glob.find("{")
    while start >= 0:
        depth, cuts = 0, []
        for j in range(start, len(glob)):
            c = glob[j]
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    break
            elif c == "," and depth == 1:
                cuts.append(j)
        else:
            start = glob.find("{", start + 1)
            continue
        if not cuts:  # `{x}`: no alternatives; the braces stay characters
            start = glob.find("{", start + 1)
            continue
        head, tail = glob[:start], glob[j + 1:]
        bounds = [start, *cuts, j]
        out: list[str] = []
        for a, b in zip(bounds, bounds[1:], strict=False):
            # BREAK keeps `*{*,x}` from reading as `**`: stars of a group and beside it are apart
            alts = expand_braces(f"{head}{BREAK}{glob[a + 1:b]}{BREAK}{tail}", limit)
            if not alts:
                return None
            for alt in alts:
                out.append(alt)
                if len(out) > limit:
                    return None
        return out
    return [glob]


def _class(body: str) -> str:
    """One `[..]` of a glob as a regex class of one name character (never `/`)."""
    negate = body.startswith("!") or body.startswith("^")
    body = body[1:] if negate else body
    body = body.replace("/", "")
    if not body and not negate:
        return "(?!)"
    body = re.sub(r"([\\\[\]&~|^])", r"\\\1", body).replace("--", "\\-\\-")
    return f"[^/{body}]" if negate else f"[{body}]"


def tokens(glob: str, classes: bool = True) -> list[str]:
    """The glob as one-character fragments and stars, runs of stars collapsed."""
    out: list[str] = []
    i = 0
    while i < len(glob):
        c = glob[i]
        if c == BREAK:
            i += 1
            continue
        if c == "*":
            j = i
            while j < len(glob) and glob[j] == "*":
                j += 1
            if j - i == 1:
                out.append(SEG)
            elif j - i == 2 and j < len(glob) and glob[j] == "/":
                out.append(DIRS if i == 0 or glob[i - 1] == "/" else MID)
                j += 1
            else:
                out.append(ANY)
                if (j - i) % 2 == 0 and j < len(glob) and glob[j] == "/":
                    j += 1  # an even run ends in `**/`: its `/` is optional after `**`
            i = j
            continue
        if c == "?":
            out.append("[^/]")
        elif c == "[" and classes and (k := glob.find("]", i + 1)) > i + 1:
            out.append(_class(glob[i + 1:k]))
            i = k + 1
            continue
        else:
            out.append(re.escape(c))
        i += 1
    return _collapse(out)


def _collapse(toks: list[str]) -> list[str]:
    """Neighbouring stars as one: the same star twice is once, anything beside `**` is `**`."""
    out: list[str] = []
    for t in toks:
        if out and t in (SEG, ANY, DIRS) and out[-1] in (SEG, ANY, DIRS):
            if out[-1] == t:
                continue
            if ANY in (out[-1], t):
                out[-1] = ANY
                continue
        out.append(t)
    return out


def _chunk(toks: list[str], final: bool) -> str:
    """A run of one-character fragments and `*`s: each piece after a `*` found leftmost and
    committed; in the final chunk the last piece after a `*` is placed at the end of its name
    (the rightmost place in it: the only one that can end there)."""
    pieces: list[list[str]] = [[]]
    for t in toks:
        if t == SEG:
            pieces.append([])
        else:
            pieces[-1].append(t)
    out = "".join(pieces[0])
    for n, piece in enumerate(pieces[1:], 1):
        body = "".join(piece)
        if n == len(pieces) - 1 and final:
            out += f"(?>[^/]*{body})(?=/|\\Z)"
        else:
            out += f"(?>[^/]*?{body})"
    return out


def _unfold(toks: list[str], limit: int) -> list[list[str]] | None:
    """Every `**/` inside a name as its two readings (`(?:.*/)?`: nothing, or `**` and `/`);
    None past `limit` readings. (Committing to the leftmost place is exact only when a `**/`
    starts a name, so the two are matched as separate alternatives.)"""
    out: list[list[str]] = [[]]
    for t in toks:
        if t == MID:
            out = [*(o for o in out), *([*o, ANY, "/"] for o in out)]
            if len(out) > limit:
                return None
        else:
            out = [[*o, t] for o in out]
    return [_collapse(o) for o in out]


def body(toks: list[str], end: str = r"\Z") -> str:
    """The regex of one brace-free glob's tokens, anchored at the start; `end` closes it."""
    chunks: list[tuple[str | None, list[str]]] = [(None, [])]  # (the star before it, its tokens)
    for t in toks:
        if t in (ANY, DIRS):
            chunks.append((t, []))
        else:
            chunks[-1][1].append(t)
    parts = []
    last = len(chunks) - 1
    for n, (star, chunk) in enumerate(chunks):
        final = n == last
        inner = _chunk(chunk, final) if chunk else ""
        if final:
            inner += end
        if star is None:
            parts.append(f"(?>{inner})" if inner else "")
        else:
            skip = ".*?" if star == ANY else "(?:.*?/)??"
            parts.append(f"(?>{skip}{inner})")
    return "".join(parts)


@lru_cache(maxsize=4096)
def compile_glob(glob: str, *, classes: bool = True, braces: bool = True, below: bool = False) -> re.Pattern:
    """The regex for `glob` (match() from the path's start). `below`: a match of a folder also
    matches everything under it (`(?:/.*)?`)."""
    if len(glob) > MAX_GLOB or BREAK in glob:
        return NOTHING
    alternatives = expand_braces(glob) if braces else [glob]
    if alternatives is None:
        return NOTHING
    readings: list[list[str]] = []
    for g in dict.fromkeys(alternatives):
        unfolded = _unfold(tokens(g, classes), MAX_ALTERNATIVES)
        if unfolded is None or len(readings) + len(unfolded) > MAX_ALTERNATIVES:
            return NOTHING
        readings += unfolded
    end = r"(?:/.*)?\Z" if below else r"\Z"
    try:
        return re.compile("|".join(f"(?:{body(t, end)})" for t in readings), re.S)
    except re.error:
        return NOTHING
