"""Findings: one problem a check (or a lenient parser) reports."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import IntEnum


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


@dataclass(frozen=True, slots=True)
class Fix:
    """A fix a finding suggests; curation turns it into a plan."""

    kind: str  # e.g. "repoint-row", "drop-row", "index-orphan", "route-index", "refresh-count"
    description: str
    params: dict = field(default_factory=dict, hash=False, compare=False)


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
