"""Tier defaults read from the store itself: each folder's tier and what the agent loads at
start-up, each with the rule or evidence that decided it.

- `.curator.yaml` overrides everything: its `tiers` rules and `startup_load` are taken as given.
- A folder that any index routes into is never transient (an indexed `validation/` topic
  folder is knowledge the agent retrieves, not a prunable record).
- Otherwise a folder is transient by its name (ADR-002's `validation/`, `reflection/`,
  `reflect/`) or by what its records look like: transient frontmatter (`date, task, target,
  status` or `date, session_id, project, completion`) or dated names (`YYYY-MM-DD`).
- Transient is a tier only where the store declares tiers (`.curator.yaml` `tiers`, or an
  ADR-002 tier folder in its role). In a plain store, dated session and hand-off logs found by
  their names are memories: the store's own notes send the agent to them, so retrieval ranks
  them (with the recency their date carries); they stay marked as logs (`Config.logs`) so the
  checks do not call them orphans or near-copies of each other.
- The start-up load is the always-loaded index (`memory-index.md`), plus ADR-002's
  `knowledge/` only where the store follows ADR-002 (its `reflexion/`, `validation/` or
  `reflection/` folders are there in their ADR-002 tiers).

Pure: reads the loaded store, changes nothing; `apply` gives the loader an effective config.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..base.config import DEFAULT_TIER_RULES, TierRule, glob_match

if TYPE_CHECKING:  # the snapshot the rules read; store.py itself never imports this module
    from .store import Store

ADR002_FOLDERS = ("knowledge", "reflexion", "validation", "reflection", "reflect")
KNOWLEDGE_NAMES = re.compile(r"^(knowledge|kb|docs?|wiki|references?|patterns?|guides?)$", re.IGNORECASE)
# 2025-12-19, 20251219 and 2025_01_31 (kynesyslabs names its session logs with underscores)
DATED = re.compile(r"(?<!\d)(?:19|20)\d\d([-_]?)(?:0[1-9]|1[0-2])\1(?:0[1-9]|[12]\d|3[01])(?!\d)")
TRANSIENT_SHAPES = ({"date", "task", "target", "status"}, {"date", "session_id", "project", "completion"})
EVIDENCE_SHARE = 0.8  # of a folder's records
EVIDENCE_MIN = 3  # records


@dataclass(frozen=True, slots=True)
class FolderTier:
    folder: str  # logical folder (first segment), "" for the top level
    tier: str
    reason: str
    records: int
    decided: bool = False  # True: read from the store, overriding the default rules
    glob: str = ""  # files, not a folder: top-level dated session logs (`session_*`)
    log: bool = False  # dated logs kept as memories: the store declares no tiers
    by_name: bool = False  # transient read from dated names (not a folder's ADR-002 name or frontmatter)


@dataclass(frozen=True, slots=True)
class Tiering:
    folders: tuple[FolderTier, ...]
    startup: tuple[str, ...]  # globs of what loads at start-up
    startup_reason: str

    def rules(self) -> tuple[TierRule, ...]:
        return tuple(TierRule(f.glob or f"{f.folder}/**", f.tier) for f in self.folders if f.folder and f.decided)

    def logs(self) -> tuple[str, ...]:
        """Globs of the dated logs kept as memories (`Config.logs`)."""
        return tuple(f.glob or f"{f.folder}/**" for f in self.folders if f.log)


def _logical(path: str) -> str:
    while path.startswith("../"):
        path = path[3:]
    return path


def _folder(path: str) -> str:
    p = _logical(path)
    return p.split("/", 1)[0] if "/" in p else ""


def _user_rules(config) -> tuple[TierRule, ...]:
    if "tiers" not in config.explicit:
        return ()
    return tuple(r for r in config.tier_rules if r.glob != "**")


def _transient_frontmatter(rec) -> bool:
    fm = rec.frontmatter if isinstance(rec.frontmatter, dict) else None
    if not fm:
        return False
    keys = {str(k).lower() for k in fm}
    return any(shape <= keys for shape in TRANSIENT_SHAPES)


def decide(store) -> Tiering:
    """Each top-level folder's tier and why; the start-up load and why."""
    members: dict[str, list] = {}
    for path, rec in store.records.items():
        if rec.level == 2:
            members.setdefault(_folder(path), []).append(rec)
    seen = _Seen(store, _user_rules(store.config))
    for target, routes in store.routes_to.items():
        if target in store.records and store.records[target].level == 2:
            f = _folder(target)
            seen.routed[f] += 1
            seen.example.setdefault(f, f"{routes[0].index} → {target}")
    folders = []
    for folder, recs in sorted(members.items()):
        folders += next(got for rule in _FOLDER_RULES if (got := rule(seen, folder, recs)) is not None)
    declared = declares_tiers(store.config, folders)
    if not declared:
        folders = [_as_log(f) for f in folders]
    startup, why = _startup(store, seen.routed, members, folders)
    return Tiering(tuple(folders), startup, why)


