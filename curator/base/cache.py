"""Persistent caches in the user cache folder.

`StoreCache` — one per store, keyed like git's index. For every file it keeps the stat key
(size, mtime_ns, inode, ctime_ns), when the content was last verified, and what the loader and
the checks derived from the bytes (parsed fields, token count, check facts), as plain tuples in
one `marshal` blob that loads in C. An unchanged store is then walk + stat + one load: no file
is read or hashed. Git's racy-timestamp rule applies: an entry whose mtime is not clearly older
than the moment its content was read could hide a same-tick edit, so it is re-verified by
content hash before it is trusted. Store-wide results are kept beside the entries, each under
the signature of what it depends on. Entries of files that are gone are pruned when the cache is
saved; every store has its own folder (named by a hash of its real path), so two stores never
share an entry.

`ContentCache` — a small dict of plain values in one file (the sessions' scans).

Every file is written with a checksum (`safeio.with_checksum`) and nothing in it is ever
unpickled: a missing, damaged or unwritable cache only costs time, never a traceback or another
verdict.
"""

from __future__ import annotations

import hashlib
import marshal
import os

from .safeio import with_checksum, without_checksum

TYPE_CHECKING = False
if TYPE_CHECKING:  # pathlib is not imported at run time: the replay path starts here
    from pathlib import Path

FORMAT = 3  # bump when an entry's layout changes (any change to curator's code drops it too)
# an entry is "racy" unless its mtime is this much older than the moment its bytes were read:
# covers the filesystem clock lagging the wall clock and coarse timestamps (FAT keeps 2 s)
RACY_SLACK_NS = 2_000_000_000

# entry layout (a plain tuple, so marshal stores and loads it in C); facts live in a second
# file, loaded only by a run that computes checks
SIZE, MTIME, INO, CTIME, VERIFIED, HASH, ERROR, FIELDS, TOKENS, TIER, INDEX = range(11)

_code: str | None = None


def code_signature() -> str:
    """Size and mtime of every module of curator: cached parses and results are only reused by
    the code that made them (an upgrade or an edited parser starts a new cache)."""
    global _code
    if _code is None:
        package = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))  # all of curator/
        parts = []
        for folder, dirs, files in os.walk(package):
            dirs[:] = [d for d in dirs if not d.startswith((".", "__"))]
            for name in files:
                if name.endswith(".py"):
                    st = os.stat(os.path.join(folder, name))
                    parts.append(f"{folder}/{name}:{st.st_size}:{st.st_mtime_ns}")
        _code = hashlib.sha256("\n".join(sorted(parts)).encode()).hexdigest()
    return _code


def stat_key(st: os.stat_result) -> tuple[int, int, int, int]:
    return (st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)


def is_fresh(entry: tuple, key: tuple[int, int, int, int]) -> bool | None:
    """True: the stat key matches and the entry is old enough to trust; None: the key matches
    but the entry is racy (verify by content hash); False: the file changed."""
    if entry[SIZE] != key[0] or entry[MTIME] != key[1] or entry[INO] != key[2] or entry[CTIME] != key[3]:
        return False
    if entry[MTIME] >= entry[VERIFIED] - RACY_SLACK_NS:
        return None
    return True


def store_cache_path(real_root: str) -> Path:
    from .locations import cache_dir

    digest = hashlib.sha256(real_root.encode("utf-8", "surrogatepass")).hexdigest()[:24]
    return cache_dir() / "stores" / digest


