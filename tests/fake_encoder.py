"""A stand-in for the bundled sentence encoder: each word hashed into a few dimensions, the
vector normalised. Deterministic and instant, so that snapshots and Pilot tests can show the
semantic source (on by default) without the model's timing or its numbers."""

from __future__ import annotations

import re
import zlib

import numpy as np

DIM = 384


class FakeEncoder:
    np = np
    digest = "fake-encoder-1"
    name = "fake"

    def prepare(self, lean: bool = False) -> FakeEncoder:
        return self

    def holding(self):
        """The bundled encoder keeps its reader between one query's reads; nothing to keep here."""
        from contextlib import nullcontext

        return nullcontext(self)

    def encode(self, texts: list[str], progress=None):
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in re.findall(r"[a-z]{3,}", text.lower()):
                out[i, zlib.crc32(word[:5].encode()) % DIM] += 1.0  # the first letters: "deploys" meets "deploy"
            norm = float(np.linalg.norm(out[i]))
            out[i] = out[i] / norm if norm else out[i]
        if progress is not None and texts:
            progress(len(texts), len(texts))
        return out


def use_fake_encoder(monkeypatch) -> None:
    """The semantic source on (the tests' default turns it off) with the fake encoder."""
    from curator.retrieval import semantic

    monkeypatch.delenv("CURATOR_NO_SEMANTIC", raising=False)
    monkeypatch.setattr(semantic, "load_encoder", lambda: (FakeEncoder(), ""))
