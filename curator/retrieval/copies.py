"""Near-copies: memories that say the same thing in the same words, under other names.

Search keeps one of identical memories (same SHA-256). Stores that were migrated or forked also
keep copies that differ only in their headings and link lists — `pr-002-x.md` and
`pr-review-002-x.md`, one titled "# Pr: X" with "## Skill-PR-002: X" under it, the other
"# Skill-PR-002: X", with other `## Related` links. A person previewing what the agent would
load wants one line for the two (under it: "and 1 copy (the same prose, shown once): …"), not
the same text twice in a top 5.

The test is exact, so it never merges two memories that merely overlap: two memories are copies
when their *prose* — the body without heading lines and without boilerplate sections (`##
Related`, `See also`, `References`, `Links`, `Sources`, `Tags`, `Metadata`) — is the same word
for word (lower-cased, punctuation ignored) and has at least MIN_WORDS words. `duplicate.near`
(8-word shingles, Jaccard ≥ 0.5) is the looser check that tells a curator to merge them.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

MIN_WORDS = 8  # shorter prose (a title and a link list) says too little to call two memories one
_HEADING = re.compile(r"#{1,6}\s")
_BOILERPLATE = re.compile(
    r"#{1,6}\s*(related|related memories|related files|related documents|see also|references|links|"
    r"cross[- ]references|sources|tags|metadata)\b", re.IGNORECASE)
_WORD = re.compile(r"[a-z0-9]+")


def prose_words(body: str) -> list[str]:
    """The body's words without heading lines and boilerplate sections."""
    kept, skipping, level = [], False, 0
    for line in body.splitlines():
        if _HEADING.match(line):
            depth = len(line) - len(line.lstrip("#"))
            if _BOILERPLATE.match(line):
                skipping, level = True, depth
            elif skipping and depth <= level:
                skipping = False
            continue
        if not skipping:
            kept.append(line)
    return _WORD.findall("\n".join(kept).lower())


def copy_key(body: str) -> str:
    """A digest of the memory's prose, or "" when it has fewer than MIN_WORDS words."""
    words = prose_words(body)
    if len(words) < MIN_WORDS:
        return ""
    return hashlib.sha256(" ".join(words).encode("utf-8")).hexdigest()[:32]


def groups(paths: Iterable[str], keys: Iterable[str]) -> dict[str, str]:
    """path → key for the memories whose key is shared with another (only those matter)."""
    members: dict[str, list[str]] = {}
    for p, k in zip(paths, keys, strict=True):
        if k:
            members.setdefault(k, []).append(p)
    return {p: k for k, ps in members.items() if len(ps) > 1 for p in ps}
