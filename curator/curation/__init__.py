"""The write path: plan → diff → apply (journal, atomic writes) → undo; and the operations,
one module each (promote, fix, keywords, refresh, prune; meters and routes they share)."""

from .apply import Conflict, NothingToUndo, apply_plan, pending, recover, undo, writing
from .fix import plan_fixes
from .keywords import plan_keywords
from .meters import meter, suggest
from .plan import Busy, ChangedOnDisk, CurationError, FileEdit, NothingToDo, Plan, WriteFailed
from .promote import plan_promote
from .prune import plan_prune, plan_prune_paths, prune_candidates
from .quarantine import history
from .refresh import plan_refresh

__all__ = [
    "Busy", "ChangedOnDisk", "Conflict", "CurationError", "FileEdit", "NothingToDo", "NothingToUndo", "Plan", "WriteFailed", "apply_plan",
    "history", "meter", "pending", "plan_fixes", "plan_keywords", "plan_promote", "plan_prune", "plan_prune_paths",
    "plan_refresh", "prune_candidates", "recover", "suggest", "undo", "writing",
]
