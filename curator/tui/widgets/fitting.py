"""Rich renderables that fit the width they are drawn at: a line that says less when narrow, and
a key list wrapped between entries only. At 80 columns a pane is ~46 wide: a number never ends
one line with its unit on the next."""

from __future__ import annotations

from rich.text import Text


class FirstThatFits:
    """The first of these one-line texts that fits the width it is drawn at (else the last, cut):
    a totals line says less in a narrow pane instead of wrapping its last mark."""

    def __init__(self, *lines: Text) -> None:
        self.lines = lines

    def __rich_console__(self, console, options):
        fits = next((t for t in self.lines if t.cell_len <= options.max_width), None)
        if fits is None:  # not even the shortest: cut with an ellipsis, never wrapped
            fits = self.lines[-1].copy()
            fits.no_wrap, fits.overflow = True, "ellipsis"
        yield fits


class Phrases:
    """Phrases (Texts) on as few lines as they take, wrapped between phrases only — never a number
    away from its word (`0` at a line's end, `new findings` on the next)."""

    def __init__(self, phrases: list[Text], sep: str = " · ") -> None:
        self.phrases = [p for p in phrases if p.plain]
        self.sep = sep

    def __rich_console__(self, console, options):
        line = Text()
        for phrase in self.phrases:
            if line.cell_len and line.cell_len + len(self.sep) + phrase.cell_len > options.max_width:
                yield line
                line = Text()
            if line.cell_len:
                line.append(self.sep)
            line.append_text(phrase)
        if line.cell_len:
            yield line


class KeyLine:
    """Keys and what they do, separated by " · ", wrapped between entries only (never a key
    away from its word, never a line that starts with the separator)."""

    def __init__(self, items: list[tuple[str, str]]) -> None:
        self.items = items

    def __rich_console__(self, console, options):
        line = Text()
        for key, what in self.items:
            entry = Text.assemble((key, "bold"), f" {what}")
            if line.cell_len and line.cell_len + 3 + entry.cell_len > options.max_width:
                yield line
                line = Text()
            if line.cell_len:
                line.append(" · ")
            line.append_text(entry)
        yield line


def _common_prefix(a: str, b: str) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def distinct_cut(value: str, width: int, others=()) -> list[tuple[int, int]]:
    """How to show `value` in `width` cells among `others` (its neighbours in a list or a tree)
    so rows stay told apart: the (start, end) pieces of it to show, an ellipsis between and after
    cut ones. Cut at its end while that still tells it from its neighbours; else the start they
    all share gives way first (`project_innovation_deck_order.md` → `proj…deck_order.md`, not
    `project_innovatio…`), then what they share at the end (`g…tree-parallel`)."""
    n = len(value)
    if n <= width or width < 2:
        return [(0, min(n, max(width, 0)))]
    others = [o for o in others if o and o != value]
    shared = max((_common_prefix(value, o) for o in others), default=0)
    end_cut = width - 1
    if shared < end_cut:  # cut at the end: what tells it apart is still shown
        return [(0, end_cut)]
    start = shared  # from the start of the word where it differs (`action_states`, not `ction_states`)
    while start > 0 and shared - start < 12 and value[start - 1] not in "_-./ ":
        start -= 1
    shared = start if start > 0 and value[start - 1] in "_-./ " else shared
    rest = n - shared  # from there to its end
    if rest + 2 <= width:  # a short head, an ellipsis, the rest whole
        return [(0, width - 1 - rest), (shared, n)]
    head = max(1, min(4, (width - 2) // 4))
    return [(0, head), (shared, shared + width - 2 - head)]


def shown(value: str, pieces: list[tuple[int, int]]) -> str:
    """`value` as `distinct_cut` shows it: its pieces, `…` between and after cut ones."""
    out = "…".join(value[a:b] for a, b in pieces)
    return out + ("…" if pieces and pieces[-1][1] < len(value) else "")


def cut_column(values: list[str], width: int, cut_one) -> list[str]:
    """Every value of a column in `width` cells: each as `cut_one(value, width)` cuts it (a path
    in its middle, keeping its file name) unless two different values would then look the same —
    those are cut where they differ from their neighbours (`distinct_cut`)."""
    cuts = [cut_one(v, width) if len(v) > width else v for v in values]
    seen: dict[str, set[str]] = {}
    for v, c in zip(values, cuts, strict=True):
        seen.setdefault(c, set()).add(v)
    clashing = {c for c, vs in seen.items() if len(vs) > 1}
    if not clashing:
        return cuts
    order = sorted(set(values))
    place = {v: i for i, v in enumerate(order)}
    out = []
    for v, c in zip(values, cuts, strict=True):
        if c in clashing:
            i = place[v]
            near = [order[j] for j in (i - 1, i + 1) if 0 <= j < len(order)]
            c = shown(v, distinct_cut(v, width, near))
        out.append(c)
    return out
