"""The Textual face: the app, its screens, dialogs and widgets, the command palette, themes and
settings. Nothing here is imported by the CLI's machine commands (tests/unit/test_import_hygiene.py)."""
