"""Renderers: findings (text, json, github, sarif), tokens, retrieval and eval.

Imported lazily so `curator retrieve` does not pay for the checks registry it never uses.
"""

from __future__ import annotations

__all__ = ["render_github", "render_json", "render_sarif", "render_text", "summary"]


def __getattr__(name: str):
    if name in __all__:
        from . import findings_report

        return getattr(findings_report, name)
    raise AttributeError(name)
