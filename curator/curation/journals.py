"""More than one journal: a store's and the repository's (instruction-file fixes journal at the
repository root). The app's undo takes back the newest applied operation of either, and its
history lists both, each entry saying where it was written."""

from __future__ import annotations

from pathlib import Path

from ..base.trust import REPOSITORY, STORE
from .quarantine import entries, history


def kind_of(name: str) -> str:
    """The journal kind of a named root: the repository's (instruction files) or a store's."""
    return REPOSITORY if name == "repository" else STORE


def distinct(named_roots) -> list[tuple[str, Path]]:
    """(name, root) pairs without a root seen before (a store at the repository's top is one journal)."""
    seen, out = set(), []
    for name, root in named_roots:
        if root is None:
            continue
        key = Path(root).resolve()
        if key not in seen:
            seen.add(key)
            out.append((name, Path(root)))
    return out


def _last_applied(root: Path, kind: str = STORE) -> tuple:
    """When the root's last applied operation was applied, as a sortable key (() if none)."""
    applied = [e for e in entries(root, kind) if e.state == "applied"]
    if not applied:
        return ()
    last = applied[-1]
    try:
        ns = (last.path / "meta.json").stat().st_mtime_ns  # finer than the seconds written in it
    except OSError:
        ns = 0
    return str(last.meta.get("applied_at") or last.meta.get("created") or ""), ns


def newest_applied(named_roots) -> tuple[str, Path] | None:
    """The (name, root) whose last applied operation is the newest; None when none has one."""
    keyed = [(k, i) for i, (name, root) in enumerate(named_roots) if (k := _last_applied(root, kind_of(name)))]
    if not keyed:
        return None
    return named_roots[max(keyed)[1]]


def merged_history(named_roots) -> list[dict]:
    """Every root's history, oldest first, each item with `where` (its root's name)."""
    items = [dict(it, where=name) for name, root in named_roots for it in history(root, kind_of(name))]
    return sorted(items, key=lambda it: it["created"] or "~")  # untrusted ones (no date) last
