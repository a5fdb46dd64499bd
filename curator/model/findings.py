"""Findings: one problem a check (or a lenient parser) reports."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import IntEnum
from typing import ClassVar, Literal


class Severity(IntEnum):
    INFO = 0
    WARNING = 1
    ERROR = 2

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown severity {text!r} (use error, warning or info)") from None


class Fix:
    """A fix a finding suggests; curation turns it into a plan (`curation.fix`).

    One frozen dataclass per kind, each with its own typed fields; code dispatches on the type
    (`match fix: case RepointRow(): ...`). `kind` is the stable name of the variant (cache rows,
    messages); `description` is what the faces print after the finding."""

    __slots__ = ()
    kind: ClassVar[str]

    @property
    def description(self) -> str:
        raise NotImplementedError

    def to_row(self) -> tuple:
        """The fix as plain data (`kind` then every field in order), for marshal."""
        return (self.kind, *(getattr(self, name) for name in self.__match_args__))  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class RepointRow(Fix):
    """Re-point an index row's link `old` at `new` (the file it was renamed or moved to)."""

    index: str
    line: int
    old: str
    new: str
    kind: ClassVar[str] = "repoint-row"

    @property
    def description(self) -> str:
        return f"re-point to {self.new}"


DropReason = Literal["unsafe", "dead", "repeated"]
_DROP_TEXT: dict[str, str] = {"unsafe": "drop this row", "dead": "drop the dead row", "repeated": "move its keywords to the first row, drop it"}


@dataclass(frozen=True, slots=True)
class DropRow(Fix):
    """Drop an index row: its target is unsafe, dead, or listed again (`repeated`: its keywords
    are merged into the first row for the same target before it goes)."""

    index: str
    line: int
    target: str
    reason: DropReason
    kind: ClassVar[str] = "drop-row"

    @property
    def description(self) -> str:
        return _DROP_TEXT[self.reason]


@dataclass(frozen=True, slots=True)
class MergeEntry(Fix):
    """Merge the list line `line` (a second line for `target`) into line `first`, then drop it:
    its hook and title are added to the first line when it does not say them already."""

    index: str
    line: int
    target: str
    first: int
    kind: ClassVar[str] = "merge-entry"

    @property
    def description(self) -> str:
        return f"merge into line {self.first}"


@dataclass(frozen=True, slots=True)
class IndexOrphan(Fix):
    """Add a row for the orphan memory `path` to the domain index `index`; `keywords` are
    suggested when the fix is planned (empty until then)."""

    path: str
    index: str
    keywords: tuple[str, ...] = ()
    kind: ClassVar[str] = "index-orphan"

    @property
    def description(self) -> str:
        return f"add a row to {self.index}"


@dataclass(frozen=True, slots=True)
class RouteIndex(Fix):
    """Add a route to the domain index `index` in the L0 index, with these keywords."""

    index: str
    keywords: tuple[str, ...]
    kind: ClassVar[str] = "route-index"

    @property
    def description(self) -> str:
        return "add a route to memory-index.md"


@dataclass(frozen=True, slots=True)
class RefreshCount(Fix):
    """Set the `(N)` token count of `target`'s link on an L0 line to `count`."""

    index: str
    line: int
    target: str
    count: int
    kind: ClassVar[str] = "refresh-count"

    @property
    def description(self) -> str:
        return f"set the count to {self.count}"


@dataclass(frozen=True, slots=True)
class Prune(Fix):
    """Archive the record `path` (an expired transient record)."""

    path: str
    kind: ClassVar[str] = "prune"

    @property
    def description(self) -> str:
        return "prune (archive) this record"


@dataclass(frozen=True, slots=True)
class PruneMany(Fix):
    """Archive every record in `paths` (one folder's expired records, reported as one finding)."""

    paths: tuple[str, ...]
    kind: ClassVar[str] = "prune-many"

    @property
    def description(self) -> str:
        return f"prune (archive) these {len(self.paths)} records"


@dataclass(frozen=True, slots=True)
class Relink(Fix):
    """Re-point a markdown link inside `path` (on `line`) from `old` to `new`, both as written
    in that file (the file it meant was moved or renamed)."""

    path: str
    line: int
    old: str
    new: str
    source: Literal["name", "git"] = "name"  # the one file of that name, or git's rename record
    kind: ClassVar[str] = "relink"

    @property
    def description(self) -> str:
        return f"link it as {self.new}"


@dataclass(frozen=True, slots=True)
class ListEntry(Fix):
    """Add a `- [Title](file.md) — hook` line for the unlisted `path` to the list index `index`
    (drafted when planned: title and hook from its frontmatter, in its type's section)."""

    path: str
    index: str
    kind: ClassVar[str] = "list-entry"

    @property
    def description(self) -> str:
        return f"add a line to {self.index}"


@dataclass(frozen=True, slots=True)
class Frontmatter(Fix):
    """Replace the frontmatter of `path`: `quote` — the minimal quoting that makes invalid YAML
    parse (the values as written); `draft` — a name/description/type block drafted from the file."""

    path: str
    mode: Literal["quote", "draft"]
    kind: ClassVar[str] = "frontmatter"

    @property
    def description(self) -> str:
        return "quote the values that break the YAML" if self.mode == "quote" else "add a drafted name/description/type block"


@dataclass(frozen=True, slots=True)
class SplitIndex(Fix):
    """Move the inline sections of an always-loaded index past its load cap into topic files,
    each replaced by one `- [Title](file.md) — hook` line (a draft to approve)."""

    index: str
    kind: ClassVar[str] = "split-index"

    @property
    def description(self) -> str:
        return "move its inline sections into topic files (a draft)"


