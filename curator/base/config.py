"""Store configuration: `.curator.yaml` at the store root or the repository root.

Every field has a default that fits the layouts in the design (Serena tiered index, ADR-002
four tiers, experience entries), so most stores need no config at all.
"""

from __future__ import annotations

import fnmatch
import math
import os
import re
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

CONFIG_NAME = ".curator.yaml"
TIERS = ("session", "semantic", "reflexion", "transient")


class ConfigError(Exception):
    """A config file that cannot be used; the CLI reports it and exits 2."""


@dataclass(frozen=True, slots=True)
class TierRule:
    glob: str
    tier: str


DEFAULT_TIER_RULES: tuple[TierRule, ...] = (
    TierRule("knowledge/**", "semantic"),
    TierRule("reflexion/**", "reflexion"),
    TierRule("validation/**", "transient"),
    TierRule("reflection/**", "transient"),
    TierRule("reflect/**", "transient"),
    TierRule("**/error-experience/**", "reflexion"),
    TierRule("**/good-experience/**", "semantic"),
    TierRule("**", "semantic"),
)


@dataclass(frozen=True, slots=True)
class Thresholds:
    uniqueness: float = 0.40  # keywords.uniqueness: unique share of a row's keywords
    min_keywords: int = 5  # keywords.too-few
    collision_row: float = 0.60  # keywords.collision: share of the smaller row's keywords
    collision_rate: float = 0.30  # keywords.collision: a domain's collision rate (ADR-017 abort)
    size_warn_chars: int = 8000
    size_error_chars: int = 10000
    max_h2: int = 15
    max_h1: int = 5
    near_jaccard: float = 0.5
    near_containment: float = 0.8
    shingle: int = 8
    max_file_bytes: int = 2_000_000  # larger files are reported as parse.error, not read
    unused_sessions: int = 20  # sessions.unused-instructions: none of the last N sessions used it ...
    unused_days: int = 30  # ... nor any in this many days (0: sessions only)


@dataclass(frozen=True, slots=True)
class Budgets:
    startup: int = 4000  # what the agent loads at start-up (L0 + auto-loaded knowledge)
    l0: int = 1500  # memory-index.md (ADR-017 aims at ~400)
    domain_index: int = 600  # one *-index.md (ADR-017 aims at ~100)
    memory: int = 2000  # one atomic memory (ADR-017 aims at ~150; real stores have a long tail)
    tiers: dict[str, int] = field(default_factory=dict)  # optional per-tier totals
    # an agent's start-up load of instruction files (instructions.startup-budget): a share of the
    # model's context window (at most 1), or tokens (above 1); only agents that cap nothing themselves
    agent_startup: float = 0.05
    context_window: int = 200_000


@dataclass(frozen=True, slots=True)
class RetrievalConfig:
    k: int = 5
    rrf_k: int = 60
    relevance_weight: float = 0.5
    recency_weight: float = 0.3
    frequency_weight: float = 0.2
    half_life_days: float = 30.0
    loadable_tiers: tuple[str, ...] = ("semantic", "reflexion")
    # fusion: "score" (convex combination of normalised scores) or "rrf" (weighted, k = rrf_k);
    # weights fitted leaving one store out over the golden stores (curator/bench/golden/README.md)
    fusion: str = "score"
    source_weights: dict[str, float] = field(
        default_factory=lambda: {"route": 0.05, "bm25": 1.0, "prior": 0.0, "semantic": 5.0, "prf": 0.5,
                                 "graph": 0.0,  # the graph source (graph.py) did not help held out: on by weight
                                 "agree": 1.0,  # where route, BM25 and meaning agree (fusion.agreement)
                                 "cover": 0.0,  # BM25's first holding every word of the query stays first (off)
                                 "lead": 0.1,  # meaning's first ≥ 0.1 above its second goes first (fusion.meaning_first)
                                 "unsure": 0.5}  # … unless BM25's second scores under half its first
    )
    # BM25's first stays first when its second scores at most this share of it (fusion.sure_first);
    # fitted with the weights, leaving one store out over the golden stores (32 since the nineteenth round)
    # (curator/bench/golden/loso.py); 0 turns it off
    sure_margin: float = 0.8
    fuzzy_cutoff: int = 88  # rapidfuzz ratio for near-forms of query words
    semantic: bool = True  # the bundled sentence encoder joins the fusion (CURATOR_NO_SEMANTIC=1 also turns it off)
    eval_threshold: float = 0.8  # hit@5 below this fails `curator eval`


