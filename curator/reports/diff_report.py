"""A plan's diff as Rich text: one colouring for the CLI and the app's preview, each line fitted
to the width it is drawn at — never wrapped over two or three lines: a changed line too long for
the width shows the stretch around its change (`…` where it is cut), the lines around it their
start. `--format json` keeps the whole diff."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text

# role styles (styles.py): the app's theme colours, the terminal's own in the CLI
STYLES = (("+++", "bold"), ("---", "bold"), ("+", "success"), ("-", "error"), ("@@", "info"), ("rename ", "warning"))


def _style(line: str) -> str:
    return next((s for prefix, s in STYLES if line.startswith(prefix)), "dim")


def _mates(lines: list[str]) -> dict[int, int]:
    """Each removed line's added twin and back (the k-th `-` of a block with the k-th `+`
    after it): the line to compare with, to find where a change is."""
    mates: dict[int, int] = {}
    i = 0
    while i < len(lines):
        if lines[i].startswith("-") and not lines[i].startswith("---"):
            minus = []
            while i < len(lines) and lines[i].startswith("-") and not lines[i].startswith("---"):
                minus.append(i)
                i += 1
            plus = []
            while i < len(lines) and lines[i].startswith("+") and not lines[i].startswith("+++"):
                plus.append(i)
                i += 1
            for a, b in zip(minus, plus, strict=False):
                mates[a], mates[b] = b, a
        else:
            i += 1
    return mates


def fit_line(line: str, width: int, mate: str | None = None) -> str:
    """`line` in `width` cells: whole when it fits; a changed line the stretch from a little
    before its first difference with `mate`; any other its start. `…` marks each cut."""
    if len(line) <= width or width < 8:
        return line
    sign, body = (line[0], line[1:]) if line[:1] in "+- " else ("", line)
    room = width - len(sign)
    first = 0
    if mate is not None:
        other = mate[1:]
        while first < min(len(body), len(other)) and body[first] == other[first]:
            first += 1
    if first < room - 8:  # the change is near the start: the start shows it
        return sign + body[: room - 1] + "…"
    left = max(0, min(first - room // 3, len(body) - (room - 1)))  # (near the end: the end, whole)
    if left + room - 1 >= len(body):  # the rest fits after the ellipsis
        return sign + "…" + body[left:]
    return sign + "…" + body[left: left + room - 2] + "…"


class FittedDiff:
    """The diff's lines, each fitted to the width it is drawn at (see the module's docstring)."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()

    def at(self, width: int) -> list[Text]:
        """The diff's lines fitted to `width` cells, each coloured by its kind."""
        mates = _mates(self.lines)
        return [Text(fit_line(line, width, self.lines[mates[i]] if i in mates else None).rstrip(),
                     style=_style(line), no_wrap=True, overflow="ellipsis") for i, line in enumerate(self.lines)]

    def __rich_console__(self, console, options):
        yield from self.at(options.max_width)


def diff_text(plan, prefix: str = "") -> FittedDiff:
    """Every diff line, coloured by its prefix (NO_COLOR is honoured by the console), fitted."""
    return FittedDiff(plan.diff(prefix))


def plan_renderable(plan, prefix: str = "") -> Group:
    """Title, coloured diff and the plan's notes (uniqueness, collisions, what was left)."""
    parts: list[Text | FittedDiff] = [Text(plan.title, style="bold"), diff_text(plan, prefix)]
    parts += [Text(f"note: {note}", style="dim") for note in plan.notes]
    return Group(*parts)
