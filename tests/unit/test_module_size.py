"""Modules stay under 400 lines (a module that grows past it is doing more than one job)."""

from __future__ import annotations

from pathlib import Path

import curator

LIMIT = 400
# over the limit today, each with an owner splitting it: shrink this list, never grow it
KNOWN: set[str] = set()


def test_no_module_over_400_lines():
    root = Path(curator.__file__).parent
    sizes = {p.relative_to(root).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
             for p in root.rglob("*.py")}
    over = {p for p, n in sizes.items() if n > LIMIT}
    assert over <= KNOWN, sorted((p, sizes[p]) for p in over - KNOWN)
    assert KNOWN <= over, f"{sorted(KNOWN - over)} is split or gone: remove it from KNOWN"
