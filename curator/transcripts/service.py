"""The app's session-tier service: one repository's sessions and the usage evidence they give.

Pure (no Textual): the app runs `quick()` then `build()` in a worker and asks for `usage_for()`
whenever the store is (re)loaded. State lives here — never on the Store.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..base.paths import transcript_repository
from .index import Session, SessionIndex
from .usage import PathMapper, UsageIndex, build_usage


class SessionsService:
    def __init__(self, store_root: Path, roots: list[Path] | None = None) -> None:
        self.store_root = Path(store_root)
        self.repo = transcript_repository(store_root)
        self.roots = roots
        self.index: SessionIndex | None = None
        self.usage: UsageIndex | None = None
        self.indexed = False  # every transcript streamed (counts and usage are final)
        self.match_all = False  # True: every transcript of the projects folders, run anywhere (--all)
        self.progress: tuple[str, float] = ("", 0.0)
        self._usage_store = None  # the store `usage` is mapped onto
        self._others: dict[Path, tuple[object, object, UsageIndex]] = {}  # other sources' usage

    @property
    def has_transcripts(self) -> bool:
        """Were transcripts found for this repository? (False until `quick()` has run.)"""
        return self.index is not None and bool(self.index.discovery.files)

    @property
    def sessions(self) -> list[Session]:
        return list(self.index.sessions.values()) if self.index is not None else []

    def quick(self) -> list[Session]:
        """Discover and peek: what the list shows at once (counts and usage wait for build)."""
        self.indexed = False
        self.index = SessionIndex.for_repo(self.repo, self.roots, match_all=self.match_all)
        return self.index.quick()

    def build(self, progress: Callable[[str, float], None] | None = None,
              should_stop: Callable[[], bool] | None = None) -> list[Session]:
        if self.index is None:
            self.quick()
        index = self.index
        assert index is not None  # quick() made it

        def said(what: str, fraction: float) -> None:
            self.progress = (what, fraction)
            if progress is not None:
                progress(what, fraction)

        out = index.build(said, should_stop)
        self.indexed = all(s.complete for s in out)
        return out

    def usage_for(self, store) -> UsageIndex | None:
        """Usage evidence mapped onto this store's records (None until indexed)."""
        if not self.indexed or self.index is None:
            return None
        scans = [sc for s in self.index.sessions.values() for sc in s.scans]
        self.usage = build_usage(scans, PathMapper(store.root, list(store.records), self.repo), store.today)
        self._usage_store = store
        return self.usage

    def usage_of(self, store) -> UsageIndex | None:
        """The same reads mapped onto any store of the repository — the current one (`usage`)
        or another source of it — without changing `usage`. None until the first index is done;
        the mapping is kept until `usage` is rebuilt."""
        usage, index = self.usage, self.index
        if usage is None or index is None:
            return None
        current = self._usage_store
        if current is None or store is current or Path(store.root) == Path(current.root):
            return usage  # a reload of the current store is mapped again by `usage_for`
        kept = self._others.get(Path(store.root))
        if kept is not None and kept[0] is store and kept[1] is usage:
            return kept[2]
        if not self.indexed:
            return kept[2] if kept is not None else None  # re-indexing: scans are partial
        scans = [sc for s in index.sessions.values() for sc in s.scans]
        mapped = build_usage(scans, PathMapper(store.root, list(store.records), self.repo), store.today)
        self._others[Path(store.root)] = (store, usage, mapped)
        return mapped
