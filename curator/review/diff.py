"""Compare two states of one memory store semantically: records, index rows, tokens against
their caps, findings (by fingerprint) and golden queries. Pure: stores in, a `StoreReview` out."""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..budgets.startup import startup_of
from ..checks import run_checks
from ..model import formats as fmts
from ..model.findings import Finding
from ..model.records import LEVEL_L2
from ..model.store import Store
from .identity import fingerprints, multiset_minus
from .row_diff import RowChange, diff_rows  # noqa: F401 - RowChange is part of this module's API

RENAME_SIMILARITY = 0.5  # a removed and an added record at least this alike are one record renamed
_PAIR_LIMIT = 40_000  # removed × added pairs compared by content; past it only exact/same-name


# ------------------------------------------------------------------ results


@dataclass(slots=True)
class RecordChange:
    change: str  # added | removed | modified | renamed | moved (renamed into another tier)
    path: str  # the path now (the old one for removed)
    old_path: str | None = None
    tier: str | None = None
    old_tier: str | None = None
    tokens: int = 0
    old_tokens: int = 0
    similarity: float | None = None  # renamed/moved: how alike the contents are
    lines_added: int = 0
    lines_removed: int = 0

    @property
    def token_delta(self) -> int:
        return self.tokens - self.old_tokens


@dataclass(slots=True)
class Budget:
    what: str  # "total", "tier:<name>", "start-up load"
    before: int
    after: int
    cap: int | None = None

    @property
    def delta(self) -> int:
        return self.after - self.before

    @property
    def crossed(self) -> bool:
        """Over the cap now and not before."""
        return self.cap is not None and self.after > self.cap >= self.before


@dataclass(slots=True)
class QueryChange:
    query: str
    expect: list[str]
    before: list[str]  # top results before
    after: list[str]
    rank_before: int | None  # rank of the first expected memory (1-based), None = not in top 5
    rank_after: int | None

    @property
    def verdict(self) -> str:
        b, a = self.rank_before, self.rank_after
        if b == a:
            return "reordered"
        if a is None or (b is not None and a > b):
            return "worse"
        return "better"


@dataclass
class StoreReview:
    source: str  # repo-relative folder
    kind: str
    status: str  # added | removed | changed | unchanged
    records: list[RecordChange] = field(default_factory=list)
    rows: list[RowChange] = field(default_factory=list)
    budgets: list[Budget] = field(default_factory=list)
    introduced: list[Finding] = field(default_factory=list)
    resolved: list[Finding] = field(default_factory=list)
    queries: list[QueryChange] = field(default_factory=list)
    files: list[str] = field(default_factory=list)  # store-relative paths whose bytes differ
    # path now (old path when removed) → (text before, text now, old path) for every changed file
    texts: dict[str, tuple[str | None, str | None, str]] = field(default_factory=dict, repr=False)

    def file_diff(self, path: str) -> str:
        """A unified diff of one changed file (a renamed one against its old name)."""
        if path not in self.texts:
            return ""
        old, new, old_path = self.texts[path]
        if old == new and old_path != path:
            return f"rename {old_path} → {path} (content unchanged)\n"
        a = f"a/{old_path}" if old is not None else "/dev/null"
        b = f"b/{path}" if new is not None else "/dev/null"
        lines = difflib.unified_diff((old or "").splitlines(keepends=True), (new or "").splitlines(keepends=True),
                                     a, b, n=3)
        return "".join(ln if ln.endswith("\n") else ln + "\n" for ln in lines)

    @property
    def empty(self) -> bool:
        return not (self.records or self.rows or self.introduced or self.resolved or self.queries
                    or any(b.delta for b in self.budgets))

    def to_json(self) -> dict:
        def budget(b: Budget) -> dict:
            return {"what": b.what, "before": b.before, "after": b.after, "delta": b.delta,
                    "cap": b.cap, "crossed": b.crossed}

        def query(q: QueryChange) -> dict:
            return {**asdict(q), "verdict": q.verdict}

        return {
            "source": self.source,
            "kind": self.kind,
            "status": self.status,
            "records": [{k: v for k, v in asdict(r).items() if v is not None} | {"token_delta": r.token_delta}
                        for r in self.records],
            "rows": [{k: v for k, v in asdict(r).items() if v is not None} for r in self.rows],
            "budgets": [budget(b) for b in self.budgets],
            "findings": {
                "introduced": [f.to_json() for f in self.introduced],
                "resolved": [f.to_json() for f in self.resolved],
            },
            "queries": [query(q) for q in self.queries],
        }


# ------------------------------------------------------------------ records


def _memories(store: Store | None) -> dict:
    if store is None:
        return {}
    return {p: r for p, r in store.records.items() if r.level == LEVEL_L2}


