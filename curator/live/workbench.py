"""The workbench: every memory source of a repository, each as its current immutable
snapshot (a `Workspace`: store, findings, budgets), and the one way they change.

Pure (no Textual, no Rich). The CLI (`load_repository`, below) and the app both load
through `Workbench.load`; the app then keeps the workbench and asks it for new snapshots:
`changed(abs_paths)` (what the watcher saw), `recheck(index, paths)`, `apply(plan)` and
`undo()`. Each returns the sources that got a new snapshot; nothing is ever changed in place,
so a worker can build the next snapshot while the screens draw the current one.

The workbench owns the token counter (snapshots only name it) and the facts cache; the store
cache is per store (`curator.base.cache.store_cache`). (Not a "session": in curator a session is
one conversation of the agent, `transcripts.Session`, which the Sessions screen lists.)
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..base.cache import ContentCache, store_cache
from ..base.config import load_config
from ..base.tokens import TokenCounter
from ..checks.cross_source import cross_source_duplicates
from ..model.findings import Finding
from ..model.loader import DEFAULT, LoadOptions
from ..model.sources import SESSIONS, Layout, discover
from .repository import Repository, Source
from .workspace import Progress, Workspace, open_workspace


@dataclass
class Swap:
    """A source that got a new snapshot, and the store-relative paths that changed."""

    index: int
    workspace: Workspace
    paths: tuple[str, ...]


@dataclass
class Workbench:
    layout: Layout
    # given: the path the user typed; config: the one given for a single store (the CLI's --config);
    # check / only / budgets: what runs on each source (budgets=False: reports only when asked for)
    options: LoadOptions = DEFAULT
    facts_cache: ContentCache | None = None  # None: checks reuse a whole run's cached findings
    repo: Repository = field(init=False)  # every source now: swapped for the next on each change
    current: int = 0  # which memory source the faces show (an index into `sources`)

    def __post_init__(self) -> None:
        self._lock = threading.RLock()  # one change at a time (watcher, workers)
        self.repo = Repository(self.layout, given=self.options.given or "")

    @property
    def sources(self) -> tuple[Source, ...]:
        """The memory sources (sessions are browsed elsewhere), in the layout's order."""
        return self.repo.memory_sources()

    @property
    def cross(self) -> tuple[Finding, ...]:
        return self.repo.cross

    @property
    def instructions(self) -> object:
        return self.repo.instructions

    @property
    def instruction_findings(self) -> tuple[Finding, ...]:
        return self.repo.instruction_findings

    @property
    def token_counter(self) -> TokenCounter | None:
        return self.options.token_counter  # type: ignore[return-value]

    @property
    def check(self) -> bool:
        return self.options.check

    @property
    def only(self) -> set[str] | None:
        return set(self.options.only) if self.options.only is not None else None

    # -- views ---------------------------------------------------------------

    @property
    def workspace(self) -> Workspace | None:
        if not self.sources:
            return None
        return self.sources[self.current].workspace

    def loaded(self) -> list[tuple[int, Source]]:
        return [(i, s) for i, s in enumerate(self.sources) if s.workspace is not None]

    def index_of(self, root: Path) -> int | None:
        for i, s in enumerate(self.sources):
            if Path(s.spec.root) == Path(root):
                return i
        return None

    def roots(self) -> list[Path]:
        """The folders to watch: every loaded source (and the folders its config includes)."""
        out = []
        for _, s in self.loaded():
            out.append(s.root)
            for inc in s.loaded_workspace.store.config.include:
                extra = s.root / inc
                if extra.is_dir():
                    out.append(extra)
        return out

    def locate(self, abspath: Path | str) -> tuple[int, str] | None:
        """(source index, store-relative path) of a file on disk; None when no loaded source
        holds it, when it lies under a store's `.curator/`, or when it is no markdown file a
        store would read (an editor's swap or temp file)."""
        path = Path(os.path.abspath(abspath))
        best: tuple[int, str] | None = None
        depth = -1
        for i, s in self.loaded():
            store = s.loaded_workspace.store
            bases = [(s.root, "")] + [(s.root / inc, inc.rstrip("/")) for inc in store.config.include]
            for base, prefix in bases:
                base = Path(os.path.abspath(base))
                try:
                    rel = path.relative_to(base).as_posix()
                except ValueError:
                    continue
                rel = f"{prefix}/{rel}" if prefix else rel
                if len(base.parts) > depth and store.reads_path(rel):
                    best, depth = (i, rel), len(base.parts)
        return best

    # -- loading -------------------------------------------------------------

    def load(self, progress: Progress | None = None, *, name_by_root: bool = False) -> Workbench:
        """Load, count, check and budget every memory source (sessions are browsed elsewhere).
        A source that cannot be loaded keeps its reason; it never stops the others."""
        say = progress or (lambda _what, _frac: None)
        layout = self.layout
        specs = [s for s in layout.sources if s.kind != SESSIONS]
        loaded: dict[int, Source] = {}
        for i, spec in enumerate(specs):
            def sub(what: str, frac: float, i=i, spec=spec) -> None:
                # (a store at the repository's root is named by nothing: not ".: reading the store")
                say(f"{spec.rel}: {what}" if spec.rel not in ("", ".") else what, (i + frac) / max(1, len(specs)))

            try:
                ws = open_workspace(spec.root, self._options_for(spec, name_by_root), progress=sub,
                                    facts_cache=self.facts_cache)
                loaded[id(spec)] = Source(spec, ws)
            except Exception as exc:  # noqa: BLE001 - a missing folder, a config error: shown, never fatal
                loaded[id(spec)] = Source(spec, None, str(exc))
        sources = tuple(loaded.get(id(spec)) or Source(spec) for spec in layout.sources)
        model = None
        found: tuple[Finding, ...] = ()
        if self.check and not layout.single:  # the instruction files beside the memory (CLAUDE.md, rules, ...)
            from ..context.for_check import findings_of, instruction_model

            model = instruction_model(layout.root, self.only, self.token_counter, self.options.agents)
            found = tuple(findings_of(model))
        with self._lock:
            self.repo = replace(self.repo, sources=sources, instructions=model, instruction_findings=found)
            self._cross()
            n = len(self.sources)
            if n and self.sources[self.current if self.current < n else 0].workspace is None:
                self.current = next((i for i, _ in self.loaded()), 0)
            elif self.current >= n:
                self.current = 0
        return self

    def _options_for(self, spec, name_by_root: bool) -> LoadOptions:
        """The workbench's options for one source: its name, config, format and repository."""
        opts, single = self.options, self.layout.single
        if single:
            given = opts.given
        else:
            given = str(spec.root) if name_by_root else spec.rel
        cfg = opts.config if opts.config is not None and single else load_config(spec.root)
        return opts.but(given=given, config=cfg, fmt=spec.fmt, repo_root=None if single else self.layout.root,
                        budgets=opts.budgets and opts.check)

    def set_instructions(self, model) -> None:
        """The instruction files' model built again (the app's, after a change on disk): its
        findings replace the ones counted with the sources' (one store given alone has none)."""
        if not self.check or self.layout.single:
            return
        from ..context.for_check import findings_of, wanted

        ids = wanted(self.only)
        with self._lock:
            found = tuple(f for f in findings_of(model) if ids is None or f.check in ids)
            self.repo = replace(self.repo, instructions=model, instruction_findings=found)

    def prefer(self, root: Path | None) -> None:
        idx = self.index_of(root) if root is not None else None
        if idx is not None and self.sources[idx].workspace is not None:
            self.current = idx

    def _cross(self) -> None:
        wanted = self.check and (self.only is None or "duplicate.near" in self.only)
        cross: tuple[Finding, ...] = ()
        if wanted and len(self.loaded()) >= 2:
            stores = self.repo.stores()
            cross = tuple(cross_source_duplicates(self.layout.root, [(s.name, s.prefix, store) for s, store in stores]))
        self.repo = replace(self.repo, cross=cross)

    def repository(self) -> Repository:
        """Every source now, as one immutable value (what the CLI prints and the screens read)."""
        return self.repo

    # -- change ----------------------------------------------------------------

    def recheck(self, index: int, paths: Iterable[str]) -> Swap | None:
        """The source's next snapshot after `paths` changed on disk (None: nothing changed)."""
        with self._lock:
            src = self.sources[index]
            ws = src.workspace
            if ws is None:
                return None
            paths = tuple(sorted(set(paths)))
            new = ws.recheck(paths)
            if new is ws:
                return None
            if self.check and self.options.budgets:
                new.report  # noqa: B018 - the budgets too, before the screens ask (not on their thread)
            self.repo = self.repo.with_workspace(src, new)
            memories = any((r is not None and r.level == 2)
                           for p in paths for r in (ws.store.records.get(p), new.store.records.get(p)))
            if memories and len(self.loaded()) > 1:
                self._cross()  # the same knowledge kept in two sources: only memories count
            return Swap(index, new, paths)

    def changed(self, abspaths: Iterable[Path | str]) -> list[Swap]:
        """New snapshots for whatever sources the changed files (absolute) belong to."""
        by_source: dict[int, set[str]] = {}
        for p in abspaths:
            hit = self.locate(p)
            if hit is not None:
                by_source.setdefault(hit[0], set()).add(hit[1])
        swaps = []
        for index, paths in sorted(by_source.items()):
            swap = self.recheck(index, paths)
            if swap is not None:
                swaps.append(swap)
        return swaps

    def apply(self, plan, index: int | None = None) -> tuple[str, Swap | None]:
        """Write a plan through the journaled write path, then the source's next snapshot (from
        the files the plan changed). Raises CurationError (ChangedOnDisk included)."""
        from ..curation import apply_plan

        index = self.current if index is None else index
        jid = apply_plan(self.sources[index].root, plan)
        return jid, self._after_write(index, [e.path for e in plan.edits])

    def _after_write(self, index: int, paths: list[str]) -> Swap:
        """The source's snapshot after our own write: always a swap, even when the watcher saw
        the files first (then the face still gets the current snapshot, never keeps an older one)."""
        swap = self.recheck(index, paths)
        return swap if swap is not None else Swap(index, self.sources[index].loaded_workspace, tuple(sorted(set(paths))))

    def undo(self, index: int | None = None, entry_id: str | None = None):
        """Undo the source's last operation (or the entry named: one the person reviewed);
        (journal entry, its next snapshot)."""
        from ..base.trust import STORE
        from ..curation import undo

        index = self.current if index is None else index
        entry = undo(self.sources[index].root, STORE, entry_id)
        paths = [f["path"] for f in entry.meta.get("files", []) if isinstance(f, dict) and "path" in f]
        return entry, self._after_write(index, paths)

    def flush(self) -> None:
        """Keep what the re-checks learnt (each store's cache; the token counts): evolving a
        snapshot never writes, so the app calls this when it leaves."""
        for _, s in self.loaded():
            try:
                store_cache(s.root).save()
            except OSError:
                pass  # a cache is only ever time
        flush = getattr(self.token_counter, "flush", None)
        if flush:
            flush()

    # -- the watcher -------------------------------------------------------------

    def watch(self, on_swaps: Callable[[list[Swap]], None], stop: threading.Event,
              events: Callable[[list[Path], threading.Event], Iterable[set]] | None = None,
              on_error: Callable[[Exception], None] | None = None) -> None:
        """Follow the sources on disk until `stop` is set: each batch of changed files becomes
        new snapshots, handed to `on_swaps`. `events(roots, stop)` yields batches of absolute
        paths (default: `watch_files`, i.e. watchfiles); tests pass their own."""
        source = events or watch_files
        try:
            for batch in source(self.roots(), stop):
                if stop.is_set():
                    return
                try:
                    swaps = self.changed(batch)
                except Exception as exc:  # noqa: BLE001 - one bad batch never stops watching
                    if on_error is not None:
                        on_error(exc)
                    continue
                if swaps:
                    on_swaps(swaps)
        except Exception as exc:  # noqa: BLE001 - e.g. the watched folder went away
            if on_error is not None:
                on_error(exc)


