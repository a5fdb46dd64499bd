"""F1 help: what the current screen is for, and its live key bindings — on one 80×24 screen:
the screen's keys one a line, the keys that work anywhere (and the screens) on one wrapped line
between entries, the moving keys on another."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..widgets.fitting import KeyLine

MOVING = ("Moving: ↑↓ j k, PgUp/PgDn, Home/End g G · Tab: next pane · Esc or ↓ leaves a text box · "
          "every action has a CLI twin (curator --help) · Esc closes this help")


def help_for(app, screen, screens_group) -> HelpScreen:
    """The help of `screen` as the app shows it now: its text (and the focused widget's, and the
    demo's notice), its own keys, and the app's keys and screens in one line."""
    focused = screen.focused
    parts = [getattr(screen, "HELP", "") or ""]
    if focused is not None and getattr(focused, "HELP", None):
        parts.append(focused.HELP)
    if app.notice:
        parts.append(app.notice)
    # each row: its keys, what they do, and (for a group) what each key of it does
    rows: list[tuple[list[str], str, list[str]]] = []
    seen: set[str] = set()
    screens: list[tuple[str, str]] = []
    groups: dict[str, int] = {}
    anywhere: list[tuple[str, str]] = []
    for active in screen.active_bindings.values():
        b = active.binding
        if b.action in seen or not b.description:
            continue
        if not b.id or b.id.startswith("table-") or b.id.startswith("tree-") or b.id.startswith("leave-box"):
            continue  # generic movement keys are one line of the help, not a page each
        seen.add(b.action)
        if b.group is screens_group:  # 1 2 3 4 5 6 7: one entry for the screens
            screens.append((b.key, "Store" if b.id == "show-store" else b.description))
            continue
        key = b.key_display or app.get_key_display(b)
        if active.node is app:  # the app's own keys work on every screen: one line for them
            anywhere.append((key, b.description))
            continue
        if b.group is not None:  # e w i: one line for the group ("Severities: ...")
            if b.group.description not in groups:
                groups[b.group.description] = len(rows)
                rows.append(([], b.group.description, []))
            keys, _, whats = rows[groups[b.group.description]]
            keys.append(key)
            whats.append(b.description)
            continue
        rows.append(([key], b.tooltip or b.description, []))
    lines = [(" ".join(keys), f"{what}: {' / '.join(each)}" if each else what) for keys, what, each in rows]
    anywhere.append(("^p", "Commands"))  # (Textual's palette: every action by name)
    typing = not screens  # a text box has the focus: the number keys type into it until Esc
    if typing:
        screens = [(b.key, "Store" if b.id == "show-store" else b.description)
                   for b in app.BINDINGS if getattr(b, "group", None) is screens_group]
    if screens:
        span = f"{screens[0][0]}-{screens[-1][0]}" if len(screens) > 2 else " ".join(k for k, _ in screens)
        anywhere.append((f"Esc {span}" if typing else span, " ".join(d for _, d in screens)))
    return HelpScreen("\n".join(p for p in parts if p), lines, anywhere)


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 100%; max-width: 100; height: auto; max-height: 100%;
        border: round $primary; background: $surface; padding: 0 1;
    }
    """
    BINDINGS = [
        Binding("escape,f1,q,question_mark", "dismiss", "Close", id="close-help", tooltip="Close help"),
    ]

    def __init__(self, screen_help: str, bindings: list[tuple[str, str]], anywhere=(), **kwargs) -> None:
        super().__init__(**kwargs)
        self.screen_help = screen_help
        self.binding_rows = bindings
        self.anywhere = list(anywhere)  # (key, what) of the keys every screen has

    def compose(self) -> ComposeResult:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for keys, what in self.binding_rows:
            table.add_row(keys, what)
        body = Table.grid()
        body.add_row(Text(self.screen_help))
        if self.binding_rows:
            body.add_row(Text("Keys here", style="bold"))
            body.add_row(table)
        if self.anywhere:
            body.add_row(Text("Anywhere", style="bold"))
            body.add_row(KeyLine(self.anywhere))
        body.add_row(Text(MOVING, style="dim"))
        with VerticalScroll() as scroll:
            scroll.border_title = "curator help"
            yield Static(body)

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)
