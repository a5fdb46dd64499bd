"""One widget per module; attributes down, messages up; no I/O."""

from .budget_bar import BudgetBar
from .index_view import IndexView
from .instruction_nodes import InstructionRef
from .key_footer import KeyFooter
from .overview import Overview
from .record_view import RecordView
from .status_header import StatusHeader
from .store_tree import StoreTree
from .table import RowTable
from .text_box import PathBox, TextBox
from .tree_labels import NodeRef

__all__ = [
    "BudgetBar", "IndexView", "InstructionRef", "KeyFooter", "NodeRef", "Overview", "RecordView", "RowTable", "StatusHeader",
    "PathBox", "StoreTree", "TextBox",
]