def _ignored(path: str) -> bool:
    """Editor swap and temp files, hidden files, anything under `.curator/` or `.git/`."""
    parts = Path(path).parts
    name = parts[-1] if parts else ""
    if any(p in (".curator", ".git") for p in parts):
        return True
    if name.startswith((".", "#")) or name.endswith(("~", ".swp", ".swx", ".tmp", ".part")):
        return True
    return not name.endswith(".md")


def watch_files(roots: list[Path], stop: threading.Event, debounce_ms: int = 150) -> Iterable[set]:
    """Batches of changed markdown files (absolute paths) under `roots`, through watchfiles (a
    rename is a deletion and an addition); ends when `stop` is set."""
    from watchfiles import watch

    roots = [r for r in roots if Path(r).is_dir()]
    if not roots:
        return
    for changes in watch(*roots, stop_event=stop, debounce=debounce_ms, step=50,
                         watch_filter=lambda _change, path: not _ignored(path), raise_interrupt=False,
                         yield_on_timeout=False):
        yield {Path(p) for _change, p in changes}


def open_workbench(layout, options: LoadOptions = DEFAULT, *, progress: Progress | None = None,
                   prefer: Path | None = None, facts_cache=None) -> Workbench:
    """A loaded workbench for the app. An unchanged store's findings come from the store cache
    (as for `curator check`); each workspace keeps a facts cache for its re-checks."""
    bench = Workbench(layout, options, facts_cache=facts_cache)
    bench.load(progress)
    bench.prefer(prefer)
    return bench


def load_repository(
    path: Path | str,
    options: LoadOptions = DEFAULT,
    *,
    progress: Progress | None = None,
    env: dict | None = None,
    layout: Layout | None = None,
) -> Repository:
    """Discover, load and (unless `options.check` is False) check every memory source under
    `path` — the CLI's load, through the same `Workbench` as the app's."""
    layout = layout or discover(Path(path), env=env)
    bench = Workbench(layout, options.but(given=str(path), budgets=False))
    bench.load(progress, name_by_root=True)
    if progress:
        progress("loaded", 1.0)
    return bench.repository()  # the instruction files' findings count with the cross-source ones