class StoreCache:
    """The per-store cache: file entries by path, store-wide results by name, facts by path.
    Lives in `folder` (None: in memory only)."""

    def __init__(self, folder: Path | None, root: str) -> None:
        self.folder = folder
        self.root = root  # the store's real path; a cache file naming another root is ignored
        self.entries: dict[str, tuple] = {}
        self.derived: dict[str, tuple] = {}  # name -> (signature, value)
        self._facts: dict[str, tuple] | None = None  # path -> (hash, variant, facts), lazy
        self.seen: set[str] = set()  # paths met by the last walk (the rest is pruned on save)
        self.config = ""  # signature of the config the stored tiers were computed under
        self.dirty = self.facts_dirty = False
        self.hits = self.verified = self.misses = 0
        if folder is not None:
            data = self._read("store.marshal")
            if data is not None and isinstance(data[0], dict) and isinstance(data[1], dict):
                self.entries, self.derived, self.config = data

    def _read(self, name: str):
        if self.folder is None:  # in memory only
            return None
        try:
            with open(self.folder / name, "rb") as fh:
                payload = without_checksum(fh.read())
            if payload is None:  # damaged (one byte is enough) or of an older layout: start empty
                return None
            fmt, root, code, *data = marshal.loads(payload)
            if fmt == FORMAT and root == self.root and code == code_signature():
                return data
        except Exception:  # noqa: BLE001 - missing or damaged: start empty
            pass
        return None

    def _write(self, name: str, data: tuple) -> bool:
        import tempfile

        if self.folder is None:  # in memory only
            return False
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".cache-", suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(with_checksum(marshal.dumps((FORMAT, self.root, code_signature(), *data))))
                os.replace(tmp, self.folder / name)
            except BaseException:
                os.unlink(tmp)
                raise
            return True
        except (OSError, ValueError):
            return False  # read-only cache folder, or a value marshal cannot store

    def begin_walk(self, config_signature: str) -> None:
        """A full load starts: the walk records the paths it meets; stored tiers count only
        under the same config."""
        self.seen = set()
        if config_signature != self.config:
            self.config = config_signature
            self.entries = {p: (*e[:TIER], None, *e[TIER + 1 :]) for p, e in self.entries.items()}
            self.dirty = True

    # -- file entries ------------------------------------------------------

    def lookup(self, rel: str, key: tuple[int, int, int, int]) -> tuple[tuple | None, bool]:
        """(entry, trusted): trusted entries need no read; an untrusted one (racy) is returned
        so the caller can compare its hash with the bytes it reads."""
        self.seen.add(rel)
        entry = self.entries.get(rel)
        if entry is None:
            return None, False
        fresh = is_fresh(entry, key)
        if fresh:
            self.hits += 1
            return entry, True
        return (entry if fresh is None else None), False

    def confirm(self, rel: str, entry: tuple, key: tuple, verified_ns: int) -> tuple:
        """A racy entry whose bytes still hash the same: trust it from now on."""
        self.verified += 1
        new = (*key, verified_ns, *entry[HASH:])
        self.entries[rel] = new
        self.dirty = True
        return new

    def put(self, rel: str, key: tuple, verified_ns: int, content_hash: str, error, fields, tier=None) -> None:
        self.misses += 1
        self.seen.add(rel)
        old = self.entries.get(rel)
        tokens = old[TOKENS] if old is not None and old[HASH] == content_hash else None
        self.entries[rel] = (*key, verified_ns, content_hash, error, fields, tokens, tier, None)
        self.dirty = True

    def drop(self, rel: str) -> None:
        if self.entries.pop(rel, None) is not None:
            self.dirty = True

    def _update(self, rel: str, content_hash: str, slot: int, value) -> None:
        entry = self.entries.get(rel)
        if entry is not None and entry[HASH] == content_hash and entry[slot] != value:
            self.entries[rel] = (*entry[:slot], value, *entry[slot + 1 :])
            self.dirty = True

    def set_tokens(self, rel: str, content_hash: str, encoding: str, n: int) -> None:
        self._update(rel, content_hash, TOKENS, (encoding, n))

    def index(self, rel: str, content_hash: str):
        entry = self.entries.get(rel)
        return entry[INDEX] if entry is not None and entry[HASH] == content_hash else None

    def set_index(self, rel: str, content_hash: str, value) -> None:
        self._update(rel, content_hash, INDEX, value)

    def _facts_map(self) -> dict[str, tuple]:
        if self._facts is None:
            data = self._read("facts.marshal") if self.folder is not None else None
            self._facts = data[0] if data is not None and isinstance(data[0], dict) else {}
        return self._facts

    def facts(self, rel: str, content_hash: str, variant) -> tuple | None:
        hit = self._facts_map().get(rel)
        if hit is not None and hit[0] == content_hash and hit[1] == variant:
            return hit[2]
        return None

    def set_facts(self, rel: str, content_hash: str, variant, value: tuple) -> None:
        self._facts_map()[rel] = (content_hash, variant, value)
        self.facts_dirty = True

    # -- store-wide results ------------------------------------------------------

    def result(self, name: str, signature: str):
        hit = self.derived.get(name)
        return hit[1] if hit is not None and hit[0] == signature else None

    def set_result(self, name: str, signature: str, value) -> None:
        try:
            marshal.dumps(value)
        except ValueError:
            return  # not plain data: not cached
        self.derived[name] = (signature, value)
        self.dirty = True

    # -- saving ----------------------------------------------------------------------

    def end_walk(self) -> None:
        """The walk has met every file: entries of files that are gone are pruned."""
        gone = [p for p in self.entries if p not in self.seen]
        for p in gone:
            del self.entries[p]
        if gone:
            self.dirty = True
        if self._facts is not None or gone:
            facts = self._facts_map()
            stale = [p for p in facts if p not in self.seen]
            for p in stale:
                del facts[p]
            self.facts_dirty = self.facts_dirty or bool(stale)

    def save(self) -> None:
        if self.folder is None:
            return
        if self.dirty and self._write("store.marshal", (self.entries, self.derived, self.config)):
            self.dirty = False
        if self.facts_dirty and self._facts is not None and self._write("facts.marshal", (self._facts,)):
            self.facts_dirty = False