def _similarity(a: str, b: str) -> float:
    if a == b:
        return 1.0
    m = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if m.real_quick_ratio() < RENAME_SIMILARITY or m.quick_ratio() < RENAME_SIMILARITY:
        return 0.0
    return m.ratio()


def _line_counts(a: str, b: str) -> tuple[int, int]:
    added = removed = 0
    for line in difflib.unified_diff(a.splitlines(), b.splitlines(), lineterm="", n=0):
        if line.startswith("+") and not line.startswith("+++"):
            added += 1
        elif line.startswith("-") and not line.startswith("---"):
            removed += 1
    return added, removed


def diff_records(before: Store | None, after: Store | None) -> tuple[list[RecordChange], dict[str, str]]:
    """Record changes and the rename map old path → new path."""
    old, new = _memories(before), _memories(after)
    gone = [p for p in old if p not in new]
    came = [p for p in new if p not in old]
    renames, sims = _renames(old, new, gone, came)
    taken = set(renames.values())
    out = [_added(p, new[p]) for p in came if p not in taken]
    out += [_renamed(p, renames[p], old[p], new[renames[p]], sims.get(p, 1.0)) if p in renames else _removed(p, old[p])
            for p in gone]
    out += [_modified(p, old[p], new[p]) for p in new if p in old and new[p].content_hash != old[p].content_hash]
    order = {"added": 0, "modified": 1, "renamed": 2, "moved": 3, "removed": 4}
    out.sort(key=lambda c: (order[c.change], c.path))
    return out, renames


def _renames(old: dict, new: dict, gone: list[str], came: list[str]) -> tuple[dict[str, str], dict[str, float]]:
    """old path → new path of each record that moved, and how alike the pair is: exact content
    first, then by similarity (best pairs first, each path in one pair)."""
    renames: dict[str, str] = {}
    by_hash: dict[str | None, list[str]] = {}
    for p in came:
        by_hash.setdefault(new[p].content_hash, []).append(p)
    for p in gone:
        cands = by_hash.get(old[p].content_hash)
        if cands:
            renames[p] = cands.pop(0)
    left_gone = [p for p in gone if p not in renames]
    left_came = [p for p in came if p not in renames.values()]
    pairs = []
    exhaustive = len(left_gone) * len(left_came) <= _PAIR_LIMIT
    for g in left_gone:
        for c in left_came:
            if not exhaustive and Path(g).name != Path(c).name:
                continue
            s = _similarity(old[g].text or "", new[c].text or "")
            if s >= RENAME_SIMILARITY:
                pairs.append((s, g, c))
    sims = {}
    taken: set[str] = set()
    for s, g, c in sorted(pairs, key=lambda t: (-t[0], t[1], t[2])):
        if g in renames or c in taken:
            continue
        renames[g], sims[g] = c, s
        taken.add(c)
    return renames, sims


def _added(p: str, r) -> RecordChange:
    return RecordChange("added", p, tier=r.tier, tokens=r.tokens or 0, lines_added=len((r.text or "").splitlines()))


def _removed(p: str, r) -> RecordChange:
    return RecordChange("removed", p, tier=r.tier, old_tokens=r.tokens or 0,
                        lines_removed=len((r.text or "").splitlines()))


def _renamed(p: str, q: str, r, n, similarity: float) -> RecordChange:
    a, d = _line_counts(r.text or "", n.text or "")
    return RecordChange("moved" if n.tier != r.tier else "renamed", q, old_path=p, tier=n.tier, old_tier=r.tier,
                        tokens=n.tokens or 0, old_tokens=r.tokens or 0, similarity=round(similarity, 3),
                        lines_added=a, lines_removed=d)


def _modified(p: str, o, r) -> RecordChange:
    a, d = _line_counts(o.text or "", r.text or "")
    change = "moved" if r.tier != o.tier else "modified"
    return RecordChange(change, p, old_path=p if change == "moved" else None, tier=r.tier, old_tier=o.tier,
                        tokens=r.tokens or 0, old_tokens=o.tokens or 0, lines_added=a, lines_removed=d)


