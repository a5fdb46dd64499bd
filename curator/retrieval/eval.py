"""Golden queries → hit@1, hit@5 and MRR@10 per source and fused; failing queries explained."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import yaml

from .engine import RetrievalEngine


class GoldenError(Exception):
    """The golden query file is missing or malformed (a usage error, exit 2)."""


KINDS = ("literal", "paraphrase")
SPLITS = ("fit", "held")


@dataclass(frozen=True, slots=True)
class GoldenQuery:
    query: str
    expect: tuple[str, ...]
    kind: str = "literal"  # literal | paraphrase (a query that avoids the target's distinctive words)
    split: str = "fit"  # fit (weights may be tuned on it) | held (reported only)


@dataclass
class Scores:
    hit1: float = 0.0
    hit5: float = 0.0
    mrr10: float = 0.0
    n: int = 0

    def as_json(self) -> dict:
        return {"hit@1": round(self.hit1, 4), "hit@5": round(self.hit5, 4), "mrr@10": round(self.mrr10, 4), "n": self.n}


@dataclass
class Failure:
    query: str
    expect: tuple[str, ...]
    got: list[str]
    reasons: dict[str, str]


@dataclass
class EvalReport:
    queries: int
    scores: dict[str, Scores]  # every query: source (and "fused") → scores
    failures: list[Failure] = field(default_factory=list)
    threshold: float = 0.8
    missing: list[str] = field(default_factory=list)  # expected paths not in the store
    by_class: dict[str, dict[str, Scores]] = field(default_factory=dict)  # literal/paraphrase/fit/held → ...
    sources: tuple[str, ...] = ()  # the single sources, in display order
    unavailable: dict[str, str] = field(default_factory=dict)  # source → why it did not run

    @property
    def passed(self) -> bool:
        return self.scores["fused"].hit5 >= self.threshold

    def best_single(self, cls: str | None = None) -> Scores:
        """The best single source on each metric (each metric's best may come from another source)."""
        table = self.scores if cls is None else self.by_class[cls]
        singles = [table[s] for s in self.sources if s in table]
        if not singles:
            return Scores()
        return Scores(max(v.hit1 for v in singles), max(v.hit5 for v in singles),
                      max(v.mrr10 for v in singles), singles[0].n)

    def gap(self, cls: str | None = None) -> Scores:
        """fused minus the best single source, per metric (negative: fusion lost to a source)."""
        table = self.scores if cls is None else self.by_class[cls]
        best, fused = self.best_single(cls), table["fused"]
        return Scores(fused.hit1 - best.hit1, fused.hit5 - best.hit5, fused.mrr10 - best.mrr10, fused.n)

    def to_json(self) -> dict:
        return {
            "queries": self.queries,
            "threshold": self.threshold,
            "passed": self.passed,
            "sources": list(self.sources),
            "unavailable": self.unavailable,
            "scores": {s: v.as_json() for s, v in self.scores.items()},
            "gap": self.gap().as_json(),
            "classes": {
                c: {"scores": {s: v.as_json() for s, v in t.items()}, "gap": self.gap(c).as_json()}
                for c, t in self.by_class.items()
            },
            "failures": [{"query": f.query, "expect": list(f.expect), "got": f.got, "why": f.reasons}
                         for f in self.failures],
            "missing": self.missing,
        }


GOLDEN_CAP = 2_000_000


def read_golden(path: Path, inside: tuple[Path, ...] = ()):
    """The golden file's YAML: a regular file of at most GOLDEN_CAP bytes (inside `inside` when
    given); every problem is a one-line GoldenError."""
    from ..base.safeio import UnsafeFile, one_line, read_small_file

    try:
        text = read_small_file(Path(path), GOLDEN_CAP, inside).decode("utf-8")
    except FileNotFoundError:
        raise GoldenError(f"golden query file not found: {path}") from None
    except (OSError, UnicodeDecodeError, UnsafeFile) as exc:
        raise GoldenError(f"cannot read {path}: {one_line(exc)}") from None
    from ..base import safeyaml

    try:
        return safeyaml.load(text)
    except safeyaml.Refused as exc:
        raise GoldenError(f"{path}: not read: {exc.problem}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark else ""
        raise GoldenError(f"{path}: not valid YAML{where}") from None
    except Exception as exc:  # noqa: BLE001 - a value YAML cannot build (bad date, !!int 'x')
        raise GoldenError(f"{path}: holds a value YAML cannot read ({one_line(exc)})") from None


def load_golden(path: Path, inside: tuple[Path, ...] = ()) -> list[GoldenQuery]:
    """Golden queries: a list (or `queries:` of a mapping) of {query, expect, kind?, split?}.

    `kind` is literal (default) or paraphrase; `split` is fit or held — without it every third
    query of each kind (its 3rd, 6th, … literal; its 3rd, 6th, … paraphrase) is held out, so a
    file written in sample order splits the same way each time and both splits hold both kinds.
    """
    data = read_golden(path, inside)
    if isinstance(data, dict) and "queries" in data:
        data = data["queries"]
    if not isinstance(data, list) or not data:
        raise GoldenError(f"{path}: expected a list of {{query, expect: [paths]}} entries")
    out = []
    seen_kind: dict[str, int] = {}
    for n, item in enumerate(data, 1):
        if not isinstance(item, dict) or not isinstance(item.get("query"), str) or not item["query"].strip():
            raise GoldenError(f"{path}: entry {n} needs a 'query' string")
        expect = item.get("expect")
        if isinstance(expect, str):
            expect = [expect]
        if not isinstance(expect, list) or not expect or not all(isinstance(e, str) for e in expect):
            raise GoldenError(f"{path}: entry {n} needs 'expect': a list of memory paths")
        kind = item.get("kind", "literal")
        if kind not in KINDS:
            raise GoldenError(f"{path}: entry {n}: kind must be one of {', '.join(KINDS)} (got {kind!r})")
        seen_kind[kind] = seen_kind.get(kind, 0) + 1
        split = item.get("split", "held" if seen_kind[kind] % 3 == 0 else "fit")
        if split not in SPLITS:
            raise GoldenError(f"{path}: entry {n}: split must be one of {', '.join(SPLITS)} (got {split!r})")
        out.append(GoldenQuery(item["query"].strip(), tuple(e.strip() for e in expect), kind, split))
    return out


def _score(ranked: list[str], expect: tuple[str, ...]) -> tuple[bool, bool, float]:
    first = next((i for i, p in enumerate(ranked[:10], 1) if p in expect), None)
    return (first == 1, first is not None and first <= 5, 1.0 / first if first else 0.0)


def with_copies(store, expect: tuple[str, ...], engine: RetrievalEngine | None = None) -> tuple[str, ...]:
    """The expected memories and every memory with the same content (same SHA-256) — or, given
    the engine, the same prose (its near-copies, `copies.py`): search shows one line for
    copies (ADR-037), and which copy it keeps is not a miss."""
    hashes = {store.records[p].content_hash for p in expect if p in store.records} - {None, ""}
    copies = {p for p, r in store.records.items() if r.content_hash in hashes and p not in expect} if hashes else set()
    if engine is not None:
        copies.update(c for p in expect for c in engine.copies(p) if c not in expect)
    return (*expect, *sorted(copies)) if copies else expect


def ranked_lists(engine: RetrievalEngine, query: str):
    """Each source's list, "fused" and (with extra sources) "fused-lexical", for one query."""
    result = engine.search(query, k=10)
    lists = {s: [p for p, _ in result.per_source[s]] for s in engine.sources}
    lists["fused"] = [h.path for h in result.hits]
    if engine.extra_sources:
        lists["fused-lexical"] = [p for p, _ in engine.fuse(result.per_source, engine.lexical_sources)[:10]]
    return result, lists


def run_eval(engine: RetrievalEngine, golden: list[GoldenQuery], threshold: float | None = None) -> EvalReport:
    threshold = engine.config.eval_threshold if threshold is None else threshold
    columns = (*engine.sources, *(("fused-lexical",) if engine.extra_sources else ()), "fused")
    classes = ("all", *KINDS, *SPLITS)
    totals = {c: {s: [0.0, 0.0, 0.0, 0] for s in columns} for c in classes}
    failures = []
    for g in golden:
        result, lists = ranked_lists(engine, g.query)
        expect = with_copies(engine.store, g.expect, engine)
        for s in columns:
            h1, h5, rr = _score(lists[s], expect)
            for c in ("all", g.kind, g.split):
                t = totals[c][s]
                t[0] += h1
                t[1] += h5
                t[2] += rr
                t[3] += 1
        if not _score(lists["fused"], expect)[1]:
            # a miss is a miss of the top 5: explained against those, so a memory at rank 9 reads
            # "below top-k (fused rank 9 with k=5 …)", never "it was retrieved"
            top5 = replace(result, k=5, hits=result.hits[:5])
            reasons = {p: engine.why(p, g.query, top5) for p in g.expect}
            failures.append(Failure(g.query, g.expect, lists["fused"][:5], reasons))

    def scores(c: str) -> dict[str, Scores]:
        return {s: Scores(t[0] / max(1, t[3]), t[1] / max(1, t[3]), t[2] / max(1, t[3]), int(t[3]))
                for s, t in totals[c].items()}

    by_class = {c: scores(c) for c in classes[1:] if totals[c]["fused"][3]}
    missing = sorted({p for g in golden for p in g.expect if p not in engine.store.records})
    return EvalReport(len(golden), scores("all"), failures, threshold, missing, by_class,
                      tuple(engine.sources), dict(engine.unavailable))
