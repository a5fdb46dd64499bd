"""The check ids, their default severities and what they mean (design.md's table)."""

from __future__ import annotations

from dataclasses import dataclass

from ..model.findings import Severity
from ..model.formats import CLAUDE, EXPERIENCE, FORMATS, SERENA_TIERED

E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO
ALL = frozenset(FORMATS)
TIERED = frozenset({SERENA_TIERED})


@dataclass(frozen=True, slots=True)
class CheckSpec:
    id: str
    severity: Severity
    summary: str
    formats: frozenset[str] = ALL  # the memory formats the check means something for

    def applies_to(self, fmt: str) -> bool:
        return fmt in self.formats


CHECKS: dict[str, CheckSpec] = {
    c.id: c
    for c in (
        CheckSpec("index.missing-target", E, "an L0 link or L1 row points at no file"),
        CheckSpec("index.unsafe-target", E, "a target is absolute, escapes the store, or is a symlink leaving it"),
        CheckSpec("index.format", E, "a domain index holds anything but its keyword table", TIERED),
        CheckSpec("index.duplicate-entry", E, "the same target twice in one index"),
        CheckSpec("index.unrouted", E, "a domain index that memory-index.md does not link", TIERED),
        CheckSpec("naming.skill-prefix", E, "a file basename starting with the deprecated `skill-` prefix", TIERED),
        CheckSpec("naming.case", W, "a basename that is not kebab-case (ADR-017 names only)", TIERED),
        CheckSpec("keywords.uniqueness", E, "in a strict index, under 40% of a row's keywords are its own", TIERED),
        CheckSpec("keywords.too-few", W, "a domain-index row with fewer than 5 keywords", TIERED),
        CheckSpec("keywords.collision", W, "rows in different indexes share most keywords, or a domain's collision rate is over 30%", TIERED),
        CheckSpec("orphan.unindexed", W, "a memory its store's index does not list (one finding for a store with no index)"),
        CheckSpec("size.chars", W, "a file of 8,000 characters or more (error over 10,000; ADR-017 atomic memories)", TIERED),
        CheckSpec("size.headings", W, "more than 15 `##` or 5 `#` headings outside code (ADR-017 atomic memories)", TIERED),
        CheckSpec("frontmatter.invalid", E, "frontmatter unclosed, not a mapping, or behind a BOM"),
        CheckSpec("frontmatter.missing", W, "a memory without the frontmatter its format expects (Claude Code: name, description, type)", frozenset({CLAUDE})),
        CheckSpec("tokens.stale-count", W, "an L0 (N) token count that differs from the real count", TIERED),
        CheckSpec("budget.over", W, "a file, index, tier or the start-up load over its budget"),
        CheckSpec("budget.past-cap", W, "lines of the always-loaded index past the agent's load cap (never seen)", frozenset({CLAUDE})),
        CheckSpec("duplicate.near", W, "near-duplicate memories"),
        CheckSpec("links.broken", W, "a markdown link inside a memory that reaches nothing"),
        CheckSpec("experience.unpaired", INFO, "an experience entry without its summary twin, or a summary whose entry is gone", frozenset({EXPERIENCE})),
        CheckSpec("transient.expired", INFO, "a transient record older than its tier's TTL"),
        CheckSpec("parse.error", E, "a file curator could not read"),
    )
}
