"""Line edits that leave every untouched byte as it was (line endings included)."""

from __future__ import annotations


def split_keep(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def newline_of(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def edit_lines(text: str, replace: dict[int, str | None] | None = None, append: list[str] | None = None) -> str:
    """Replace (or drop, with None) 1-based lines, then append lines; keeps each line's ending."""
    lines = split_keep(text)
    nl = newline_of(text)
    for no, new in sorted((replace or {}).items(), reverse=True):
        if not 1 <= no <= len(lines):
            continue
        old = lines[no - 1]
        ending = old[len(old.rstrip("\r\n")):]
        if new is None:
            del lines[no - 1]
        else:
            lines[no - 1] = new + (ending or "")
    if append:
        if lines and not lines[-1].endswith(("\n", "\r")):
            lines[-1] += nl
        lines.extend(line + nl for line in append)
    return "".join(lines)
