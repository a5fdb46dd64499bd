"""Golden queries → hit@1, hit@5 and MRR@10 per source and fused; failing queries explained."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .engine import SOURCES, RetrievalEngine

ALL = (*SOURCES, "fused")


class GoldenError(Exception):
    """The golden query file is missing or malformed (a usage error, exit 2)."""


@dataclass(frozen=True, slots=True)
class GoldenQuery:
    query: str
    expect: tuple[str, ...]


@dataclass
class Scores:
    hit1: float = 0.0
    hit5: float = 0.0
    mrr10: float = 0.0


@dataclass
class Failure:
    query: str
    expect: tuple[str, ...]
    got: list[str]
    reasons: dict[str, str]


@dataclass
class EvalReport:
    queries: int
    scores: dict[str, Scores]
    failures: list[Failure] = field(default_factory=list)
    threshold: float = 0.8
    missing: list[str] = field(default_factory=list)  # expected paths not in the store

    @property
    def passed(self) -> bool:
        return self.scores["fused"].hit5 >= self.threshold

    def to_json(self) -> dict:
        return {
            "queries": self.queries,
            "threshold": self.threshold,
            "passed": self.passed,
            "scores": {s: {"hit@1": round(v.hit1, 4), "hit@5": round(v.hit5, 4), "mrr@10": round(v.mrr10, 4)}
                       for s, v in self.scores.items()},
            "failures": [{"query": f.query, "expect": list(f.expect), "got": f.got, "why": f.reasons}
                         for f in self.failures],
            "missing": self.missing,
        }


GOLDEN_CAP = 2_000_000


def read_golden(path: Path, inside: tuple[Path, ...] = ()):
    """The golden file's YAML: a regular file of at most GOLDEN_CAP bytes (inside `inside` when
    given); every problem is a one-line GoldenError."""
    from ..safeio import UnsafeFile, one_line, read_small_file

    try:
        text = read_small_file(Path(path), GOLDEN_CAP, inside).decode("utf-8")
    except FileNotFoundError:
        raise GoldenError(f"golden query file not found: {path}") from None
    except (OSError, UnicodeDecodeError, UnsafeFile) as exc:
        raise GoldenError(f"cannot read {path}: {one_line(exc)}") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark else ""
        raise GoldenError(f"{path}: not valid YAML{where}") from None
    except Exception as exc:  # noqa: BLE001 - a value YAML cannot build (bad date, !!int 'x')
        raise GoldenError(f"{path}: holds a value YAML cannot read ({one_line(exc)})") from None


def load_golden(path: Path, inside: tuple[Path, ...] = ()) -> list[GoldenQuery]:
    data = read_golden(path, inside)
    if isinstance(data, dict) and "queries" in data:
        data = data["queries"]
    if not isinstance(data, list) or not data:
        raise GoldenError(f"{path}: expected a list of {{query, expect: [paths]}} entries")
    out = []
    for n, item in enumerate(data, 1):
        if not isinstance(item, dict) or not isinstance(item.get("query"), str) or not item["query"].strip():
            raise GoldenError(f"{path}: entry {n} needs a 'query' string")
        expect = item.get("expect")
        if isinstance(expect, str):
            expect = [expect]
        if not isinstance(expect, list) or not expect or not all(isinstance(e, str) for e in expect):
            raise GoldenError(f"{path}: entry {n} needs 'expect': a list of memory paths")
        out.append(GoldenQuery(item["query"].strip(), tuple(e.strip() for e in expect)))
    return out


def _score(ranked: list[str], expect: tuple[str, ...]) -> tuple[bool, bool, float]:
    first = next((i for i, p in enumerate(ranked[:10], 1) if p in expect), None)
    return (first == 1, first is not None and first <= 5, 1.0 / first if first else 0.0)


def run_eval(engine: RetrievalEngine, golden: list[GoldenQuery], threshold: float | None = None) -> EvalReport:
    threshold = engine.config.eval_threshold if threshold is None else threshold
    totals = {s: [0.0, 0.0, 0.0] for s in ALL}
    failures = []
    for g in golden:
        fused = engine.search(g.query, k=10)
        lists = {s: [p for p, _ in fused.per_source[s]] for s in SOURCES}
        lists["fused"] = [h.path for h in fused.hits]
        for s in ALL:
            h1, h5, rr = _score(lists[s], g.expect)
            totals[s][0] += h1
            totals[s][1] += h5
            totals[s][2] += rr
        if not _score(lists["fused"], g.expect)[1]:
            reasons = {p: engine.why(p, g.query, engine.search(g.query, k=5)) for p in g.expect}
            failures.append(Failure(g.query, g.expect, lists["fused"][:5], reasons))
    n = max(1, len(golden))
    scores = {s: Scores(t[0] / n, t[1] / n, t[2] / n) for s, t in totals.items()}
    missing = sorted({p for g in golden for p in g.expect if p not in engine.store.records})
    return EvalReport(len(golden), scores, failures, threshold, missing)
