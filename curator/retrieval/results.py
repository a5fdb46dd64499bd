"""What a search returns: each hit with its rank in every source and why (`engine.search`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from . import prior as priors
from .route import RouteResult, Step

DEPTH = 50  # how deep each source ranks before fusion
HEAD_WEIGHT = 2  # the head (name, title, description, index keywords, MEMORY.md hook) counts this many times


class Lists(dict):
    """Each source's ranked list of one query ({source: [(path, score)]}), with what the fusion
    reads besides the lists: `cover` (passage_rank.Cover, the share of the query's words a
    memory holds) and `passages` (meaning.Match: the passage the model matched, by path)."""

    cover: object | None = None  # a passage_rank.Cover when the semantic source ran
    passages: dict = {}


@dataclass(slots=True)
class SourceRank:
    rank: int | None = None
    score: float | None = None
    matched: list[str] = field(default_factory=list)
    via: list[str] = field(default_factory=list)
    parts: priors.PriorParts | None = None


@dataclass(slots=True)
class Hit:
    rank: int
    path: str
    tier: str
    tokens: int
    score: float
    sources: dict[str, SourceRank]
    title: str | None = None
    copies: tuple[str, ...] = ()  # near-copies of it that search collapsed into this line (copies.py)
    sure: str = ""  # why it was kept first although its fused score is not the highest (fusion.sure_first)
    passage: object | None = None  # meaning.Match: the passage the model matched best, with the semantic source


@dataclass(slots=True)
class SearchResult:
    query: str
    k: int
    source: str
    terms: list[str]
    hits: list[Hit]
    route: RouteResult
    per_source: dict[str, list[tuple[str, float]]]
    duplicates: dict[str, str] = field(default_factory=dict)
    linked_from: dict[str, list[str]] = field(default_factory=dict)  # graph source: memory → the hits linking it

    @property
    def route_steps(self) -> list[Step]:
        return self.route.steps

    @property
    def tokens_loaded(self) -> int:
        return sum(s.tokens for s in self.route.steps)
