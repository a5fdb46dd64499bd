"""One source's state in the workbench: a store snapshot with its findings and budget report.

Pure (no Textual). A `Workspace` never changes: `recheck(paths)` returns the workspace of the
snapshot after those files changed on disk, re-running only the checks the change touches (see
`CheckSpec.scope` / `reads`). `curator.live.workbench.Workbench` holds one per memory source.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from ..base.config import load_config
from ..budgets import BudgetReport, build_report
from ..checks import run_checks
from ..checks.facts import FactsCache, default_cache
from ..checks.registry import CHECKS, INDEXES, NAMES, PER_FILE, STORE_WIDE, TEXT, TOKENS
from ..model.findings import Finding, Severity
from ..model.loader import DEFAULT, LoadOptions, begin_load
from ..model.store import Store

if TYPE_CHECKING:  # imported when first used: the topic index brings the encoder's helpers
    from ..checks.topical_checks import TopicIndex

Progress = Callable[[str, float], None]  # (what is happening, fraction done 0..1)


class _Fingerprints:
    """The shingle fingerprints of every memory, and which memories hold each: what an edited
    memory's near-duplicates are looked up in. Built on the first re-check and handed from each
    workspace to the next (only the newest uses it; it follows the newest snapshot). Compact:
    a fingerprint held by one memory maps to its path, only a shared one to a set."""

    def __init__(self, postings: dict[int, str | set[str]], of: dict[str, tuple]) -> None:
        self.postings, self.of = postings, of

    @property
    def index(self) -> _Fingerprints:
        return self  # what near_duplicates_of reads: `.get(fingerprint, ())` → the paths

    def get(self, fp: int, default: tuple[()] = ()) -> Collection[str]:
        got = self.postings.get(fp)
        if got is None:
            return default
        return (got,) if isinstance(got, str) else got

    @classmethod
    def build(cls, ctx) -> _Fingerprints:
        from ..checks.facts import facts_for

        made = cls({}, {})
        for p, facts in facts_for(ctx).items():
            if ctx.store.records[p].level == 2:
                made.replace(p, facts.fingerprints)
        return made

    def replace(self, path: str, fingerprints) -> None:
        postings = self.postings
        for fp in self.of.pop(path, ()):  # the file's old fingerprints leave the index
            got = postings.get(fp)
            if got == path:
                del postings[fp]
            elif isinstance(got, set):
                got.discard(path)
                if len(got) == 1:
                    postings[fp] = next(iter(got))
        for fp in fingerprints:
            got = postings.get(fp)
            if got is None:
                postings[fp] = path
            elif isinstance(got, set):
                got.add(path)
            elif got != path:
                postings[fp] = {got, path}
        if fingerprints:
            self.of[path] = tuple(fingerprints)


def changed_inputs(before: Store, after: Store, paths) -> set[str]:
    """What a change of `paths` touched, in the terms checks declare they read."""
    out: set[str] = set()
    for p in paths:
        a, b = before.records.get(p), after.records.get(p)
        if a is None and b is None:
            continue
        if a is None or b is None:
            out.add(NAMES)
        if (a is not None and a.level < 2) or (b is not None and b.level < 2):
            out.add(INDEXES)
        if a is not None and b is not None and (a.readable != b.readable):
            out.add(NAMES)  # an unreadable file is no memory: orphans, links, budgets see it go
        out |= {TEXT, TOKENS}
    return out


class _Later(Enum):
    """A workspace's budget report not built yet: built when first asked for."""

    LATER = 0


_LATER = _Later.LATER


