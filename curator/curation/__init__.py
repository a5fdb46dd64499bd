"""The write path: plan → diff → apply (journal, atomic writes) → undo; and the operations."""

from .apply import apply_plan, history, recover, undo
from .operations import (
    meter,
    plan_fixes,
    plan_keywords,
    plan_promote,
    plan_prune,
    plan_prune_paths,
    plan_refresh,
    prune_candidates,
    suggest,
)
from .plan import Busy, ChangedOnDisk, CurationError, FileEdit, NothingToDo, Plan, WriteFailed

__all__ = [
    "Busy", "ChangedOnDisk", "CurationError", "FileEdit", "NothingToDo", "Plan", "WriteFailed", "apply_plan", "history", "meter", "plan_fixes",
    "plan_keywords", "plan_promote", "plan_prune", "plan_prune_paths", "plan_refresh", "prune_candidates",
    "recover", "suggest", "undo",
]
