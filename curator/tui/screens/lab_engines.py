"""The retrieval lab's engines, built off the UI thread: the words' engine first (it answers at
once), then the same with meaning, the first embedding's progress in the lab's title — for one
memory system or for each of the whole repository's."""

from __future__ import annotations

from functools import partial

from .lab_text import golden_report

WORDS = "retrieval.engine"  # the snapshot's engine, built without meaning
MEANING = "retrieval.engine.semantic"  # the same engine once meaning started on it (`with_meaning`)


class Superseded(Exception):
    """Newer words (or a newer snapshot) took over: the model stops reading for this search."""


def stop_if_superseded() -> None:
    """Raise Superseded in a worker that was cancelled: called between the model's batches, so a
    search whose words changed stops within a batch instead of reading on for seconds."""
    from textual.worker import NoActiveWorker, get_current_worker

    try:
        cancelled = get_current_worker().is_cancelled
    except NoActiveWorker:
        return
    if cancelled:
        raise Superseded


class LabEngines:
    """The lab screen's engine builder: it hands each engine to the screen's `_engine_ready` /
    `_engines_ready`, from a worker of the screen's."""

    def __init__(self, screen) -> None:
        self.screen = screen
        self.app = screen.app

    @staticmethod
    def words_engine(store):
        """The snapshot's engine, built without meaning (a view: built once for it, whoever asks);
        `with_meaning` later starts meaning on this same engine."""
        from ...base.tokens import estimating
        from ...retrieval import RetrievalEngine

        keep = not estimating()

        def build():
            if keep:  # a large store's first index: built and saved by a child, opened here (index_child.py)
                from ...retrieval.index_child import build_elsewhere

                build_elsewhere(store, len(store.records))
            return RetrievalEngine(store, persist=keep).prepare()

        return store.view(WORDS, build)

    @staticmethod
    def with_meaning(engine, progress):
        """The words engine with meaning started on it: one index, not a second engine's (~50 MB
        at 10,000 memories), words-first searches asking it for words only (`words_only`). Lean:
        the model's session only while it reads (~170 MB), so the app stays under 300 MB there."""
        from ...base.blas import one_thread
        from ...retrieval.semantic import give_back

        one_thread()  # the query's vector and the static candidates side by side (base/blas.py)
        engine.start_semantic(progress)
        engine.prepare(lean=True)
        give_back()  # what building the static vectors freed goes back to the system, not to a later peak
        return engine

    @staticmethod
    def read_ahead(engine, engines, query: str) -> None:
        """The model reads the words while the debounce runs (~10 ms a query, off the results'
        path): each engine with meaning starts the query's vector, never waiting for one."""
        for e in [x.engine for x in engines] if engines is not None else [engine]:
            if e is not None and e.semantic is not None:
                e.semantic.begin(query, wait=False)

    @classmethod
    def search(cls, app, engine, engines, query: str, words_first=None) -> tuple:
        """(result, milliseconds, skills and rules also loaded) of `query`: one memory system's
        engine, or the whole repository's `engines` fused as `curator retrieve` fuses them. When
        the model must first read passages it has not read (a new query on a large store: a
        second or more), `words_first(result, ms, also)` hears the words' ranking before that."""

        if words_first is not None:
            meaning = [e.engine for e in engines] if engines is not None else [engine]
            if any(e.unread(query) for e in meaning):  # the same engines, as they rank without meaning
                words_first(*cls._search(app, engine, engines, query, words_only=True))
        return cls._search(app, engine, engines, query)

    @staticmethod
    def _search(app, engine, engines, query: str, words_only: bool = False) -> tuple:
        import time

        start = time.perf_counter()
        if engines is not None:
            from ...model.sources import repository_settings
            from ...retrieval.multi import search_sources

            precedence = repository_settings(app.workbench.layout.root).precedence
            result = search_sources(engines, query, engine.config.k, "fused", precedence, words_only=words_only)
        else:
            result = engine.search(query, words_only=words_only)
        elapsed = (time.perf_counter() - start) * 1000
        return result, elapsed, engine.also_load(query)  # skills and rules picked by description (after the timing)

    def build(self, store, whole=None) -> None:
        self.screen.run_worker(partial(self.build_engine, store, whole), name="build_engine", group="lab-engine",
                               description="build_engine", exclusive=True, exit_on_error=False, thread=True)

    def build_engine(self, store, whole=None) -> None:
        from ...base.children import Stopped

        try:
            self._build_engine(store, whole)
        except Stopped:
            return  # the app is leaving (it stopped the index child): nothing to show

    def _build_engine(self, store, whole=None) -> None:
        from ...base.config import meaning_off
        lab = self.screen
        if lab.engine is None:
            self.app.hand_off(lab._title, "building the retrieval index…")
        if whole is not None:
            self._build_engines(whole)
            return
        engine = self.words_engine(store)
        report = golden_report(engine, store)
        self.app.hand_off(lab._engine_ready, engine, store, report)
        if meaning_off(engine.config):
            return
        # then the same with meaning: the lexical engine answers while memories are embedded
        # (only new or edited ones: the vectors are cached by content)

        def progress(done: int, total: int) -> None:
            stop_if_superseded()
            self.app.hand_off(lab._title, f"embedding {done}/{total} texts for meaning (searching by words meanwhile)…",
                              True)

        semantic = store.view(MEANING, lambda: self.with_meaning(engine, progress))
        if semantic.semantic is not None:
            self.app.hand_off(lab._engine_ready, semantic, store, golden_report(semantic, store))
        else:  # words only, and why (as `curator retrieve` says it)
            self.app.hand_off(self._no_meaning, semantic.unavailable.get("semantic", "not running"))

    def _build_engines(self, whole) -> None:
        """The whole repository: each source's engine (a view of its snapshot, as in one
        source's scope), then the same with meaning where it is on."""
        from ...base.config import meaning_off
        from ...retrieval.multi import Engine

        wanted = tuple(st for *_, st in whole)
        engines = [Engine(name, kind, pre, self.words_engine(st)) for name, kind, pre, st in whole]
        self.app.hand_off(self.screen._engines_ready, engines, wanted)
        if any(meaning_off(e.engine.config) for e in engines):
            return
        semantic = []
        for e in engines:  # each memory system's first embedding shows its progress, as one source's does
            def progress(done: int, total: int, name: str = e.name) -> None:
                stop_if_superseded()
                self.app.hand_off(self.screen._title, f"embedding {done}/{total} texts of {name} for meaning "
                                               "(searching by words meanwhile)…", True)

            semantic.append(Engine(e.name, e.kind, e.prefix, e.engine.store.view(
                MEANING, lambda words=e.engine, progress=progress: self.with_meaning(words, progress))))
        if any(e.engine.semantic is not None for e in semantic):
            self.app.hand_off(self.screen._engines_ready, semantic, wanted)
        else:
            self.app.hand_off(self._no_meaning, semantic[0].engine.unavailable.get("semantic", "not running"))

    def _no_meaning(self, why: str) -> None:
        lab = self.screen
        lab.unavailable = why
        lab._title(f"fused · words only · semantic source unavailable: {why}")
        lab._reason()

