"""The small parsers the adapters share: `@path` imports, lenient frontmatter, glob lists.

All pure and total: hostile input gives empty results or an error string, never an exception,
and never runs long (globs through `globs.compile_glob`; frontmatter through `safeyaml`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from ..base.globs import compile_glob
from ..model.frontmatter import split_frontmatter
from ..model.imports import Ref, code_free_lines, find_imports, is_pathlike  # noqa: F401 - the adapters' imports
from ..model.markdown import comment_free_lines

_KIRO_REF = re.compile(r"#\[\[file:([^\]\n]+)\]\]")


def find_kiro_refs(text: str) -> list[Ref]:
    """`#[[file:path]]` references of Kiro steering files."""
    out = []
    for no, line in enumerate(text.splitlines(), 1):
        for m in _KIRO_REF.finditer(line):
            p = m.group(1).strip()
            out.append(Ref(no, p, p, True))
    return out


@dataclass(slots=True)
class Meta:
    data: dict = field(default_factory=dict)
    present: bool = False
    error: str | None = None  # YAML could not read it (see `lenient`)
    line: int | None = None
    lenient: bool = False  # YAML failed but every line is a plain `key: value` (Cursor reads it so)
    body: str = ""
    body_line: int = 1


_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:\s?(.*)$")


def read_meta(text: str) -> Meta:
    """Frontmatter as the agents read it: YAML, else (Cursor and friends parse it line by
    line) plain `key: value` lines with `- item` lists. Never raises."""
    fm, body, body_line = split_frontmatter(text)
    meta = Meta(dict(fm.data), fm.present, fm.error, fm.error_line, False, body, body_line)
    if fm.error and fm.present and "never closed" not in fm.error and "not a mapping" not in fm.error:
        raw = _raw_pairs(text)
        if raw is not None:
            meta.data, meta.lenient = raw, True
    return meta


# Claude Code reads frontmatter YAML cannot parse a second time (its `_u`, since 2.1.69): each
# one-line `key: value` whose unquoted value holds `: ` or one of {}[]*&#!|>%@` is wrapped in
# double quotes, leading tabs become two spaces each, and YAML tries again.
_CC_LINE = re.compile(r"^([a-zA-Z_-]+):\s+(\S[^\r\n\u2028\u2029]*)$")
_CC_RISKY = re.compile(r"[{}\[\]*&#!|>%@`]|: ")


def claude_meta(text: str, requote: bool) -> Meta:
    """`read_meta` as Claude Code reads frontmatter: YAML only (no line-by-line reading), and with
    `requote` (the agent's version has it) the quoted second try before every field is lost."""
    meta = read_meta(text)
    if meta.lenient:
        meta.data, meta.lenient = {}, False
    if (not (requote and meta.error and meta.present) or "never closed" in meta.error
            or text.startswith("\ufeff")):  # a byte-order mark is its own matter (`items.bom`)
        return meta
    from ..model.frontmatter import FENCE

    lines = text.split("\n")
    close = next((i for i in range(1, len(lines)) if FENCE.match(lines[i].rstrip("\r"))), None)
    if close is None:
        return meta
    block = "\n".join(_requoted(ln) for ln in lines[1:close])
    block = re.sub(r"^\t+", lambda m: "  " * len(m.group(0)), block, flags=re.M)
    again = read_meta("---\n" + block + "\n---\n")
    if again.error or again.lenient or not isinstance(again.data, dict):
        return meta
    meta.data, meta.error, meta.line = again.data, None, None
    return meta


def _requoted(line: str) -> str:
    m = _CC_LINE.match(line)
    if not m:
        return line
    key, value = m.groups()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return line
    if value.startswith("[") and value.endswith("]") and isinstance(read_meta(f"---\nk: {value}\n---\n").data.get("k"), list):
        return line
    if not _CC_RISKY.search(value):
        return line
    return key + ': "' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _raw_pairs(text: str) -> dict | None:
    lines = text.lstrip("\ufeff").split("\n")
    out: dict = {}
    key = None
    for line in lines[1:]:
        line = line.rstrip("\r")
        if re.match(r"^-{3,}\s*$", line):
            return out
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        item = re.match(r"^\s+-\s*(.*)$", line) or re.match(r"^-\s+(.*)$", line)
        if item and key is not None:
            cur = out.get(key)
            out[key] = ([] if not isinstance(cur, list) else cur) + [_unquote(item.group(1))]
            continue
        m = _KEY.match(line)
        if not m:
            return None
        key, value = m.group(1), m.group(2).strip()
        out[key] = _unquote(value) if value else []
    return None


def _unquote(v: str) -> str:
    v = v.strip()
    if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"":
        return v[1:-1]
    return v


def glob_list(value, depth: int = 0) -> list[str]:
    """A `globs`/`paths`/`applyTo` value as a list: a YAML list, or a comma-separated string
    (commas inside `{a,b}` kept). Lists nested deeper than three levels are not globs."""
    if value is None or value is False or depth > 3:
        return []
    if isinstance(value, (list, tuple)):
        out = []
        for v in value:
            out += glob_list(v, depth + 1)
        return out
    s = str(value).strip()
    parts, depth, cur = [], 0, ""
    for ch in s:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [_unquote(p) for p in (p.strip() for p in parts) if p and _unquote(p)]


@lru_cache(maxsize=4096)
def glob_regex(glob: str) -> re.Pattern:
    """gitignore-like: `**` any depth, `*` and `?` within a name, `{a,b}`, `[..]`; a pattern
    without `/` matches a name at any depth; a leading `/` or `./` anchors at the root; a folder
    matched matches everything in it. Never backtracks out of control (`globs.compile_glob`)."""
    g = glob.strip()
    anchored = g.startswith(("/", "./"))
    g = g.lstrip("/") if g.startswith("/") else g[2:] if g.startswith("./") else g
    if g.endswith("/"):
        g += "**"
    if "/" not in g and not anchored:
        g = "**/" + g
    return compile_glob(g, below=True)


@lru_cache(maxsize=1024)
def path_glob_regex(glob: str) -> re.Pattern:
    """A glob matched against a whole absolute path, as picomatch does (`claudeMdExcludes`): no
    name-anywhere reading, a folder's pattern does not take in what is below it. Never
    backtracks out of control either (a repository's settings hold it)."""
    return compile_glob(glob.strip().lstrip("/"))


def path_matches(glob: str, abspath: str) -> bool:
    return path_glob_regex(glob).match(abspath.lstrip("/")) is not None


def matches(glob: str, path: str) -> bool:
    return glob_regex(glob).match(path) is not None


def name_or_path_matches(glob: str, path: str) -> bool:
    """The Copilot CLI's test (`picomatch(glob, {dot: true})` of the path from the git root, or of
    the file's name): a folder's pattern takes nothing below it, `*` stops at `/`, a leading `/`
    matches no relative path."""
    if glob.startswith("/"):
        return False
    rx = path_glob_regex(glob)
    return rx.match(path) is not None or rx.match(path.rsplit("/", 1)[-1]) is not None


def markdown_links(line: str) -> list[tuple[int, str]]:
    r"""(start, target) of each `[text](target)` of a line as VS Code's `/\[(.*?)\]\((.+?)\)/g`
    finds them (an image's too: the caller skips those), in one pass: a line of many `[` does not
    make the regex try every one of them to the line's end."""
    out: list[tuple[int, str]] = []
    i = 0
    while True:
        a = line.find("[", i)
        if a < 0:
            return out
        b = line.find("](", a + 1)
        close = line.find(")", b + 3) if b >= 0 else -1
        if b < 0 or close < 0:
            return out  # no later `[` can match either: each would need this same `](`...`)`
        out.append((a, line[b + 2:close]))
        i = close + 1


def first_match(globs: list[str], files: list[str], ignore_case: bool = False) -> str | None:
    """The first file any of `globs` matches (None: a dead glob list); `ignore_case`: whatever the
    case of either (VS Code's `applyTo`)."""
    pats = [glob_regex(g.lower() if ignore_case else g) for g in globs]
    for f in files:
        name = f.lower() if ignore_case else f
        for p in pats:
            if p.match(name):
                return f
    return None


def strip_block_comments(text: str) -> str:
    """The text without its block-level HTML comments (`<!-- ... -->` opening a line, to its
    close, over several lines if need be); those in fenced code stay. What Claude Code injects
    of a CLAUDE.md since 2.1.72."""
    return strip_comments(text)[0]


def strip_comments(text: str) -> tuple[str, bool]:
    """`strip_block_comments`, and whether a comment never closes (kept as text)."""
    if "<!--" not in text:
        return text, False
    kept, unclosed = comment_free_lines(text)
    return "".join(line for _, line in kept), unclosed

