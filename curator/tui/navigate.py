"""Going to a place from anywhere in the app, as coroutines the app runs as its "navigate" worker:
a file on the store screen, the Sessions screen narrowed to the sessions that loaded a file."""

from __future__ import annotations


async def open_path(app, path: str, line: int | None = None) -> None:
    from .screens import MainScreen

    await app.show_view("store")
    screen = app.screen
    if isinstance(screen, MainScreen):
        screen.open_path(path, line)


async def show_sessions(app, path: str, session_ids) -> None:
    from .screens.sessions import SessionsScreen

    await app.show_view("sessions")
    if isinstance(app.screen, SessionsScreen):
        app.screen.narrow(path, session_ids)