@dataclass(frozen=True, slots=True)
class Reimport(Fix):
    """Re-point an instruction file's import on `line` from `old` to `new`, both as written
    (`@docs/a.md`, `#[[file:docs/a.md]]`): the one file of that name in the repository."""

    path: str
    line: int
    old: str
    new: str
    kind: ClassVar[str] = "reimport"

    @property
    def description(self) -> str:
        return f"import {self.new} instead"


@dataclass(frozen=True, slots=True)
class Repath(Fix):
    """Name the path on `line` of an instruction file as it is now: `old` → `new`, both as
    written (git recorded the move, or one file of that name is where it went)."""

    path: str
    line: int
    old: str
    new: str
    kind: ClassVar[str] = "repath"

    @property
    def description(self) -> str:
        return f"name {self.new} instead"


@dataclass(frozen=True, slots=True)
class RuleKeys(Fix):
    """Rewrite a rule's frontmatter keys: `bool` — `alwaysApply: "true"` to `true`; `paths` —
    Cursor's `globs:` to Claude Code's `paths:` (and its `alwaysApply:` dropped)."""

    path: str
    mode: Literal["bool", "paths"]
    kind: ClassVar[str] = "rule-keys"

    @property
    def description(self) -> str:
        return "write the boolean (alwaysApply: true)" if self.mode == "bool" else "translate globs: to paths:"


@dataclass(frozen=True, slots=True)
class Move(Fix):
    """Move an instruction file where its agent reads it (`path` → `new`, both repository-relative):
    a `.md` Cursor rule to `.mdc`, a flat skill into its folder, a path instruction into its folder."""

    path: str
    new: str
    kind: ClassVar[str] = "move"

    @property
    def description(self) -> str:
        return f"move it to {self.new}"


@dataclass(frozen=True, slots=True)
class Unimport(Fix):
    """Drop the import `old` (as written, `@.claude/rules/a.md`) on `line` of `path`: the file loads
    anyway (the line goes when it held nothing else)."""

    path: str
    line: int
    old: str
    kind: ClassVar[str] = "unimport"

    @property
    def description(self) -> str:
        return f"drop {self.old}"


@dataclass(frozen=True, slots=True)
class AddImport(Fix):
    """Add the import line `new` (`@AGENTS.md`) to `path` after `line` (0: at the top, after a
    frontmatter block and a title)."""

    path: str
    line: int
    new: str
    kind: ClassVar[str] = "add-import"

    @property
    def description(self) -> str:
        return f"import it: {self.new}"


@dataclass(frozen=True, slots=True)
class Unlink(Fix):
    """Drop a broken markdown link inside `path` (on `line`, `old` as written) whose meant file
    `meant` the same page links already (or is the page itself): the list line goes, a link in
    prose keeps its text."""

    path: str
    line: int
    old: str
    meant: str
    kind: ClassVar[str] = "unlink"

    @property
    def description(self) -> str:
        return f"drop it (the page links {self.meant} already)"


FIX_KINDS: dict[str, type[Fix]] = {c.kind: c for c in (
    RepointRow, DropRow, MergeEntry, IndexOrphan, RouteIndex, RefreshCount, Prune, PruneMany, Relink, ListEntry,
    Frontmatter, SplitIndex, Reimport, Repath, RuleKeys, Move, Unimport, AddImport, Unlink)}
# fixes of the repository's instruction files (planned at its root by `curation.instruction_fixes`)
REPOSITORY_FIXES = (Reimport, Repath, RuleKeys, Move, Unimport, AddImport)


def fix_from_row(row: tuple) -> Fix:
    """The inverse of `Fix.to_row`; ValueError for a row of no known kind or shape."""
    kind, *values = row
    cls = FIX_KINDS.get(kind)
    if cls is None or len(values) != len(cls.__match_args__):  # type: ignore[attr-defined]
        raise ValueError(f"not a fix row: {row!r}")
    return cls(*(tuple(v) if type(v) is list else v for v in values))


@dataclass(frozen=True, slots=True)
class Finding:
    check: str
    severity: Severity
    path: str  # relative to the store root, with "/"
    message: str
    line: int | None = None
    target: str | None = None
    suggestion: str | None = None
    fix: Fix | None = field(default=None, compare=False)

    def sort_key(self) -> tuple:
        return (self.path, self.line or 0, self.check, self.message)

    def to_json(self) -> dict:
        out: dict = {
            "check": self.check,
            "severity": self.severity.label,
            "path": self.path,
        }
        if self.line is not None:
            out["line"] = self.line
        out["message"] = self.message
        if self.target is not None:
            out["target"] = self.target
        if self.suggestion is not None:
            out["suggestion"] = self.suggestion
        return out


_DIGITS = re.compile(r"\d+")


def fingerprint(finding: Finding, line_text: str | None = None, path: str | None = None) -> str:
    """A stable id for a finding that survives line moves: its check, path and target, its
    message with every number masked (line numbers and counts drift), and the text of the line
    it points at (whitespace collapsed) instead of the line number. `path` overrides the
    finding's own (a renamed file keeps its findings' identity). 16 hex digits."""
    import hashlib

    anchor = " ".join(line_text.split()) if line_text else ""
    parts = (
        finding.check,
        path if path is not None else finding.path,
        finding.target or "",
        _DIGITS.sub("#", finding.message),
        _DIGITS.sub("#", anchor),
    )
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:16]