@dataclass
class _Seen:
    """What the folder rules read: the store, the user's tier rules, and per folder how many of
    its records an index routes to (with one route as the example)."""

    store: Store
    user: tuple[TierRule, ...]
    routed: Counter = field(default_factory=Counter)
    example: dict[str, str] = field(default_factory=dict)


def _probe(folder: str) -> str:
    return f"{folder}/x.md" if folder else "x.md"


def _default_rule(folder: str) -> TierRule:
    return next((r for r in DEFAULT_TIER_RULES if glob_match(_probe(folder), r.glob)), DEFAULT_TIER_RULES[-1])


def _by_user_rule(seen: _Seen, folder: str, recs: list) -> list[FolderTier] | None:
    rule = next((r for r in seen.user if glob_match(_probe(folder), r.glob)), None)
    if rule is None:
        return None
    return [FolderTier(folder, rule.tier, f".curator.yaml rule {rule.glob} → {rule.tier}", len(recs))]


def _routed_not_transient(seen: _Seen, folder: str, recs: list) -> list[FolderTier] | None:
    n, routed = len(recs), seen.routed[folder]
    if not routed or _default_rule(folder).tier != "transient":
        return None
    return [FolderTier(folder, "semantic", f"indexes route to {routed} of its {n} record(s) "
                       f"(e.g. {seen.example[folder]}), so it is knowledge, not transient", n, True)]


def _top_level(seen: _Seen, folder: str, recs: list) -> list[FolderTier] | None:
    if folder:
        return None
    logs = session_log_rules(recs, seen.store.routes_to)
    n = len(recs) - sum(f.records for f in logs)
    return logs + ([FolderTier(folder, "semantic", "top-level memories → semantic", n)] if n else [])


def _by_default_rules(seen: _Seen, folder: str, recs: list) -> list[FolderTier] | None:
    by_rule = Counter(seen.store.config.tier_for(_logical(r.path)) for r in recs)
    if _default_rule(folder).glob == "**" and len(by_rule) <= 1 and not any(
        r.glob != "**" and glob_match(_logical(recs[0].path), r.glob) for r in DEFAULT_TIER_RULES
    ):
        return None
    tier = by_rule.most_common(1)[0][0]
    if folder in ADR002_FOLDERS:
        why = f"ADR-002 folder name → {tier}"
    else:
        why = "default rules per path: " + ", ".join(f"{t} {k}" for t, k in by_rule.most_common())
    return [FolderTier(folder, tier, why, len(recs))]


def _routed(seen: _Seen, folder: str, recs: list) -> list[FolderTier] | None:
    routed = seen.routed[folder]
    if not routed:
        return None
    return [FolderTier(folder, "semantic", f"indexes route to {routed} of its {len(recs)} record(s)", len(recs))]


def _by_evidence(seen: _Seen, folder: str, recs: list) -> list[FolderTier]:
    n = len(recs)
    shaped = sum(1 for r in recs if _transient_frontmatter(r))
    dated = sum(1 for r in recs if DATED.search(r.stem))
    if n >= EVIDENCE_MIN and shaped >= EVIDENCE_SHARE * n:
        return [FolderTier(folder, "transient", f"{shaped} of {n} records carry transient frontmatter "
                           "(date/task/target/status or date/session_id/project/completion), no index routes to it",
                           n, True)]
    if n >= EVIDENCE_MIN and dated >= EVIDENCE_SHARE * n and not KNOWLEDGE_NAMES.match(folder):
        return [FolderTier(folder, "transient", f"{dated} of {n} records have dated names "
                           "and no index routes to it", n, True, by_name=True)]
    return [FolderTier(folder, "semantic", "no transient evidence (names, frontmatter) → semantic", n)]


# a folder's tier: the first of these that decides, in their documented order of precedence
_FOLDER_RULES = (_by_user_rule, _routed_not_transient, _top_level, _by_default_rules, _routed, _by_evidence)


def declares_tiers(config, folders: list[FolderTier]) -> str:
    """Why the store has ADR-002 tiers ("" when it declares none): `.curator.yaml` `tiers`, a
    tier folder of ADR-002 in its role (`reflexion/`, or `validation/`/`reflection/` no index
    routes into), or records that carry ADR-002's transient frontmatter. Dated names alone
    declare nothing: that is how people name notes."""
    if "tiers" in config.explicit:
        return ".curator.yaml tiers"
    for f in folders:
        if f.tier == "reflexion" or (f.tier == "transient" and not f.by_name):
            return f"{f.folder or f.glob}: {f.reason}"
    return ""