_OPEN: dict[tuple[str, str], StoreCache] = {}


def store_cache(root: Path | str) -> StoreCache:
    """The cache of the store at `root` (one object per store and cache folder per process)."""
    real = os.path.realpath(root)
    path = None if os.environ.get("CURATOR_NO_CACHE") else store_cache_path(real)
    key = (real, str(path))
    cache = _OPEN.get(key)
    if cache is None:
        cache = _OPEN[key] = StoreCache(path, real)
    return cache


def forget_open_caches() -> None:
    """Drop the in-process cache objects (tests; a long-lived process that opened many stores)."""
    _OPEN.clear()


class ContentCache:
    """A dict of plain values (what `marshal` stores: never pickle — a cache restored from
    elsewhere must not run code) in one checksummed file; a damaged file is an empty cache."""

    def __init__(self, path: Path | None, version: int) -> None:
        self.path = path
        self.version = version
        self._data: dict | None = None
        self._dirty = False

    def _load(self) -> dict:
        if self._data is None:
            self._data = {}
            if self.path is not None:
                try:
                    with open(self.path, "rb") as fh:
                        payload = without_checksum(fh.read())
                    version, data = marshal.loads(payload) if payload is not None else (None, None)
                    if version == self.version and isinstance(data, dict):
                        self._data = data
                except Exception:  # noqa: BLE001 - a damaged cache only costs time
                    self._data = {}
        return self._data

    def get(self, key: str, make):
        data = self._load()
        value = data.get(key)
        if value is None:
            value = data[key] = make()
            self._dirty = True
        return value

    def flush(self) -> None:
        if not self._dirty or self.path is None or self._data is None:
            return
        import tempfile

        try:
            data = with_checksum(marshal.dumps((self.version, self._data)))
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".cache-", suffix=".tmp")
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, self.path)
            self._dirty = False
        except (OSError, ValueError):
            pass  # read-only cache folder, or a value marshal cannot store


def user_cache(name: str, version: int) -> ContentCache:
    """A cache file in the user cache folder; in-memory only when counting is estimated."""
    if os.environ.get("CURATOR_TOKENS") == "estimate":
        return ContentCache(None, version)
    from .locations import cache_dir

    return ContentCache(cache_dir() / name, version)


def forget_store(root: Path | str) -> None:
    """Drop a store's cache, on disk and in this process (a scratch copy that is gone)."""
    import shutil

    real = os.path.realpath(root)
    for key in [k for k in _OPEN if k[0] == real]:
        _OPEN.pop(key, None)
    shutil.rmtree(store_cache_path(real), ignore_errors=True)
