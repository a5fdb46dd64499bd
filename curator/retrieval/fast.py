"""`curator retrieve` on an unchanged store, answered without loading it.

The saved BM25 index (`persist`) already spares a warm process the index build, but the store
load around it (walk, stat, the store cache, record reconstruction, tiering) still cost most of
a warm `retrieve`. After a full run of `curator retrieve QUERY STORE`, this module keeps what a
query needs besides the index — each record's path, tier, tokens, title, content hash and date,
the route's index rows and links, each memory's cluster, the retrieval config, the day — with
the stat key of every memory file and folder that run's load read or listed (`base.kept`, the
kept runs `checks/replay.py` also keeps `check` with; `model.load_signature`). The next `retrieve` of the same STORE states those
paths; when every key still matches, it searches the saved index through a stand-in for the
store (`LiteStore`) with the very same engine and prints with the very same code, so the output
is byte-identical to the full path's. Anything else takes the full path, which keeps a new state:

- a change, addition, deletion or rename of a memory file or folder (the folder's mtime), the
  config, or the places discovery asks about; git's racy rule — a state is only kept when
  everything it stated is older than the run's start minus `RACY_SLACK_NS`;
- another saved index generation than the one the state was kept with;
- options the state does not serve: `--why`, `--[no-]semantic`, `--source semantic` or a memory
  system's name, `--config`, no STORE (discovery from the current folder), anything unparsed;
- a repository with several memory sources (the repository path), the demo store, estimated
  token counts (`CURATOR_TOKENS=estimate` keeps no index), a tokenizer that did not load;
- agent transcripts: the state is kept only when no transcript was found (the `projects`
  folders are stated, each folder of them, so a new transcript anywhere is seen);
- a damaged or foreign state file (`CURATOR_NO_FAST=1` turns the whole thing off).

The state files live in `<cache>/retrieval/fast/`, one per STORE argument, current folder,
environment, interpreter, curator code and day; the newest `KEEP` are kept.
"""

from __future__ import annotations

import os
import sys
import time
from typing import TYPE_CHECKING, cast

from ..base import kept

if TYPE_CHECKING:  # the stand-in's model, never imported on the fast path
    from ..model.store import Store

FORMAT = 4  # 3: checksummed; why the semantic source was off; 4: the index's loaded tokens
KEEP = 64
SERVED = ("route", "bm25", "prior", "fused", "fused-lexical")

class Declined(Exception):
    """The stand-in was asked for something only a loaded store has: take the full path."""


# ------------------------------------------------------------------ the command line


def parse(argv: list[str]) -> dict | None:
    """The options of `retrieve` the fast path serves, or None (then the full parser runs)."""
    if not argv or argv[0] != "retrieve":
        return None
    opts: dict = {"format": "text", "k": None, "source": "fused", "store": None}
    positional: list[str] = []
    args = argv[1:]
    i = 0
    while i < len(args):
        a = args[i]
        if a.startswith("-"):
            name, eq, value = a.partition("=")
            if name not in ("--format", "--k", "--source", "--store"):
                return None  # --why, --semantic, --config, -h, abbreviations, `--`, a negative number …
            if not eq:
                i += 1
                if i >= len(args) or args[i].startswith("-"):
                    return None
                value = args[i]
            opts[name[2:]] = value
        else:
            positional.append(a)
        i += 1
    if len(positional) == 2 and opts["store"] is None:
        opts["store"] = positional.pop()
    if len(positional) != 1 or not opts["store"] or not positional[0].strip():
        return None
    opts["query"] = positional[0]
    if opts["format"] not in ("text", "json") or opts["source"] not in SERVED:
        return None
    if opts["k"] is not None:
        try:
            opts["k"] = int(opts["k"])
        except ValueError:
            return None
        if opts["k"] < 1:
            return None
    return opts


def _folder() -> str | None:
    return None if os.environ.get("CURATOR_NO_FAST") else kept.folder("retrieval", "fast")


def state_key(store_arg: str) -> tuple:
    """What a kept state is valid for besides the files it stated."""
    from ..base.cache import code_signature

    return (FORMAT, os.path.abspath(store_arg), kept.environment(), sys.executable, code_signature(),
            time.strftime("%Y-%m-%d"))


# ------------------------------------------------------------------ answering