def diff_budgets(before: Store | None, after: Store | None) -> list[Budget]:
    def tiers(store):
        out: Counter = Counter()
        if store is not None:
            for r in store.records.values():
                out[r.tier] += r.tokens or 0
        return out

    def startup(store):
        if store is None:
            return 0, None
        s = startup_of(store)  # the number every face shows
        return s.tokens, s.cap_tokens

    either = after if after is not None else before
    if either is None:  # no store on either side: nothing to compare
        return []
    cfg = either.config
    tb, ta = tiers(before), tiers(after)
    out = [Budget("total", sum(tb.values()), sum(ta.values()), None)]
    tier_caps = getattr(cfg.budgets, "tiers", None) or {}
    tiers_seen = set(tb) | set(ta)
    for tier in sorted(tiers_seen) if len(tiers_seen) > 1 else ():
        if tb[tier] != ta[tier]:
            out.append(Budget(f"tier {tier}", tb[tier], ta[tier], tier_caps.get(tier)))
    (sb, cap_b), (sa, cap_a) = startup(before), startup(after)
    out.append(Budget("start-up load", sb, sa, cap_a or cap_b))
    # Claude Code loads only the first 200 lines / 25 KB of MEMORY.md: what is past them is unseen
    mb, ma = _claude_index(before), _claude_index(after)
    if mb or ma:
        limits = fmts.claude_cap(either)  # the version the repository pins
        out.append(Budget("MEMORY.md lines", mb[0] if mb else 0, ma[0] if ma else 0, limits["lines"]))
        out.append(Budget("MEMORY.md bytes", mb[1] if mb else 0, ma[1] if ma else 0, limits["bytes"] or None))
    return out


def _claude_index(store: Store | None) -> tuple[int, int] | None:
    rec = store.records.get("MEMORY.md") if store is not None else None
    if rec is None or rec.text is None:
        return None
    return len(rec.text.splitlines()), len(rec.text.encode("utf-8"))


# ------------------------------------------------------------------ findings


def diff_findings(before: Store | None, after: Store | None, renames: dict[str, str],
                  old: list[Finding] | None = None, new: list[Finding] | None = None):
    """(introduced, resolved): findings whose fingerprints are new, and those gone (as multisets)."""
    old = (run_checks(before) if before is not None else []) if old is None else old
    new = (run_checks(after) if after is not None else []) if new is None else new
    fo = fingerprints(before, old, renames) if before is not None else []
    fn = fingerprints(after, new) if after is not None else []
    introduced, resolved = multiset_minus(new, fn, fo), multiset_minus(old, fo, fn)
    if renames:  # a problem that follows its file to a new name (its message names the file)
        came_from = {n: o for o, n in renames.items()}
        for f in list(introduced):
            match = next((g for g in resolved if g.path == came_from.get(f.path) and g.check == f.check
                          and g.severity == f.severity and g.line == f.line), None)
            if match is not None:
                introduced.remove(f)
                resolved.remove(match)
    return introduced, resolved


# ------------------------------------------------------------------ golden queries


def diff_queries(before: Store | None, after: Store | None, k: int = 5,
                 persist: bool | None = None) -> list[QueryChange]:
    """The golden queries whose hits differ; `persist`: the engines keep their index (the
    faces say, `RetrievalEngine`)."""
    from ..retrieval import GoldenError, RetrievalEngine, load_golden

    golden = None
    for store in (after, before):
        if store is None:
            continue
        path = store.root / (store.config.golden or "golden-queries.yaml")
        if path.is_file():
            try:
                golden = load_golden(path)
            except GoldenError:
                golden = None
            break
    if not golden:
        return []
    # the base revision's store is a temporary copy: an index kept for it would be litter
    engines = [RetrievalEngine(s, persist=persist if s is after else False) if s is not None else None for s in (before, after)]
    out = []
    for g in golden:
        lists = [[h.path for h in e.search(g.query, k=k).hits] if e else [] for e in engines]
        if lists[0] == lists[1]:
            continue
        ranks = [next((i for i, p in enumerate(hits, 1) if p in g.expect), None) for hits in lists]
        out.append(QueryChange(g.query, list(g.expect), lists[0], lists[1], ranks[0], ranks[1]))
    return out


# ------------------------------------------------------------------ one store


def review_store(source: str, kind: str, before: Store | None, after: Store | None,
                 persist: bool | None = None) -> StoreReview:
    status = "added" if before is None else "removed" if after is None else "changed"
    review = StoreReview(source, kind, status)
    old = before.records if before else {}
    new = after.records if after else {}
    review.files = sorted(p for p in set(old) | set(new)
                          if p not in old or p not in new or old[p].content_hash != new[p].content_hash)
    if not review.files:
        review.status = "unchanged"
        return review
    review.records, renames = diff_records(before, after)
    moved_to = set(renames.values())
    for p in review.files:
        if p in renames or p in moved_to:
            continue
        o, n = old.get(p), new.get(p)
        review.texts[p] = (o.text if o else None, n.text if n else None, p)
    for o_path, n_path in renames.items():
        review.texts[n_path] = (old[o_path].text, new[n_path].text, o_path)
    review.rows = diff_rows(before, after, renames)
    review.budgets = diff_budgets(before, after)
    review.introduced, review.resolved = diff_findings(before, after, renames)
    review.queries = diff_queries(before, after, persist=persist)
    return review
