"""The app's own keys: one footer entry for the screens ("1-7 Screens", each key in F1's list),
help, reload, theme, undo and quit."""

from __future__ import annotations

from textual.binding import Binding, BindingType

SCREENS_GROUP = Binding.Group("Screens", compact=True)  # one "1-7 Screens" entry: the footer fits 80 columns

APP_BINDINGS: list[BindingType] = [
    # one footer entry for the screens ("1-7 Screens"); each key is in F1's list
    Binding("1", "show_view('store')", "Screens", id="show-store", group=SCREENS_GROUP, key_display="1-7",
            tooltip="1 Store · 2 Problems · 3 Budgets · 4 Lab · 5 Sessions · 6 Drift"),
    Binding("2", "show_view('problems')", "Problems", id="show-problems", group=SCREENS_GROUP, tooltip="Every finding", show=False),
    Binding("3", "show_view('budgets')", "Budgets", id="show-budgets", group=SCREENS_GROUP,
            tooltip="Tokens, budgets and the cost model", show=False),
    Binding("4", "show_view('lab')", "Lab", id="show-lab", group=SCREENS_GROUP, tooltip="What would the agent retrieve?",
            show=False),
    Binding("5", "show_view('sessions')", "Sessions", id="show-sessions", group=SCREENS_GROUP,
            tooltip="The agent's sessions: browse, search, mine", show=False),
    Binding("6", "show_view('drift')", "Drift", id="show-drift", group=SCREENS_GROUP,
            tooltip="What is out of step, and each memory system's start-up load over git history", show=False),
    Binding("7", "show_view('context')", "Context", id="show-context", group=SCREENS_GROUP,
            tooltip="What each agent loads: start-up files, on demand, imports", show=False),
    Binding("f1,question_mark", "help", "Help", id="help", tooltip="Keys and what this screen is for"),
    Binding("ctrl+r", "reload_store", "Reload", id="reload-store", tooltip="Re-read the store and re-run the checks", show=False),
    Binding("ctrl+t", "next_theme", "Theme", id="next-theme", tooltip="Cycle through the themes", show=False),
    Binding("ctrl+z", "undo", "Undo", id="undo", tooltip="Undo the last curator operation (repeatable)"),
    Binding("q", "quit", "Quit", id="quit", tooltip="Leave curator", show=False),  # (F1 lists it: the footer keeps 80 columns for this screen's keys)
]