def begin(argv: list[str]):
    """At the entry point: ((options, engine, result, state) of this `retrieve` answered from the
    kept state — the face prints it (`cli.commands.retrieve.answer_fast`) —, None), or (None, the
    kept run the command may keep a state through for the next one; None when it keeps none)."""
    opts = parse(argv)
    folder = _folder() if opts is not None else None
    if opts is None or folder is None:
        return None, None
    start_ns = time.time_ns()
    try:
        key = state_key(opts["store"])
    except Exception:  # noqa: BLE001 - an odd environment: the full path decides
        return None, None
    run = kept.Run(key, folder, start_ns)
    try:
        answered = answer(run, opts)
    except Exception:  # noqa: BLE001 - a damaged or foreign state: the full path runs
        return None, run
    if answered is None:
        return None, run
    return (opts, *answered), None  # answered: nothing to keep


def answer(run: kept.Run, opts: dict):
    """(engine, result, state) for the query from the kept state, or None when it is stale."""
    try:
        state = kept.load(run)
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not isinstance(state, dict) or state.get("v") != FORMAT or state.get("key") != run.key:
        return None
    if state["semantic_keys"] is None and not state.get("semantic_off"):
        return None  # lexical only, and not by choice (a refused model): the full path tries the model again
    if not kept.unchanged(state["stats"], state["presence"]) or not _sessions_unchanged(state["sessions"]):
        return None
    from ..base.today import current_day
    from .engine import RetrievalEngine

    if state["today"] != current_day().isoformat():  # recency is counted from the day a load would use
        return None
    store = LiteStore(state)
    try:
        # a stand-in for the Store: what the engine reads of one, anything else raises Declined
        engine = RetrievalEngine(cast("Store", store), store.retrieval, reads=state["reads"], persist=True,
                                 semantic=state["semantic_keys"] is not None)
    except Declined:
        return None
    if engine.index_state != "reused" or engine._saved is None or engine._saved.gen != state["gen"]:
        return None  # the index the state was kept with, and only it
    result = engine.search(opts["query"], opts["k"], opts["source"])
    return engine, result, state


class _Link:
    __slots__ = ("target",)

    def __init__(self, target: str) -> None:
        self.target = target


class _Row:
    __slots__ = ("line", "targets")

    def __init__(self, line: int, targets) -> None:
        self.line = line
        self.targets = targets

    @property
    def links(self) -> list[_Link]:  # read only for the rows a query matched
        return [_Link(t) for t in self.targets]

    @property
    def keyword_set(self):  # the saved index carries each row's keywords; a mismatch is stale
        raise Declined("keywords")


class _Record:
    __slots__ = ("path", "level", "readable", "kind", "tier", "folder", "date", "tokens", "title", "content_hash")

    def __init__(self, fields) -> None:
        (self.path, self.level, self.readable, self.kind, self.tier, self.folder, self.date, self.tokens,
         self.title, self.content_hash) = fields

    def body(self) -> str:
        raise Declined("body")

    @property
    def stem(self) -> str:
        raise Declined("stem")


class _L0:
    __slots__ = ("path",)

    def __init__(self, path: str) -> None:
        self.path = path


class LiteStore:
    """What the retrieval engine, the route walk and the report read of a `Store`, from a kept
    state. Anything else (a memory's text, `why`'s route explanation) raises `Declined`."""

    def __init__(self, state: dict) -> None:
        from datetime import date

        from ..base.config import RetrievalConfig

        self.root = state["root"]
        self.encoding = state["encoding"]
        self.today = date.fromisoformat(state["today"])
        self.records = {f[0]: _Record(f) for f in state["records"]}
        self._clusters = state["clusters"]
        self._indexes = [(p, [_Row(line, targets) for line, targets in rows]) for p, rows in state["indexes"]]
        self.l0 = _L0(state["l0"]) if state["l0"] is not None else None
        self.kept_l0 = state.get("l0_loaded")  # route.loaded_index, as the full run had it
        self.domain_indexes = dict.fromkeys(state["domain_indexes"])
        self.retrieval = RetrievalConfig(**state["config"])
        self.semantic_keys = state["semantic_keys"]

    def all_indexes(self):
        return self._indexes

    def domain_of(self, path: str) -> str | None:
        return self._clusters.get(path)

    def __getattr__(self, name: str):
        raise Declined(name)


