"""Every check of design.md's table, as rules: `registry.py` holds each once (severity, family,
scope, what it reads, its page); `run_checks(store)` (`run.py`) returns findings sorted by path,
line, check; one module per family.

The names below load on first use (PEP 562): the entry point's replay (`replay.py`) and the
registry's readers import a module of this package without the check machinery."""

from __future__ import annotations

import importlib

_WHERE = {"run_checks": "run", "FAMILIES": "run", "CHECKS": "registry", "CheckSpec": "registry"}

__all__ = ["CHECKS", "FAMILIES", "CheckSpec", "run_checks"]


def __getattr__(name: str):
    if name in _WHERE:
        return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
