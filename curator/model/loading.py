"""A snapshot being built whose token counts are made elsewhere — in a forked process or on a
thread — while the caller goes on (`Loading`)."""

from __future__ import annotations

import os
import threading
from typing import Any

from ..base import cache as _cache
from .counting import set_counts
from .records import Record
from .store import Store


def uncounted(store: Store, counter, known) -> list[Record]:
    """The readable records whose count the store cache does not hold (the others get
    theirs from it now)."""
    encoding = counter.encoding
    entries, HASH, TOKENS = known.entries, _cache.HASH, _cache.TOKENS
    todo = []
    for r in store.records.values():
        if r.error is None:
            e = entries.get(r.path)
            t = e[TOKENS] if e is not None and e[HASH] == r.content_hash and r.content_hash else None
            if t is not None and t[0] == encoding:
                r.tokens = t[1]
            else:
                todo.append(r)
    return todo


def _count_in_child(send, lengths, texts) -> None:
    try:
        send.send(lengths(texts))
    except BaseException:  # noqa: BLE001 - the parent sees no result and counts itself
        pass
    finally:
        send.close()


class Loading:
    """A snapshot being built whose token counts are made elsewhere — a forked process, else a
    thread (see `_fork`) — while the caller goes on (counting is most of a cold load):
    `store` has every record read and parsed but no new counts yet, and is not frozen;
    `finish()` waits for the counts, fills them in and freezes it. Between the two, whatever
    reads no token may run on `store` (the checks that declare no TOKENS read:
    `checks.run_checks(loading=)`); nothing else sees it. The worker only counts: the records
    and the store cache are touched on the caller's thread, in `finish`."""

    def __init__(self, store: Store, counter, cache, background: bool = True) -> None:
        self.store = store
        self._counter = counter
        self._cache = cache
        self._counts: list[int] | None = None
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        # the forked counter: (process, its pipe, the items, the cached counts, which were missing)
        self._process: tuple[Any, Any, list, list, list] | None = None
        self._todo: list[Record] = []
        self._encoding: str = counter.encoding if counter is not None else ""
        if counter is None:
            return
        self._todo = uncounted(store, counter, self._known())
        if not self._todo:
            self._counts = []
            return
        items = [(r.content_hash, r.text) for r in self._todo]  # texts read here, not there
        if background and self._fork(items):
            return
        if background:
            self._thread = threading.Thread(target=self._work, args=(items,), name="curator-count", daemon=True)
            self._thread.start()
        else:
            self._work(items)

    def _known(self):
        """Where the counts are kept: the load's own store cache, else the store's."""
        return self._cache if self._cache is not None else _cache.store_cache(self.store.root)

    def _fork(self, items) -> bool:
        """Count in a forked process (a thread would wait for the GIL after every file while
        the checks hold it): where `fork` is safe — Linux, no other thread — and useful (two
        processors or more), and the counter can hand its cache lookups and its results
        across (`lookup` / `learn`)."""
        import sys

        counter = self._counter
        if sys.platform != "linux" or threading.active_count() > 1 or not hasattr(counter, "learn"):
            return False
        if len(os.sched_getaffinity(0)) < 2:
            return False  # one processor: a second process only adds its start
        import multiprocessing

        from ..base import tokens

        out, missing = counter.lookup(items)
        texts = [items[i][1] for i in missing]
        if not texts:
            self._counts = [int(n or 0) for n in out]
            return True
        for stream in (sys.stdout, sys.stderr):
            stream.flush()  # the child must not write the parent's buffered output again
        ctx = multiprocessing.get_context("fork")
        receive, send = ctx.Pipe(duplex=False)
        try:
            proc = ctx.Process(target=_count_in_child, args=(send, tokens.lengths, texts), daemon=True,
                               name="curator-count")
            proc.start()
        except OSError:
            return False  # no process to spare: a thread counts
        send.close()
        self._process = (proc, receive, items, out, missing)
        return True

    def _work(self, items) -> None:
        try:
            self._counts = self._counter.count_many(items)
        except BaseException as exc:  # noqa: BLE001 - raised again by finish, on the caller's thread
            self._error = exc

    def _collect(self) -> None:
        """The forked counter's results (counted here instead when it failed)."""
        assert self._process is not None
        proc, receive, items, out, missing = self._process
        self._process = None
        try:
            encoding, counts, reason = receive.recv()
        except (EOFError, OSError, ValueError, TypeError):
            encoding = None
        finally:
            receive.close()
            proc.join()
        if encoding is None or len(counts) != len(missing):
            self._work(items)  # the child died: count here
        else:
            self._counts = self._counter.learn(items, out, missing, counts, encoding, reason)

    def finish(self) -> Store:
        store = self.store
        if store.frozen:
            return store
        if self._process is not None:
            self._collect()
        if self._thread is not None:
            self._thread.join()
        if self._error is not None:
            raise self._error
        counter = self._counter
        if counter is not None:
            set_counts(counter, self._encoding, self._todo, self._counts or [], self._known())
            store.encoding = counter.encoding
            store.counter = counter
        if self._cache is not None:
            self._cache.save()
        return store.freeze()
