"""A repository's memory, every source at once: load each one in its own format, check it, and
find what only shows across sources (the same knowledge kept in Serena and in Claude memory).

Pure (no Textual, no Rich). The workbench holds one and swaps in the next on each change; the
CLI loads one through `live.workbench.load_repository`. A path that is one memory folder gives a
repository of that one source, so single-store use is unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path

from ..budgets.startup import startup_of
from ..model.findings import Finding, Severity
from ..model.records import Record
from ..model.sources import SESSIONS, Layout, SourceSpec
from ..model.store import Store
from .workspace import Workspace


@dataclass(frozen=True, eq=False)
class Source:
    """One memory system of the repository: where and how it is kept (`spec`), its current
    snapshot with findings and budgets (`workspace`), or why it could not be loaded (`error`).
    The app's workbench and the CLI hold this same type; a change makes a new one."""

    spec: SourceSpec
    workspace: Workspace | None = None
    error: str | None = None  # why it could not be loaded

    @property
    def name(self) -> str:
        return self.spec.rel

    @property
    def root(self) -> Path:
        return Path(self.spec.root)

    @property
    def prefix(self) -> str:
        """What a store-relative path is prefixed with to be relative to the repository."""
        return "" if self.spec.rel in (".", "") else self.spec.rel.rstrip("/") + "/"

    def shown(self, path: str) -> str:
        return self.prefix + path

    @property
    def store(self) -> Store | None:
        return self.workspace.store if self.workspace is not None else None

    @property
    def findings(self) -> list[Finding]:
        return self.workspace.findings if self.workspace is not None else []

    @property
    def loaded_workspace(self) -> Workspace:
        """The workspace of a source that loaded (as `loaded()` yields them)."""
        if self.workspace is None:
            raise ValueError(f"{self.name} is not loaded: {self.error}")
        return self.workspace


@dataclass(frozen=True, eq=False)
class Repository:
    """Every memory system of a repository at one moment, and what shows only across them.
    Immutable: the workbench swaps in the next one on each change, so a screen or a worker
    holding this one never sees it change. It is also what the report renderers print as one
    store (`records` under repository paths, one token encoding, `given` as the user named it)."""

    layout: Layout
    sources: tuple[Source, ...] = ()  # one per layout source, in its order (sessions: never loaded)
    cross: tuple[Finding, ...] = ()  # duplicate.near across sources, paths relative to the repository
    instructions: object = None  # the context model of the instruction files beside the memory
    instruction_findings: tuple[Finding, ...] = ()  # its findings (repository paths)
    given: str = ""

    @property
    def root(self) -> Path:
        return self.layout.root

    @property
    def single(self) -> bool:
        return self.layout.single

    def memory_sources(self) -> tuple[Source, ...]:
        return tuple(s for s in self.sources if s.spec.kind != SESSIONS)

    def loaded(self) -> list[Source]:
        return [s for s in self.sources if s.workspace is not None]

    def stores(self) -> list[tuple[Source, Store]]:
        """The loaded sources with their snapshots."""
        return [(s, s.workspace.store) for s in self.sources if s.workspace is not None]

    def across(self) -> list[Finding]:
        """The findings of no one source: duplicates across sources, the instruction files'."""
        return [*self.cross, *self.instruction_findings]

    def findings(self) -> list[Finding]:
        """Every finding, paths relative to the repository (or to the store given alone)."""
        out: list[Finding] = []
        for s in self.loaded():
            out += [prefixed(f, s.prefix) for f in s.findings]
        out += self.across()
        return sorted(out, key=Finding.sort_key)

    def source_of(self, shown_path: str) -> tuple[Source, str] | None:
        """The source a repository-relative path belongs to, and its path inside that store."""
        best = None
        for s in self.loaded():
            if s.prefix == "" or shown_path.startswith(s.prefix):
                if best is None or len(s.prefix) > len(best.prefix):
                    best = s
        if best is None:
            return None
        return best, shown_path[len(best.prefix):]

    def with_workspace(self, source: Source, workspace: Workspace) -> Repository:
        """The next repository: `source` with its next snapshot."""
        return replace(self, sources=tuple(replace(s, workspace=workspace) if s is source else s
                                           for s in self.sources))

    # -- as one store, for the report renderers ---------------------------------------

    @cached_property
    def records(self) -> dict[str, Record]:
        return {s.shown(p): r for s, store in self.stores() for p, r in store.records.items()}

    @property
    def encoding(self) -> str:
        encodings = {store.encoding for _, store in self.stores()}
        return "estimate" if "estimate" in encodings else next(iter(sorted(encodings)), "none")

    @property
    def total_tokens(self) -> int:
        return sum(store.total_tokens for _, store in self.stores())


def prefixed(f: Finding, prefix: str) -> Finding:
    if not prefix:
        return f
    target = f.target
    if target and not target.startswith(("/", "../")) and f.check != "links.broken":
        target = prefix + target
    return replace(f, path=prefix + f.path if f.path != "." else prefix.rstrip("/"), target=target)


def source_summaries(repo: Repository, findings: bool = True) -> list[dict]:
    """One line of facts per source: format, records, tokens, start-up load, and findings per
    severity when the repository was checked (`findings`; else no count, never a false 0)."""
    out = []
    for s in repo.sources:
        row: dict = {
            "name": s.name,
            "kind": s.spec.kind,
            "format": s.spec.fmt,
            "label": s.spec.label,
            "origin": s.spec.origin,
            "read_only": s.spec.read_only,
            "path": str(s.spec.root),
        }
        if s.error:
            row["error"] = s.error
        if s.store is not None:
            st = startup_of(s.store)
            row.update(
                records=sum(1 for r in s.store.records.values() if r.level == 2),
                indexes=sum(1 for r in s.store.records.values() if r.level < 2),
                tokens=s.store.total_tokens,
                startup=st.to_json(),
            )
            if findings:
                row.update(
                    errors=sum(1 for f in s.findings if f.severity == Severity.ERROR),
                    warnings=sum(1 for f in s.findings if f.severity == Severity.WARNING),
                    infos=sum(1 for f in s.findings if f.severity == Severity.INFO),
                )
        out.append(row)
    return out
