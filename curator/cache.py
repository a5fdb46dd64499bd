"""Small persistent caches keyed by content hash, in the user cache folder.

A file that has not changed has the same token count, the same per-file check facts and the
same retrieval terms; warm runs read those back instead of recomputing them. A missing, damaged
or unwritable cache only costs time.
"""

from __future__ import annotations

import os
import pickle
import tempfile
from pathlib import Path


class ContentCache:
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
                        version, data = pickle.load(fh)  # our own file in the user cache folder
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
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".cache-", suffix=".tmp")
            with os.fdopen(fd, "wb") as fh:
                pickle.dump((self.version, self._data), fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, self.path)
            self._dirty = False
        except OSError:
            pass


def user_cache(name: str, version: int) -> ContentCache:
    """A cache file in the user cache folder; in-memory only when counting is estimated."""
    if os.environ.get("CURATOR_TOKENS") == "estimate":
        return ContentCache(None, version)
    from .locations import cache_dir

    return ContentCache(cache_dir() / name, version)