@dataclass(frozen=True, eq=False)
class Workspace:
    store: Store
    findings: list[Finding]
    _report: BudgetReport | None | _Later = field(default=_LATER, repr=False)
    facts_cache: FactsCache | None = None
    by_path: dict[str, list[Finding]] = field(default_factory=dict)
    _fingerprints: _Fingerprints | None = field(default=None, repr=False)
    _topics: TopicIndex | None = field(default=None, repr=False)
    _homes: object | None = field(default=None, repr=False)  # model.homes.Profiles of the last full orphan run

    @property
    def report(self) -> BudgetReport | None:
        """The budgets of this snapshot (built on first use: a re-check gives its findings
        first; the app's worker builds it right after, before the screens ask)."""
        report = self._report
        if isinstance(report, _Later):
            report = build_report(self.store)
            object.__setattr__(self, "_report", report)
        return report

    def __post_init__(self) -> None:
        by_path: dict[str, list[Finding]] = defaultdict(list)
        for f in self.findings:
            by_path[f.path].append(f)
        object.__setattr__(self, "by_path", dict(by_path))

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

    # -- re-check after files changed ----------------------------------------

    def recheck(self, paths) -> Workspace:
        """The workspace after `paths` (store-relative) changed on disk: this one itself when
        their bytes are what the snapshot holds.

        An edit of existing memories changes only what reads their text or tokens: the
        per-file checks of those files, near-duplicates involving them (looked up in the
        fingerprint index), the store-wide checks that read tokens, and the budgets. Anything
        else (a file added, deleted or renamed, an index edited) runs again every check that
        reads what changed (`CheckSpec.reads`: an added memory leaves the keyword checks alone)
        — the per-file facts and token counts of the unchanged files are cached, so that is
        the changed files' work plus those checks."""
        if isinstance(paths, str):
            paths = [paths]
        paths = sorted(set(paths))
        store = self.store.evolve(paths)
        if store is self.store:
            return self
        touched = changed_inputs(self.store, store, paths)
        fps = self._fingerprints
        topics = homes = None
        if touched <= {TEXT, TOKENS}:
            findings, fps, topics, homes = self._incremental(store, paths)
        else:
            # every check that reads what changed runs again; the others' findings stay
            rerun = {c.id for c in CHECKS.values() if c.reads_any(touched)}
            keep = [f for f in self.findings if f.check in CHECKS and f.check not in rerun]
            fresh = run_checks(store, rerun, facts_cache=self.facts_cache)
            findings, fps = sorted(keep + fresh, key=Finding.sort_key), None
        return Workspace(store, findings, _LATER, self.facts_cache, _fingerprints=fps, _topics=topics,
                         _homes=homes)

    def _incremental(self, store: Store, paths: list[str]):
        from importlib import import_module

        from ..checks import FAMILIES, orphan_checks, topical_checks
        from ..checks.context import Context
        from ..checks.duplicate_checks import near_duplicates_of
        from ..checks.facts import facts_for

        changed = set(paths)
        # an edited memory against the rest, not every pair again: the shingle index, and the
        # topic vectors when the semantic source gives them (else duplicate.topic runs whole)
        topics = self._topics or topical_checks.TopicIndex.build(self.store, self.facts_cache)
        pairwise = ("duplicate.near", *(("duplicate.topic",) if topics is not None else ()))
        # store-wide, but an edited memory's text decides only its own orphan finding (the
        # indexes and names are unchanged): the edited memories are checked, the rest kept
        pathwise = orphan_checks.PATHWISE if orphan_checks.pathwise(store) else ()
        rerun = {c.id for c in CHECKS.values()
                 if c.scope == STORE_WIDE and c.reads_any({TEXT, TOKENS}) and c.id not in pairwise + pathwise}
        old_loads = {id(f) for f in self.store.load_findings if f.path in changed}

        def stale(f: Finding) -> bool:
            spec = CHECKS.get(f.check)
            if id(f) in old_loads or f.check in rerun:
                return True
            if f.check in pairwise:
                return f.path in changed or f.target in changed
            if f.check in pathwise:
                return f.path in changed
            return spec is not None and spec.scope == PER_FILE and f.path in changed

        keep = [f for f in self.findings if not stale(f)]
        files = Context(store, None, self.facts_cache, paths=changed)
        for name, ids in FAMILIES:
            if any(CHECKS[i].scope == PER_FILE and files.wants(i) for i in ids):
                import_module(f"curator.checks.{name}").run(files)
        fresh = [f for f in files.findings if f.path in changed and CHECKS[f.check].scope == PER_FILE]
        wide = Context(store, rerun, self.facts_cache)
        for name, ids in FAMILIES:
            if ids & rerun and any(wide.wants(i) for i in ids):
                import_module(f"curator.checks.{name}").run(wide)
        fresh += wide.findings
        homes = None
        if pathwise:
            own = Context(store, set(pathwise), self.facts_cache, paths=changed)
            homes = orphan_checks.recheck(own, self._homes)
            fresh += own.findings
        dupes = Context(store, None, self.facts_cache)
        fps = self._fingerprints or _Fingerprints.build(dupes)
        new_facts = facts_for(dupes, paths)
        for p in paths:
            fps.replace(p, new_facts[p].fingerprints if p in new_facts else ())
        if dupes.wants("duplicate.near"):
            for p in paths:
                near_duplicates_of(dupes, p, fps.index)
        if topics is not None:
            for p in paths:
                topics.replace(store, p)
            if dupes.wants("duplicate.topic"):
                topical_checks.recheck(dupes, topics, paths)
        fresh += dupes.findings
        fresh += [f for f in store.load_findings if f.path in changed]
        return sorted(keep + fresh, key=Finding.sort_key), fps, topics, homes


def open_workspace(
    root: Path | str,
    options: LoadOptions = DEFAULT,
    *,
    progress: Progress | None = None,
    facts_cache: FactsCache | None = None,
) -> Workspace:
    """Load, count, check (unless `options.check` is False; `options.only` some checks) and
    budget (unless `options.budgets` is False: the report is then built when first asked for)
    one store, reporting progress between the phases."""
    say = progress or (lambda _what, _frac: None)
    root = Path(root)
    say("reading the store", 0.05)
    opts = options if options.config is not None else options.but(config=load_config(root))
    # a cold load counts tokens elsewhere (a forked process, else a thread) while the checks that read none run
    loading = begin_load(root, opts, background=opts.check,
                         read=lambda n: say(f"reading the store: {n:,} files", 0.05))
    say("running the checks", 0.65)
    cache = facts_cache if facts_cache is not None else default_cache()
    # the default path reuses the findings of the last run when the store is unchanged
    if not opts.check:
        findings = []
    else:
        def checked(fraction: float) -> None:
            say("running the checks", 0.65 + 0.25 * fraction)

        findings = run_checks(loading.store, _set(opts.only), facts_cache=facts_cache, loading=loading,
                              progress=checked)
    store = loading.finish()
    flush = getattr(opts.token_counter, "flush", None)
    if flush:
        flush()
    say("adding up budgets", 0.9)
    report = build_report(store) if opts.budgets else _LATER  # (else built if something asks)
    say("ready", 1.0)
    return Workspace(store, findings, report, cache)


def _set(only: frozenset[str] | None) -> set[str] | None:
    return set(only) if only is not None else None