@dataclass(frozen=True, slots=True)
class Config:
    tier_rules: tuple[TierRule, ...] = DEFAULT_TIER_RULES
    strict_indexes: tuple[str, ...] = ("skills-*-index.md",)
    # Extra folders (relative to the store) read as part of it; missing ones are skipped.
    # Defaults accept the ADR-002 tier folders directly under `.serena/`.
    include: tuple[str, ...] = (
        "../knowledge",
        "../reflexion",
        "../validation",
        "../reflection",
        "../reflect",
    )
    exclude: tuple[str, ...] = (".git/**", "**/.git/**", ".curator/**", "**/node_modules/**")
    # What the agent loads at start-up: L0 plus ADR-002's auto-loaded semantic knowledge.
    startup_load: tuple[str, ...] = ("memory-index.md", "knowledge/**")
    thresholds: Thresholds = field(default_factory=Thresholds)
    budgets: Budgets = field(default_factory=Budgets)
    ttl_days: dict[str, int] = field(default_factory=lambda: {"transient": 30})
    orphan_allow: tuple[str, ...] = ("README.md", "CLAUDE.md", "AGENTS.md")
    severity: dict[str, str] = field(default_factory=dict)  # check id -> error|warning|info|off
    retrieval: RetrievalConfig = field(default_factory=RetrievalConfig)
    golden: str = "golden-queries.yaml"  # relative to the store, for `curator eval`
    source: Path | None = None  # the file this came from, if any
    explicit: frozenset[str] = frozenset()  # settings the file gave (e.g. "tiers"): never re-decided
    refused: tuple[str, ...] = ()  # a repository config's paths that leave it (trust.py): dropped, shown
    # dated session/hand-off logs of a store that declares no tiers (model/tiering.py): memories
    # there, retrieved like any other, but still logs to the checks (not orphans, no near-copies)
    logs: tuple[str, ...] = ()
    # the agent versions whose rules the store's checks follow (`agents: {claude-code: {version: ...}}`,
    # or `--agent NAME@VERSION`): as given, names not yet checked (model/formats.claude_cap reads them)
    agent_versions: tuple[tuple[str, str], ...] = ()
    asked_versions: tuple[tuple[str, str], ...] = ()  # the same, from `--agent NAME@VERSION` (they win)

    def tier_for(self, logical_path: str) -> str:
        # one combined regex: the first rule (leftmost alternative) that matches wins
        rules = self.tier_rules
        last = _LAST_RULES  # by identity: hashing the rule tuple cost more than the match
        if last[0] is not rules:
            last = _remember_rules(rules)
        m = last[1].match(logical_path)
        return self.tier_rules[int(m.lastgroup[1:])].tier if m else "semantic"

    def is_strict_index(self, name: str) -> bool:
        return any(fnmatch.fnmatchcase(name, g) for g in self.strict_indexes)

    def is_orphan_allowed(self, rel: str) -> bool:
        base = rel.rsplit("/", 1)[-1]
        return any(glob_match(rel, g) or fnmatch.fnmatchcase(base, g) for g in self.orphan_allow)

    def is_log(self, logical_path: str) -> bool:
        return any(glob_match(logical_path, g) for g in self.logs)

    def is_excluded(self, rel: str) -> bool:
        return _any_regex(self.exclude).match(rel) is not None


def _glob_regex(glob: str) -> re.Pattern[str]:
    """`**` crosses folders, `*` and `?` stay within one; `dir/**` also matches `dir` itself.
    Never backtracks out of control (`globs.compile_glob`: a repository's config is untrusted)."""
    from .globs import compile_glob

    if glob.endswith("/**"):
        return compile_glob(glob[:-3], classes=False, braces=False, below=True)
    return compile_glob(glob, classes=False, braces=False)


@lru_cache(maxsize=64)
def _rules_regex(rules: tuple) -> re.Pattern:
    parts = [f"(?P<r{i}>{_glob_regex(rule.glob).pattern})" for i, rule in enumerate(rules)]
    return re.compile("|".join(parts) or r"(?!)")


_LAST_RULES: tuple = (None, None)  # (the tier rules last asked about, their regex)


def _remember_rules(rules: tuple) -> tuple:
    global _LAST_RULES
    _LAST_RULES = (rules, _rules_regex(rules))  # one assignment: a reader sees a matching pair
    return _LAST_RULES


