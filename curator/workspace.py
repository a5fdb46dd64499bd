"""The app's façade over the services: one loaded store with its findings and budget report.

Pure (no Textual): the app builds a Workspace in a worker thread, with progress callbacks, and
asks it to re-check after an edit. Tests and the CLI can use it the same way.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .budgets import BudgetReport, build_report
from .checks import run_checks
from .checks.facts import FactsCache, default_cache
from .config import Config, load_config
from .model.findings import Finding, Severity
from .model.store import Store, load_store

Progress = Callable[[str, float], None]  # (what is happening, fraction done 0..1)


@dataclass
class Workspace:
    store: Store
    findings: list[Finding]
    report: BudgetReport
    facts_cache: FactsCache | None = None
    by_path: dict[str, list[Finding]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._index_findings()

    def _index_findings(self) -> None:
        by_path: dict[str, list[Finding]] = defaultdict(list)
        for f in self.findings:
            by_path[f.path].append(f)
        self.by_path = dict(by_path)

    # -- views -------------------------------------------------------------

    def counts(self, paths: list[str] | None = None) -> Counter:
        """Findings by severity, for one path list (a folder) or the whole store."""
        c: Counter = Counter()
        for p in self.by_path if paths is None else paths:
            for f in self.by_path.get(p, ()):
                c[f.severity] += 1
        return c

    def badge(self, paths: list[str]) -> str:
        c = self.counts(paths)
        parts = []
        if c[Severity.ERROR]:
            parts.append(f"✖{c[Severity.ERROR]}")
        if c[Severity.WARNING]:
            parts.append(f"▲{c[Severity.WARNING]}")
        return " ".join(parts)

    # -- re-check after one file changed ------------------------------------

    def recheck(self, path: str) -> None:
        """Re-read one file and bring the findings up to date.

        An edited memory (same name, still there) changes only what depends on its text: its
        own content findings, near-duplicates involving it, token budgets and L0 counts. Those
        are recomputed; everything else is kept. Anything else (a new, deleted or index file)
        re-runs every check — per-file facts and token counts are cached, so that is still
        only the changed file's work plus the store-wide checks.
        """
        before = self.store.records.get(path)
        rec = self.store.reload(path)
        if rec is not None and rec.readable and self.store.counter is not None:
            rec.tokens = self.store.counter.count_many([(rec.content_hash, rec.text)])[0]
        if before is None or rec is None or rec.level != 2 or before.level != 2 or not rec.readable:
            self.findings = run_checks(self.store, facts_cache=self.facts_cache)
            self._fp_index = None
        else:
            self.findings = self._incremental(path)
        self.report = build_report(self.store)
        self._index_findings()

    _fp_index: dict | None = None
    _fp_of: dict | None = None

    def _fingerprints(self, ctx) -> dict[int, set[str]]:
        from .checks.facts import facts_for

        if self._fp_index is None:
            index: dict[int, set[str]] = {}
            fp_of: dict[str, tuple] = {}
            for p, facts in facts_for(ctx).items():
                if self.store.records[p].level == 2:
                    fp_of[p] = facts.fingerprints
                    for fp in facts.fingerprints:
                        index.setdefault(fp, set()).add(p)
            self._fp_index, self._fp_of = index, fp_of
        return self._fp_index

    def _incremental(self, path: str) -> list[Finding]:
        from .checks import budget_checks, content_checks, duplicate_checks
        from .checks.context import Context
        from .checks.facts import facts_for

        per_file = {"size.chars", "size.headings", "frontmatter.invalid", "links.broken", "parse.error"}
        store_wide = {"budget.over", "tokens.stale-count"}
        keep = [
            f for f in self.findings
            if f.check not in store_wide
            and not (f.path == path and f.check in per_file)
            and not (f.check == "duplicate.near" and path in (f.path, f.target))
        ]
        ctx = Context(self.store, None, self.facts_cache)
        fp_index = self._fingerprints(ctx)
        for fp in self._fp_of.get(path, ()):  # the file's old fingerprints leave the index
            fp_index.get(fp, set()).discard(path)
        new_fps = facts_for(ctx, [path])[path].fingerprints
        for fp in new_fps:
            fp_index.setdefault(fp, set()).add(path)
        self._fp_of[path] = new_fps
        content_checks.run(ctx, [path])
        budget_checks.run(ctx)
        duplicate_checks.near_duplicates_of(ctx, path, fp_index)
        ctx.findings += [f for f in self.store.load_findings if f.path == path]
        return sorted(keep + ctx.findings, key=Finding.sort_key)


def open_workspace(
    root: Path | str,
    *,
    given: str | None = None,
    config: Config | None = None,
    token_counter=None,
    progress: Progress | None = None,
    facts_cache: FactsCache | None = None,
    fmt: str | None = None,
    repo_root: Path | None = None,
) -> Workspace:
    """Load, count, check and budget a store, reporting progress between the phases."""
    say = progress or (lambda _what, _frac: None)
    root = Path(root)
    say("reading the store", 0.05)
    cfg = config if config is not None else load_config(root)
    store = load_store(root, given=given, config=cfg, fmt=fmt, repo_root=repo_root)
    if token_counter is not None:
        say(f"counting tokens in {len(store.records):,} files", 0.4)
        store.count_tokens(token_counter)
        flush = getattr(token_counter, "flush", None)
        if flush:
            flush()
    say("running the checks", 0.65)
    cache = facts_cache if facts_cache is not None else default_cache()
    # the default path reuses the findings of the last run when the store is unchanged
    findings = run_checks(store) if facts_cache is None else run_checks(store, facts_cache=cache)
    say("adding up budgets", 0.9)
    report = build_report(store)
    flush = getattr(token_counter, "flush", None)
    if flush:
        flush()
    say("ready", 1.0)
    return Workspace(store, findings, report, cache)


# ------------------------------------------------------------------ a repository of sources


@dataclass
class SourceWorkspace:
    spec: object  # model.sources.SourceSpec
    workspace: Workspace | None = None
    error: str | None = None

    @property
    def name(self) -> str:
        return self.spec.rel


@dataclass
class RepoWorkspace:
    """Every memory source of a repository, each with its own Workspace; one is current (the
    one the screens and the write path work on)."""

    layout: object  # model.sources.Layout
    sources: list[SourceWorkspace]
    cross: list[Finding] = field(default_factory=list)  # duplicate.near across sources
    current: int = 0

    @property
    def workspace(self) -> Workspace | None:
        if not self.sources:
            return None
        return self.sources[self.current].workspace

    def loaded(self) -> list[tuple[int, SourceWorkspace]]:
        return [(i, s) for i, s in enumerate(self.sources) if s.workspace is not None]

    def index_of(self, root: Path) -> int | None:
        for i, s in enumerate(self.sources):
            if Path(s.spec.root) == Path(root):
                return i
        return None


def open_repo_workspace(
    layout,
    *,
    given: str | None = None,
    config: Config | None = None,
    token_counter=None,
    progress: Progress | None = None,
    prefer: Path | None = None,
) -> RepoWorkspace:
    """Open every memory source of a layout (sessions are browsed elsewhere)."""
    from .model.sources import SESSIONS
    from .model.store import StoreError
    from .repository import Repository, Source, cross_source_duplicates

    say = progress or (lambda _what, _frac: None)
    specs = [s for s in layout.sources if s.kind != SESSIONS]
    out: list[SourceWorkspace] = []
    cache = default_cache()
    for i, spec in enumerate(specs):
        def sub(what: str, frac: float, i=i, spec=spec) -> None:
            say(f"{spec.rel}: {what}", (i + frac) / max(1, len(specs)))

        try:
            ws = open_workspace(
                spec.root,
                given=given if layout.single else spec.rel,
                config=config if layout.single else None,
                token_counter=token_counter,
                progress=sub,
                facts_cache=cache,
                fmt=spec.fmt,
                repo_root=None if layout.single else layout.root,
            )
            out.append(SourceWorkspace(spec, ws))
        except (StoreError, OSError, ValueError) as exc:
            out.append(SourceWorkspace(spec, None, str(exc)))
        except Exception as exc:  # noqa: BLE001 - a config error etc.: shown, never fatal
            out.append(SourceWorkspace(spec, None, str(exc)))
    repo = RepoWorkspace(layout, out)
    loaded = [s for s in out if s.workspace is not None]
    if len(loaded) > 1:
        shadow = Repository(layout, [Source(s.spec, s.workspace.store) for s in loaded])
        repo.cross = cross_source_duplicates(shadow)
    if prefer is not None:
        idx = repo.index_of(prefer)
        if idx is not None:
            repo.current = idx
    if repo.sources[repo.current].workspace is None and loaded:
        repo.current = next(i for i, s in repo.loaded())
    return repo
