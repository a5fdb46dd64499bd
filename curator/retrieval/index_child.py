"""A large store's first retrieval index, built and saved by a process of its own (the app).

Why: building the words index of 10,000 memories in the app took it from 260 MB to 700 MB — every
memory's terms and passages as Python objects while BM25 is made, kept by the allocator after.
(The build holds less now — its passages are written as they are made: 225 MB at 10,000 in a
bare process, 442 before — but what it frees still stays with the allocator of the process.)
The app needs only what is saved (persist.py): the child builds and saves it, exits and gives all
of that back, and the app opens the saved index as any later start does (~95 MB at 10,000). Only
a store's first build goes there, and only a large one (ELSEWHERE_FROM memories); an update
reuses the saved terms in the app, and a child that fails leaves the app to build it, as before.

    python -m curator.retrieval.index_child STORE
"""

from __future__ import annotations

import sys
from pathlib import Path

# memories: the app with a first build in its own process peaked at 252 MB at 2,500 synthetic
# memories and 387 MB at 5,000 (the child's way: 190 and 247 MB, ~2 s more, once)
ELSEWHERE_FROM = 3000
TIMEOUT = 900  # seconds: a build that takes longer is left to the app


def build_elsewhere(store, searchable: int) -> bool:
    """Build and save `store`'s index in a child when no index file is saved for it yet and it has
    `searchable` ≥ ELSEWHERE_FROM memories. True when the child saved one (the caller opens it)."""
    from ..base import children
    from . import persist

    # whether one is saved, not whether it is usable: the engine reads it just after (a 2 MB
    # checked file at 10,000 memories, ~14 ms), so it is not read twice
    if searchable < ELSEWHERE_FROM or persist.any_saved(store.root):
        return False
    return children.run(__name__, str(store.root), timeout=TIMEOUT)  # Stopped: the app is leaving


def main(argv: list[str]) -> int:
    from ..model.loader import load_store
    from .engine import RetrievalEngine

    try:
        RetrievalEngine(load_store(Path(argv[0])), persist=True)
    except Exception:  # noqa: BLE001 - any failure: the app builds the index itself
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
