"""The session tier: Claude Code transcripts found for a repository, streamed, browsed, searched
and mined, and the evidence of which memories the agent really read. Pure (no Textual)."""

from .conversation import Hit, ToolCall, ToolResult, Turn, conversation, find_turn, search
from .discover import Discovery, TranscriptFile, claude_roots, discover, slug
from .index import Session, SessionIndex
from .reader import LineStats, SessionScan, Touch, iter_objects, scan
from .usage import MemoryUse, PathMapper, UsageIndex, build_usage, usage_for_store

__all__ = [
    "Discovery", "Hit", "LineStats", "MemoryUse", "PathMapper", "Session", "SessionIndex", "SessionScan", "ToolCall",
    "ToolResult", "Touch", "TranscriptFile", "Turn", "UsageIndex", "build_usage", "claude_roots", "conversation",
    "discover", "find_turn", "iter_objects", "scan", "search", "slug", "usage_for_store",
]