def _as_log(f: FolderTier) -> FolderTier:
    """A transient tier read from dated names, in a store without tiers: the logs are memories."""
    if f.tier != "transient" or not f.by_name:
        return f  # transient by the records' own (ADR-002) frontmatter: they declare their tier
    what = f.reason.split(", no index", 1)[0].split(" and no index", 1)[0]
    return replace(f, tier="semantic", log=True,
                   reason=f"{what}: memories here, retrieved with their recency — the store declares no "
                   "tiers (no ADR-002 tier folder, no .curator.yaml tiers)")


# hand-off and session logs by name: `session_2025-12-19_08-31`, `SESSION_SUMMARY_20251009`,
# `handoff-2026-01-02`; only with a date in the name (a `session_management` guide is knowledge)
SESSION_LOG = re.compile(r"^(session|sessions|handoff|hand[-_]off|session[-_](summary|log|notes)|daily[-_]log)"
                         r"(?=[-_]|\d)", re.IGNORECASE)


def session_log_rules(recs, routes_to) -> list[FolderTier]:
    """Top-level dated session/hand-off logs no index lists, as transient rules: one glob per
    name prefix when every top-level file it matches is such a log."""
    logs = [r for r in recs if SESSION_LOG.match(r.stem) and DATED.search(r.stem) and r.path not in routes_to]
    if len(logs) < EVIDENCE_MIN:
        return []
    by_prefix: dict[str, list] = {}
    for r in logs:
        head = SESSION_LOG.match(r.stem)
        assert head is not None  # kept above only where it matched
        by_prefix.setdefault(head.group(0), []).append(r)
    out = []
    log_paths = {r.path for r in logs}
    for prefix, group in sorted(by_prefix.items()):
        glob = f"{prefix}*.md"
        if all(r.path in log_paths for r in recs if glob_match(r.path, glob)):
            globs = [glob]
        else:
            globs = [r.path for r in group]
        example = min(r.stem for r in group)
        for g in globs:
            n = len(group) if len(globs) == 1 else 1
            out.append(FolderTier(g.removesuffix(".md"), "transient", f"{len(group)} dated session/hand-off log(s) "
                                  f"by name (e.g. {example}), no index lists them", n, True, g, by_name=True))
    return out


def _startup(store, routed: Counter, members: dict, folders: list[FolderTier]) -> tuple[tuple[str, ...], str]:
    config = store.config
    if "startup_load" in config.explicit:
        return tuple(config.startup_load), ".curator.yaml startup_load"
    load: list[str] = []
    parts: list[str] = []
    if store.l0 is not None:
        load.append(store.l0.path)
        parts.append(f"{store.l0.path} is the always-loaded index")
    else:
        parts.append("no memory-index.md")
    if "knowledge" in members:
        # ADR-002 is followed when its other tier folders are there *in their ADR-002 role*
        # (reflexion/ as reflexion, validation/ or reflection/ as transient records)
        role = {f.folder: f.tier for f in folders}
        others = [f for f in ADR002_FOLDERS[1:] if role.get(f) == ("reflexion" if f == "reflexion" else "transient")]
        if not others:
            where = (f"indexes route to {routed['knowledge']} of its records and " if routed["knowledge"] else "")
            parts.append(f"knowledge/ is a topic folder here ({where}no ADR-002 reflexion/ or transient "
                         "validation/, reflection/ folder beside it), not ADR-002's auto-loaded tier")
        else:
            load.append("knowledge/**")
            parts.append(f"knowledge/ auto-loads: the store follows ADR-002 ({', '.join(f + '/' for f in others)} "
                         "beside it in their ADR-002 tiers)")
    return tuple(load), "; ".join(parts)


def apply(store) -> Tiering:
    """Re-tier the loaded records by `decide` and give the store the effective config (the
    decided folder rules before the configured ones; the decided start-up load)."""
    t = decide(store)
    config = store.config
    store.config = replace(config, tier_rules=_user_rules(config) + t.rules() + tuple(config.tier_rules),
                           startup_load=t.startup, logs=t.logs())
    for path, rec in store.records.items():
        if rec.level == 2:
            rec.tier = store.config.tier_for(_logical(path))
    return t


def is_log(config, rec) -> bool:
    """A transient record, or a dated session/hand-off log a store without tiers keeps as a
    memory (`Config.logs`, and a date in its name: an undated note beside the logs is not one)."""
    if rec.tier == "transient":
        return True
    return bool(config.logs) and DATED.search(rec.stem) is not None and config.is_log(_logical(rec.path))
