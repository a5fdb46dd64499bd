"""YAML frontmatter: lenient split of a markdown file into metadata and body."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_loader = None


def _yaml():
    """PyYAML and the bounded loader (`safeyaml`: aliases within a budget), imported on first
    use (start-up time)."""
    global _loader
    import yaml

    if _loader is None:
        from ..base import safeyaml

        _loader = safeyaml.load
    return yaml, _loader

FENCE = re.compile(r"^-{3,}\s*$")


@dataclass(slots=True)
class Frontmatter:
    data: dict = field(default_factory=dict)
    present: bool = False
    error: str | None = None  # why it is invalid, if it is
    error_line: int | None = None


def split_frontmatter(text: str) -> tuple[Frontmatter, str, int]:
    """Return (frontmatter, body, body_first_line). Never raises.

    A BOM before the opening fence is an error (many tools then miss the frontmatter).
    """
    bom = text.startswith("\ufeff")
    probe = text[1:] if bom else text
    first_nl = probe.find("\n")
    first = probe if first_nl < 0 else probe[:first_nl]
    if not FENCE.match(first.rstrip("\r")):
        return Frontmatter(), text, 1
    lines = probe.split("\n")
    close = None
    for i in range(1, len(lines)):
        if FENCE.match(lines[i].rstrip("\r")):
            close = i
            break
    if close is None:
        return (
            Frontmatter(present=True, error="frontmatter is never closed", error_line=1),
            text,
            1,
        )
    block = "\n".join(lines[1:close])
    body = "\n".join(lines[close + 1 :])
    fm = Frontmatter(present=True)
    if bom:
        fm.error, fm.error_line = "a byte-order mark stands before the frontmatter", 1
    yaml, loader = _yaml()
    try:
        data = loader(block) if block.strip() else {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or "invalid YAML"
        fm.error = f"frontmatter is not valid YAML: {problem}"
        fm.error_line = (mark.line + 2) if mark else 1
        return fm, body, close + 2
    except RecursionError:
        fm.error, fm.error_line = "frontmatter is nested too deeply", 1
        return fm, body, close + 2
    except Exception as exc:  # noqa: BLE001 - a bad value (2026-13-45, !!int 'abc') is a finding
        fm.error = f"frontmatter holds a value YAML cannot read: {_one_line(exc)}"
        fm.error_line = 1
        return fm, body, close + 2
    if data is None:
        data = {}
    if not isinstance(data, dict):
        fm.error = f"frontmatter is a {type(data).__name__}, not a mapping"
        fm.error_line = 2
        return fm, body, close + 2
    fm.data = {str(k): v for k, v in data.items()}
    return fm, body, close + 2


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:120]


_KEY_LINE = re.compile(r"^([A-Za-z_][\w-]*):[ \t]+(\S.*?)\s*$")
_PLAIN_START = tuple("'\"[{|>&*!%@`#")


def quoted_frontmatter(text: str) -> dict[int, str] | None:
    """The minimal quoting that makes a file's invalid YAML frontmatter parse to what its author
    wrote: each top-level `key: value` line that YAML cannot read alone gets its value in double
    quotes (a `: ` inside a description, a leading `-`). {1-based line: new line}, or None when
    quoting such lines does not make the whole block a mapping."""
    lines = text.split("\n")
    if not lines or not FENCE.match(lines[0].rstrip("\r")):
        return None
    close = next((i for i in range(1, len(lines)) if FENCE.match(lines[i].rstrip("\r"))), None)
    if close is None:
        return None
    yaml, loader = _yaml()
    new: dict[int, str] = {}
    block = lines[1:close]
    for i, line in enumerate(block):
        m = _KEY_LINE.match(line.rstrip("\r"))
        continued = i + 1 < len(block) and block[i + 1][:1] in (" ", "\t")
        if m is None or continued or m.group(2).startswith(_PLAIN_START):
            continue
        try:
            loader(line)
            continue
        except yaml.YAMLError:
            pass
        except Exception:  # noqa: BLE001 - it parses, but its value cannot be built (2026-13-45): quoting won't help
            continue
        value = m.group(2).replace("\\", "\\\\").replace('"', '\\"')
        new[i + 2] = f'{m.group(1)}: "{value}"' + ("\r" if line.endswith("\r") else "")
    if not new:
        return None
    fixed = [new.get(i + 2, line) for i, line in enumerate(block)]
    try:
        data = loader("\n".join(fixed))
    except Exception:  # noqa: BLE001 - still invalid, or a value YAML cannot build: no quoting fix
        return None
    return new if isinstance(data, dict) else None
