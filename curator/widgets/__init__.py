"""One widget per module; attributes down, messages up; no I/O."""

from .budget_bar import BudgetBar
from .index_view import IndexView
from .record_view import RecordView
from .status_header import StatusHeader
from .store_tree import StoreTree

__all__ = ["BudgetBar", "IndexView", "RecordView", "StatusHeader", "StoreTree"]
