"""`curator check` and the instruction files: the findings of the context model, and what a
kept (replayed) check output depends on, so an edited CLAUDE.md is never answered from a stale run."""

from __future__ import annotations

import os

from ..model.findings import Finding
from .model import ContextModel

INSTRUCTION_IDS_PREFIX = ("instructions.", "skills.")


def wanted(only: set[str] | None) -> set[str] | None:
    """The instruction check ids `only` asks for (None: all; empty: none)."""
    if only is None:
        return None
    return {c for c in only if c.startswith(INSTRUCTION_IDS_PREFIX)}


def instruction_model(root, only: set[str] | None = None, token_counter=None, agents=None,
                      fs=None) -> ContextModel | None:
    """The repository's context model for its findings (None when no instruction check is wanted);
    `agents` (`NAME[@VERSION]`, `check --agent`) limits it to those agents at those versions."""
    from .build import build_context

    ids = wanted(only)
    if ids is not None and not ids:
        return None
    return build_context(root, only=ids, token_counter=token_counter, count=False, fs=fs, agents=agents,
                         chosen_by="--agent" if agents else "asked")


def findings_of(model: ContextModel | None) -> list[Finding]:
    return list(model.findings) if model is not None else []


def replay_stats(model: ContextModel | None, settled_ns: int, extra=()) -> list | None:
    """(path, stat key) of every folder the model's walk listed, file it read and of `extra`;
    None when one changed at or after `settled_ns` (git's racy rule: `base.kept.Run.settled`) or
    the walk was cut short."""
    if model is None or model.fs is None:
        return []
    fs = model.fs
    if fs.truncated:
        return None
    limit = settled_ns
    out = []
    for path in (*fs.listed, *sorted(fs.read_paths), *extra):
        try:
            st = os.lstat(path)
        except OSError:
            return None
        if st.st_mtime_ns >= limit or st.st_ctime_ns >= limit:
            return None
        out.append((path, (st.st_mode, st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)))
    return out
