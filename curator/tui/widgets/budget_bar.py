"""A one-line budget bar: used / budget, turning to the error colour when over."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget


class BudgetBar(Widget):
    DEFAULT_CSS = """
    BudgetBar { height: 1; width: 1fr; }
    """

    used: reactive[int] = reactive(0)
    budget: reactive[int] = reactive(0)
    label: reactive[str] = reactive("")
    note: reactive[str] = reactive("")  # words instead of a bar (e.g. several caps at once)
    unit: reactive[str] = reactive("")  # after the numbers: "108/104 lines over"
    past: reactive[int] = reactive(0)  # lines past a cap that is not in tokens
    beside: reactive[int] = reactive(0)  # of `used`, tokens no budget governs (Serena's list beside an index)

    def __init__(self, label: str = "", used: int = 0, budget: int = 0, **kwargs) -> None:
        super().__init__(**kwargs)
        self.set_reactive(BudgetBar.label, label)
        self.set_reactive(BudgetBar.used, used)
        self.set_reactive(BudgetBar.budget, budget)

    def render(self) -> Text:
        if self.note:
            over = "over" in self.note
            return Text(self.note, style="bold error" if over else "success", no_wrap=True, overflow="ellipsis")
        if not self.budget:  # no cap in tokens: the number alone (nothing before a load)
            return self._uncapped()
        capped = self.used - self.beside  # the total first, then the part the budget governs
        over = bool(self.budget) and capped > self.budget
        colour = "error" if over else "success"  # role styles: the current theme's colours
        room = self.size.width
        shown = f"{self.used:,}/{self.budget:,}"
        if self.beside:  # the total, then the index against its budget, shorter as room runs out
            shown = next((t for t in (f"{self.used:,} · {capped:,}/{self.budget:,} in budget",
                                      f"{self.used:,} ({capped:,}/{self.budget:,})") if len(t) + 6 <= room),
                         f"{self.used:,}")
        tail = f" {shown}" + (f" {self.unit}" if self.unit else "") + (" over" if over else "")
        label = self.label + " " if self.label else ""
        if room < len(label) + len(tail) + 6:  # narrow: the words before the bar (its label's last word, else none)
            if len(label) + len(tail) > room:
                label = label.split()[-1] + " " if label and room >= len(label.split()[-1]) + len(tail) + 1 else ""
        width = max(0, room - len(label) - len(tail))
        frac = 0 if not self.budget else min(1.0, capped / self.budget)
        filled = round(width * frac)
        text = Text(label, no_wrap=True, overflow="ellipsis")
        text.append("━" * filled, style=colour)
        text.append("━" * (width - filled), style="dim")
        text.append(tail.strip() if not width else tail, style=f"bold {colour}" if over else "")
        return text

    def _uncapped(self) -> Text:
        if not self.used and not self.past:
            return Text("")
        tail = Text(f"{self.used:,} tok", style="bold")
        if self.past:
            tail.append(f" · {self.past:,} lines cut", style="bold error")
        label = f"{self.label} " if self.label else ""
        if self.size.width and len(label) + tail.cell_len > self.size.width:
            label = ""  # narrow: the numbers matter more than the word
        return Text(label, no_wrap=True, overflow="ellipsis") + tail


def compact(n: int) -> str:
    """12,345 → 12.3k, 7,648,000 → 7.6M (short enough for a header or a tree badge)."""
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f}M"
    if n >= 10_000:
        return f"{n / 1000:.1f}k"
    return f"{n:,}"
