"""The day checks and retrieval count recency from (a module of its own: a warm `retrieve` asks
for it without importing the store loader)."""

from __future__ import annotations

import os
from datetime import date


def current_day() -> date:
    """The day checks count from: CURATOR_TODAY=YYYY-MM-DD fixes it (the tests do)."""
    fixed = os.environ.get("CURATOR_TODAY")
    if fixed:
        try:
            return date.fromisoformat(fixed)
        except ValueError:
            pass
    return date.today()
