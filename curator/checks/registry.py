"""The check ids, their default severities and what they mean (design.md's table)."""

from __future__ import annotations

from dataclasses import dataclass

from ..model.findings import Severity
from ..model.formats import CLAUDE, EXPERIENCE, FORMATS, SERENA, SERENA_TIERED

E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO
ALL = frozenset(FORMATS)
TIERED = frozenset({SERENA_TIERED})
PLAIN = frozenset({SERENA, CLAUDE})  # stores with no tier folders of their own


# a check's scope: what one of its findings is about
PER_FILE = "per-file"  # one file, from that file alone (and the names of the others)
PER_INDEX = "per-index"  # one index file, from its rows (and the names they point at)
STORE_WIDE = "store-wide"  # the store as a whole (several files at once)
SCOPES = (PER_FILE, PER_INDEX, STORE_WIDE)

# what a check reads (a re-check runs a store-wide check only when one of these changed)
TEXT, TOKENS, INDEXES, NAMES = "text", "tokens", "indexes", "names"


@dataclass(frozen=True, slots=True)
class CheckSpec:
    id: str
    severity: Severity
    summary: str
    formats: frozenset[str] = ALL  # the memory formats the check means something for
    scope: str = STORE_WIDE
    reads: frozenset[str] = frozenset({TEXT, TOKENS, INDEXES, NAMES})

    def applies_to(self, fmt: str) -> bool:
        return fmt in self.formats

    def reads_any(self, changed: set[str] | frozenset[str]) -> bool:
        return bool(self.reads & changed)


CHECKS: dict[str, CheckSpec] = {
    c.id: c
    for c in (
        CheckSpec("index.missing-target", E, "an L0 link or L1 row points at no file", scope=PER_INDEX, reads=frozenset({INDEXES, NAMES})),
        CheckSpec("index.unsafe-target", E, "a target is absolute, escapes the store, or is a symlink leaving it", scope=PER_INDEX, reads=frozenset({INDEXES, NAMES})),
        CheckSpec("index.format", E, "a domain index holds anything but its keyword table", TIERED, scope=PER_INDEX, reads=frozenset({INDEXES})),
        CheckSpec("index.duplicate-entry", E, "the same target twice in one index", scope=PER_INDEX, reads=frozenset({INDEXES})),
        CheckSpec("index.unrouted", E, "a domain index that memory-index.md does not link", TIERED, scope=STORE_WIDE, reads=frozenset({INDEXES, NAMES})),
        CheckSpec("naming.skill-prefix", E, "a file basename starting with the deprecated `skill-` prefix", TIERED, scope=PER_FILE, reads=frozenset({NAMES, INDEXES})),
        CheckSpec("naming.case", W, "a basename that is not kebab-case (ADR-017 names only)", TIERED, scope=PER_FILE, reads=frozenset({NAMES})),
        CheckSpec("keywords.uniqueness", E, "in a strict index, under 40% of a row's keywords are its own", TIERED, scope=STORE_WIDE, reads=frozenset({INDEXES})),
        CheckSpec("keywords.too-few", W, "a domain-index row with fewer than 5 keywords", TIERED, scope=PER_INDEX, reads=frozenset({INDEXES})),
        CheckSpec("keywords.collision", W, "rows in different indexes share most keywords, or a domain's collision rate is over 30%", TIERED, scope=STORE_WIDE, reads=frozenset({INDEXES})),
        CheckSpec("orphan.unindexed", W, "a memory its store's index does not list (one finding for a store with no index)", scope=STORE_WIDE, reads=frozenset({INDEXES, NAMES})),
        CheckSpec("size.chars", W, "a file of 8,000 characters or more (error over 10,000; ADR-017 atomic memories)", TIERED, scope=PER_FILE, reads=frozenset({TEXT})),
        CheckSpec("size.headings", W, "more than 15 `##` or 5 `#` headings outside code (ADR-017 atomic memories)", TIERED, scope=PER_FILE, reads=frozenset({TEXT})),
        CheckSpec("frontmatter.invalid", E, "frontmatter unclosed, not a mapping, or behind a BOM", scope=PER_FILE, reads=frozenset({TEXT})),
        CheckSpec("frontmatter.missing", W, "a memory without the frontmatter its format expects (Claude Code: name, description, type)", frozenset({CLAUDE}), scope=PER_FILE, reads=frozenset({TEXT})),
        CheckSpec("tokens.stale-count", W, "an L0 (N) token count that differs from the real count", TIERED, scope=STORE_WIDE, reads=frozenset({TOKENS, INDEXES, NAMES})),
        CheckSpec("budget.over", W, "a file, index, tier or the start-up load over its budget", scope=STORE_WIDE, reads=frozenset({TOKENS, NAMES})),
        CheckSpec("budget.past-cap", W, "lines of the always-loaded index past the agent's load cap (never seen)", frozenset({CLAUDE}), scope=STORE_WIDE, reads=frozenset({INDEXES})),
        CheckSpec("duplicate.near", W, "near-duplicate memories", scope=STORE_WIDE, reads=frozenset({TEXT, NAMES})),
        CheckSpec("duplicate.topic", INFO, "memories on the same topic with little shared text (with the semantic source)", scope=STORE_WIDE, reads=frozenset({TEXT, NAMES})),
        CheckSpec("links.broken", W, "a markdown link inside a memory that reaches nothing", scope=PER_FILE, reads=frozenset({TEXT, NAMES})),
        CheckSpec("experience.unpaired", INFO, "an experience entry without its summary twin, or a summary whose entry is gone", frozenset({EXPERIENCE}), scope=STORE_WIDE, reads=frozenset({NAMES})),
        CheckSpec("transient.expired", INFO, "a transient record older than its tier's TTL", scope=PER_FILE, reads=frozenset({TEXT, NAMES})),
        CheckSpec("transient.unpruned", INFO, "most of the store is transient records (dated session and hand-off logs)", PLAIN, scope=STORE_WIDE, reads=frozenset({NAMES, TOKENS})),
        CheckSpec("store.foreign-file", W, "a file in a memory folder that is not a memory (not markdown, or a tool's config)", PLAIN, scope=PER_FILE, reads=frozenset({NAMES})),
        CheckSpec("parse.error", E, "a file curator could not read", scope=PER_FILE, reads=frozenset({TEXT})),
    )
}
assert all(c.scope in SCOPES for c in CHECKS.values())

