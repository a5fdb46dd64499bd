"""A repository's memory, every source at once: load each one in its own format, check it, and
find what only shows across sources (the same knowledge kept in Serena and in Claude memory).

Pure (no Textual, no Rich). `Workbench.repository()` builds one (the CLI loads through
`live.workbench.load_repository`); a path that is one memory folder gives a repository of that one
source, so single-store use is unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from ..budgets.startup import startup_of
from ..model.findings import Finding, Severity
from ..model.sources import SESSIONS, Layout, SourceSpec
from ..model.store import Store


@dataclass
class Source:
    spec: SourceSpec
    store: Store | None = None
    findings: list[Finding] = field(default_factory=list)
    error: str | None = None  # why it could not be loaded

    @property
    def name(self) -> str:
        return self.spec.rel

    @property
    def prefix(self) -> str:
        """What a store-relative path is prefixed with to be relative to the repository."""
        return "" if self.spec.rel in (".", "") else self.spec.rel.rstrip("/") + "/"

    def shown(self, path: str) -> str:
        return self.prefix + path


@dataclass
class Repository:
    layout: Layout
    sources: list[Source]
    cross: list[Finding] = field(default_factory=list)  # paths relative to the repository
    instructions: object = None  # the context model (curator.context) whose findings are in `cross`

    @property
    def root(self) -> Path:
        return self.layout.root

    @property
    def single(self) -> bool:
        return self.layout.single

    def memory_sources(self) -> list[Source]:
        return [s for s in self.sources if s.spec.kind != SESSIONS]

    def loaded(self) -> list[Source]:
        return [s for s in self.sources if s.store is not None]

    def stores(self) -> list[tuple[Source, Store]]:
        """The loaded sources with their snapshots."""
        return [(s, s.store) for s in self.sources if s.store is not None]

    def findings(self) -> list[Finding]:
        """Every finding, paths relative to the repository (or to the store given alone)."""
        out: list[Finding] = []
        for s in self.loaded():
            out += [prefixed(f, s.prefix) for f in s.findings]
        out += self.cross
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


def prefixed(f: Finding, prefix: str) -> Finding:
    if not prefix:
        return f
    target = f.target
    if target and not target.startswith(("/", "../")) and f.check != "links.broken":
        target = prefix + target
    return replace(f, path=prefix + f.path if f.path != "." else prefix.rstrip("/"), target=target)


class RepoView:
    """The repository seen as one store by the report renderers: every source's records under
    repository-relative paths, one token encoding, `given` as the user named it."""

    def __init__(self, repo: Repository, given: str) -> None:
        self.repo = repo
        self.given = given
        self.root = repo.root
        self.records = {s.shown(p): r for s, store in repo.stores() for p, r in store.records.items()}
        encodings = {store.encoding for _, store in repo.stores()}
        self.encoding = "estimate" if "estimate" in encodings else next(iter(sorted(encodings)), "none")

    @property
    def total_tokens(self) -> int:
        return sum(store.total_tokens for _, store in self.repo.stores())


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
