"""Proof from the agent's own sessions: what each Claude Code session recorded loading, held
against curator's model for that session's version and working folder (verify), what the
instruction files cost and who used them (usage), and the skill listing as the agent builds it
(listing). Pure: no Textual, no Rich.

    from curator.proof import prove
    proof = prove(repo_root, index.build())       # transcripts.SessionIndex sessions
    proof.checks[0].state, proof.checks[0].mismatches
    proof.usage.items, proof.simulation.dropped, proof.findings
"""

from __future__ import annotations

import importlib

_WHERE = {"prove": "run", "Proof": "run", "FileSeen": "run", "Verifier": "verify", "SessionCheck": "verify",
          "Predictor": "predict", "simulate": "listing"}
__all__ = sorted(_WHERE)


def __getattr__(name: str):
    if name in _WHERE:
        return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
