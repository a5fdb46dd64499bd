"""Retrieval lab (placeholder until the retrieval engine lands)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Static

from .base import CuratorScreen, LoadingPane


class RetrievalLabScreen(CuratorScreen):
    HELP = "Type a query; see what the agent would load."

    def compose_body(self) -> ComposeResult:
        yield LoadingPane()
        yield Static("retrieval lab", id="lab-placeholder")
