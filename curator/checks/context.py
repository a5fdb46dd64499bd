"""What every check family gets: the store and a way to report findings."""

from __future__ import annotations

from ..model.findings import Finding, Fix, Severity
from ..model.store import Store
from .registry import CHECKS


class Context:
    def __init__(self, store: Store, only: set[str] | None = None, facts_cache=None,
                 paths: set[str] | None = None) -> None:
        from .facts import FactsCache, default_cache

        self.store = store
        self.facts_cache: FactsCache = facts_cache if facts_cache is not None else default_cache()
        self.config = store.config
        self.only = only
        self.findings: list[Finding] = []
        self._overrides = {k: v for k, v in store.config.severity.items()}
        self._memo: dict[str, object] = {}
        # a re-check of some files: per-file checks look at these only (None: every file)
        self.paths = paths

    def file_paths(self) -> list[str]:
        """The files per-file checks look at: every record, or the re-checked ones."""
        records = self.store.records
        if self.paths is None:
            return list(records)
        return [p for p in sorted(self.paths) if p in records]

    def memo(self, key: str, build):
        """Derived data shared by several checks in one run (built once, on first use)."""
        if key not in self._memo:
            self._memo[key] = build()
        return self._memo[key]

    def wants(self, check: str) -> bool:
        if self._overrides.get(check) == "off":
            return False
        spec = CHECKS.get(check)
        if spec is not None and not spec.applies_to(self.store.format):
            return False
        return self.only is None or check in self.only

    def add(
        self,
        check: str,
        path: str,
        message: str,
        *,
        line: int | None = None,
        target: str | None = None,
        suggestion: str | None = None,
        fix: Fix | None = None,
        severity: Severity | None = None,
    ) -> None:
        if not self.wants(check):
            return
        override = self._overrides.get(check)
        sev = Severity.parse(override) if override else (severity if severity is not None else CHECKS[check].severity)
        self.findings.append(Finding(check, sev, path, message, line, target, suggestion, fix))
