"""One screen per module. Screens own state, bind it into widgets and call services in workers."""

from .budgets import BudgetsScreen
from .context import ContextScreen
from .help import HelpScreen
from .main import MainScreen
from .problems import ProblemsScreen
from .retrieval_lab import RetrievalLabScreen
from .review import ReviewScreen
from .sessions import SessionsScreen

__all__ = [
    "BudgetsScreen",
    "ContextScreen",
    "HelpScreen",
    "MainScreen",
    "ProblemsScreen",
    "RetrievalLabScreen",
    "ReviewScreen",
    "SessionsScreen",
]
