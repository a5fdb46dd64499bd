"""The curation operations, one module each; this module keeps the old import path working."""

from .fix import plan_fixes
from .keywords import plan_keywords
from .meters import meter, suggest
from .promote import TRANSIENT_ONLY, plan_promote
from .prune import plan_prune, plan_prune_paths, prune_candidates
from .refresh import plan_refresh
from .routes import ARCHIVE, archive_path, drop_routes, recount_routes, route_new_row

__all__ = [
    "ARCHIVE", "TRANSIENT_ONLY", "archive_path", "drop_routes", "meter", "plan_fixes", "plan_keywords",
    "plan_promote", "plan_prune", "plan_prune_paths", "plan_refresh", "prune_candidates", "recount_routes",
    "route_new_row", "suggest",
]