@lru_cache(maxsize=64)
def _any_regex(globs: tuple[str, ...]) -> re.Pattern:
    return re.compile("|".join(f"(?:{_glob_regex(g).pattern})" for g in globs) or r"(?!)")


def glob_match(path: str, glob: str) -> bool:
    return _glob_regex(glob).match(path) is not None


# ---------------------------------------------------------------- loading


def _regular(path: Path) -> bool:
    return path.is_file() and not path.is_symlink()


def find_config(store_root: Path) -> Path | None:
    """`.curator.yaml` in the store, else in the repository root above it (the folder with .git).
    Only a regular file counts (a symlink, FIFO or device named .curator.yaml is not read)."""
    candidate = store_root / CONFIG_NAME
    if _regular(candidate):
        return candidate
    for parent in store_root.resolve().parents:
        if _regular(parent / CONFIG_NAME):
            return parent / CONFIG_NAME
        if (parent / ".git").exists():
            break
    return None


def load_config(store_root: Path, explicit: Path | None = None) -> Config:
    """The config; any problem (unreadable, too large, not a regular file, bad YAML, a value
    YAML cannot build such as `2026-13-45`) is a one-line ConfigError, never a traceback."""
    from .safeio import UnsafeFile, one_line, read_small_file

    path = explicit or find_config(store_root)
    if path is None:
        return Config()
    try:
        text = read_small_file(path).decode("utf-8")
    except (OSError, UnicodeDecodeError, UnsafeFile) as exc:
        raise ConfigError(f"{path}: cannot read config ({one_line(exc)})") from None
    import yaml  # only when there is a config file (start-up time)

    from . import safeyaml

    try:
        data = safeyaml.load(text)
    except safeyaml.Refused as exc:
        raise ConfigError(f"{path}: not read: {exc.problem}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark else ""
        raise ConfigError(f"{path}:{where} is not valid YAML") from None
    except Exception as exc:  # noqa: BLE001 - a value YAML cannot build (bad date, !!int 'x')
        raise ConfigError(f"{path}: holds a value YAML cannot read ({one_line(exc)})") from None
    if data is None:
        return Config(source=path)
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: the config must be a mapping of settings")
    try:
        cfg = config_from_mapping(data, source=path)
        return cfg if explicit is not None else _confined(cfg, store_root)
    except ConfigError:
        raise
    except (TypeError, ValueError, OverflowError, AttributeError, re.error) as exc:
        raise ConfigError(f"{path}: a setting has a value curator cannot use ({one_line(exc)})") from None


def _confined(cfg: Config, store_root: Path) -> Config:
    """A repository's own config (found, not given on the command line) may only name folders
    inside the repository: any other `include` is dropped and named in `refused`."""
    if "include" not in cfg.explicit:
        return cfg
    from .trust import Untrusted, confine, repository_boundary

    boundary = repository_boundary(store_root)
    kept, refused = [], []
    for inc in cfg.include:
        try:
            confine(boundary, store_root, inc, "include")
            kept.append(inc)
        except Untrusted as exc:
            refused.append(f"{cfg.source.name if cfg.source else CONFIG_NAME}: {exc}")
    return replace(cfg, include=tuple(kept), refused=tuple(refused)) if refused else cfg


def _expect(cond: bool, path: Path | None, message: str) -> None:
    if not cond:
        raise ConfigError(f"{path or CONFIG_NAME}: {message}")


def _dataclass_from(cls, data: Any, path: Path | None, section: str):
    _expect(isinstance(data, dict), path, f"'{section}' must be a mapping")
    known = {f.name: f for f in fields(cls)}
    kwargs = {}
    for key, value in data.items():
        name = str(key).replace("-", "_")
        _expect(name in known, path, f"unknown setting '{section}.{key}'")
        default = getattr(cls(), name)
        if isinstance(default, bool):
            _expect(isinstance(value, bool), path, f"'{section}.{key}' must be true or false")
        elif isinstance(default, (int, float)):
            _expect(
                isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0,
                path,
                f"'{section}.{key}' must be a non-negative number",
            )
            value = type(default)(value) if isinstance(default, float) else value
        elif isinstance(default, tuple):
            _expect(isinstance(value, list), path, f"'{section}.{key}' must be a list")
            value = tuple(str(v) for v in value)
        elif isinstance(default, dict):
            _expect(isinstance(value, dict), path, f"'{section}.{key}' must be a mapping")
            if known[name].type in ("dict[str, float]", "dict[str, int]"):
                # numbers that arrive with a repository (fusion weights, budgets, days): a string or
                # NaN there was a traceback at the first query that compared it
                for k, v in value.items():
                    _expect(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v >= 0,
                            path, f"'{section}.{key}.{k}' must be a non-negative number")
        kwargs[name] = value
    return cls(**kwargs)


def config_from_mapping(data: dict, source: Path | None = None) -> Config:
    cfg = Config(source=source)
    changes: dict[str, Any] = {}
    for key, value in data.items():
        name = str(key).replace("-", "_")
        if name == "tiers":
            _expect(isinstance(value, list), source, "'tiers' must be a list of {glob, tier} rules")
            rules = []
            for item in value:
                _expect(
                    isinstance(item, dict) and "glob" in item and "tier" in item,
                    source,
                    "each 'tiers' rule needs 'glob' and 'tier'",
                )
                _expect(item["tier"] in TIERS, source, f"unknown tier {item['tier']!r}")
                rules.append(TierRule(str(item["glob"]), str(item["tier"])))
            changes["tier_rules"] = tuple(rules) + DEFAULT_TIER_RULES[-1:]
        elif name in ("strict_indexes", "include", "exclude", "startup_load", "orphan_allow"):
            if isinstance(value, str):
                value = [value]
            _expect(isinstance(value, list), source, f"'{key}' must be a list")
            _expect(all("\x00" not in str(v) for v in value), source, f"'{key}' holds a NUL byte")
            changes[name] = tuple(str(v) for v in value)
        elif name == "thresholds":
            changes[name] = _dataclass_from(Thresholds, value, source, "thresholds")
        elif name == "budgets":
            changes[name] = _dataclass_from(Budgets, value, source, "budgets")
        elif name == "retrieval":
            changes[name] = _dataclass_from(RetrievalConfig, value, source, "retrieval")
        elif name in ("ttl_days", "severity"):
            _expect(isinstance(value, dict), source, f"'{key}' must be a mapping")
            if name == "severity":
                for check, level in value.items():
                    _expect(
                        str(level) in ("error", "warning", "info", "off"),
                        source,
                        f"severity of {check} must be error, warning, info or off",
                    )
            changes[name] = {str(k): v for k, v in value.items()}
        elif name == "golden":
            changes[name] = str(value)
        elif name == "sources":
            pass  # the repository's memory systems: read by model.sources.repository_settings
        elif name == "agents":  # agents shown and the version of each one's rules: read by context/versions.py
            _expect(isinstance(value, (list, dict)), source,
                    "'agents' must be a list of names or a mapping of name: {version: ...}")
            changes["agent_versions"] = _versions(value)
        else:
            raise ConfigError(f"{source or CONFIG_NAME}: unknown setting '{key}'")
    changes["explicit"] = frozenset(str(k).replace("-", "_") for k in data)
    return replace(cfg, **changes)


def _versions(value) -> tuple[tuple[str, str], ...]:
    """`agents:` as (name, version) pairs: `{name: {version: v}}`, `{name: v}` or `[name@v]`."""
    pairs = value.items() if isinstance(value, dict) else [str(x).partition("@")[::2] for x in value]
    out = []
    for name, v in pairs:
        v = v.get("version") if isinstance(v, dict) else v
        if isinstance(v, (str, int, float)) and not isinstance(v, bool) and str(v).strip():
            out.append((str(name).strip().lower(), str(v).strip().lstrip("v")))
    return tuple(out)


def pinned(cfg: Config, specs) -> Config:
    """`cfg` with the versions `--agent NAME@VERSION` asks for (they outrank every file's)."""
    asked = _versions([s for s in specs or () if "@" in str(s)])
    return replace(cfg, asked_versions=asked) if asked else cfg


def meaning_off(retrieval=None) -> str:
    """Why meaning (the semantic source, duplicate.topic's vectors) is off by choice ("" when it
    is on): `CURATOR_NO_SEMANTIC=1`, or `.curator.yaml`'s `retrieval: {semantic: false}`."""
    if os.environ.get("CURATOR_NO_SEMANTIC", "") not in ("", "0"):
        return "turned off (CURATOR_NO_SEMANTIC=1)"
    if retrieval is not None and not getattr(retrieval, "semantic", True):
        return "turned off (.curator.yaml retrieval: semantic: false)"
    return ""
