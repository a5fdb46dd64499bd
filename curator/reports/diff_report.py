"""A plan's diff as Rich text: one colouring for the CLI and the app's preview."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text

# role styles (styles.py): the app's theme colours, the terminal's own in the CLI
STYLES = (("+++", "bold"), ("---", "bold"), ("+", "success"), ("-", "error"), ("@@", "info"), ("rename ", "warning"))


def diff_text(plan) -> Text:
    """Every diff line, coloured by its prefix (NO_COLOR is honoured by the console)."""
    out = Text()
    for line in plan.diff().splitlines():
        out.append(line + "\n", style=next((s for prefix, s in STYLES if line.startswith(prefix)), "dim"))
    return out


def plan_renderable(plan) -> Group:
    """Title, coloured diff and the plan's notes (uniqueness, collisions, what was left)."""
    parts = [Text(plan.title, style="bold"), diff_text(plan)]
    parts += [Text(f"note: {note}", style="dim") for note in plan.notes]
    return Group(*parts)
