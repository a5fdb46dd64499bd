"""The memory-automation plan's prior: 0.5·relevance + 0.3·recency + 0.2·frequency.

relevance: share of the query's terms the memory contains (lexical overlap);
recency: 0.5 ** (age in days / half-life), age from the date in the name or frontmatter; an
undated memory gets a neutral 0.5 (file times in a git checkout are clone times, not ages); frequency: log1p(size of the memory's cluster — its domain index,
else its folder), normalised by the largest cluster. Ties: recency, then frequency, then path.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

UNDATED = 0.5


@dataclass(slots=True)
class PriorParts:
    relevance: float
    recency: float
    frequency: float
    score: float


def recency(day: date | None, today: date, half_life: float) -> float:
    if day is None:
        return UNDATED
    age = max(0, (today - day).days)
    return 0.5 ** (age / half_life) if half_life > 0 else 0.0


def record_day(rec) -> date | None:
    if rec.date:
        try:
            return date.fromisoformat(rec.date)
        except ValueError:
            pass
    return None


def frequencies(cluster_sizes: list[int]) -> list[float]:
    top = max(cluster_sizes, default=0)
    norm = math.log1p(top) or 1.0
    return [math.log1p(n) / norm for n in cluster_sizes]


def combine(relevance: float, rec: float, freq: float, weights: tuple[float, float, float]) -> PriorParts:
    wr, wc, wf = weights
    return PriorParts(relevance, rec, freq, wr * relevance + wc * rec + wf * freq)


def frequency_for(paths: list[str], cluster_sizes: list[int], reads: Mapping[str, int] | None = None) -> tuple[list[float], str]:
    """Each memory's frequency and the evidence it came from: `reads` — how often the agent's
    sessions really read it (from transcripts), log1p-normalised like cluster sizes — when a
    reads mapping with any read is given, else `cluster` (the size of its domain or folder)."""
    if reads and any(reads.get(p, 0) for p in paths):
        return frequencies([reads.get(p, 0) for p in paths]), "reads"
    return frequencies(cluster_sizes), "cluster"
