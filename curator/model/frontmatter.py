"""YAML frontmatter: lenient split of a markdown file into metadata and body."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_loader = None


def _yaml():
    """PyYAML and its fastest safe loader, imported on first use (start-up time)."""
    global _loader
    import yaml

    if _loader is None:
        # libyaml is ~10x faster; the pure loader is the fallback
        _loader = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader
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
        data = yaml.load(block, Loader=loader) if block.strip() else {}
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
