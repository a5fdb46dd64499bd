"""Modal dialogs: the diff preview before every write, the promote wizard, the keyword editor."""

from .diff_dialog import DiffDialog
from .history_dialog import HistoryDialog
from .keyword_dialog import KeywordDialog
from .promote_dialog import PromoteDialog
from .prune_dialog import PruneDialog
from .tiers_dialog import TiersDialog

__all__ = ["DiffDialog", "HistoryDialog", "KeywordDialog", "PromoteDialog", "PruneDialog", "TiersDialog"]