def _sessions_unchanged(sessions) -> bool:
    _roots, stats, presence = sessions  # the roots follow HOME and CLAUDE_CONFIG_DIR, in the key
    return kept.unchanged(stats, presence)


def _session_roots() -> list[str]:
    from ..transcripts.discover import claude_roots

    return [str(r) for r in claude_roots()]


# ------------------------------------------------------------------ keeping


def keep(run: kept.Run | None, store, located, engine, reads, evidence, extra_ok: bool) -> bool:
    """After a full single-store `retrieve`: keep what the next one needs, unless this run is not
    one the fast path may serve (or no `run` was opened for it). True when kept."""
    if run is None or not extra_ok:
        return False
    if located.is_sample or reads is not None or evidence.get("sessions") or evidence.get("reads"):
        return False
    if store.encoding != "cl100k_base" or engine._saved is None:
        return False
    if engine.unavailable:  # a source that should have run did not (a refused model): the next run tries again
        return False
    from ..base.paths import is_below
    from ..model.load_signature import store_signature
    from .route import loaded_index

    # the folders between the STORE argument and the store (a repository given by its folder)
    given = os.path.abspath(run.key[1])
    root = os.path.abspath(str(store.root))
    between = []
    if is_below(root, given):
        part = root
        while part != given:
            part = os.path.dirname(part)
            between.append(part)
    elif root != given:
        return False
    from ..budgets.startup import startup_inputs

    # what of a Claude MEMORY.md loads (route.loaded_index) turns on files outside the store
    signature = store_signature(store, run.settled, tuple(between), tuple(startup_inputs(store)))
    sessions = _sessions_signature(run.settled)
    if signature is None or sessions is None:
        return False
    docs = {r.path for r in engine.docs}
    state = {
        "v": FORMAT, "key": run.key, "root": str(store.root), "gen": engine._saved.gen,
        "stats": signature[0], "presence": signature[1], "sessions": sessions,
        "records": [(r.path, r.level, r.readable, r.kind, r.tier, r.folder, r.date, r.tokens, r.title,
                     r.content_hash) for r in store.records.values()],
        "clusters": {p: store.domain_of(p) for p in docs if store.domain_of(p)},
        "indexes": [(p, [(row.line, tuple(link.target for link in row.links)) for row in rows])
                    for p, rows in store.all_indexes()],
        "l0": store.l0.path if store.l0 is not None else None,
        "l0_loaded": loaded_index(store, store.l0.path) if store.l0 is not None else None,
        "domain_indexes": list(store.domain_indexes),
        "config": _config_fields(engine.config),
        "today": store.today.isoformat(), "encoding": store.encoding,
        "reads": reads, "evidence": dict(evidence),
        # the semantic source's cache keys (they depend on each memory's head, which needs its text)
        "semantic_keys": engine.semantic_keys() if engine.semantic is not None else None,
        "semantic_off": _semantic_off(engine.config),  # why it did not run, when it was turned off
    }
    return kept.write(run, state)


def _semantic_off(config) -> str | None:
    """Why the semantic source is turned off by choice (None when it is on): `CURATOR_NO_SEMANTIC`
    (in the state's key) or the store's config (its file is stated: a change takes the full path)."""
    from ..base.config import meaning_off

    why = meaning_off(config)
    return why or None


def _config_fields(config) -> dict:
    from dataclasses import fields

    return {f.name: getattr(config, f.name) for f in fields(config)}


def _sessions_signature(settled_ns: int):
    """(the transcript roots, the stat key of every folder below them), or None when racy."""
    limit = settled_ns
    roots = _session_roots()
    stats, presence = [], []
    for root in roots:
        stack = [root]
        while stack:
            folder = stack.pop()
            try:
                st = os.lstat(folder)
            except FileNotFoundError:
                if folder == root:
                    presence.append((root, False))
                    continue
                return None
            except OSError:
                return None
            if st.st_mtime_ns >= limit or st.st_ctime_ns >= limit:
                return None
            stats.append((folder, kept.stat_key(st)))
            if len(stats) > 2000:
                return None
            try:
                stack += [e.path for e in os.scandir(folder) if e.is_dir(follow_symlinks=False)]
            except OSError:
                return None
    return tuple(roots), tuple(stats), tuple(presence)
