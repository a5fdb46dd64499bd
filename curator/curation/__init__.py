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
from .plan import ChangedOnDisk, CurationError, FileEdit, NothingToDo, Plan

__all__ = [
    "ChangedOnDisk", "CurationError", "FileEdit", "NothingToDo", "Plan", "apply_plan", "history", "meter", "plan_fixes",
    "plan_keywords", "plan_promote", "plan_prune", "plan_prune_paths", "plan_refresh", "prune_candidates",
    "recover", "suggest", "undo",
]
