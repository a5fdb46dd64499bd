"""Make the static word-piece vectors (`retrieval/data/minilm-static-*.npy`) from the bundled model.

    python -m curator.bench.distill_static [--out DIR] [--pieces N]

Model2Vec's recipe, no data needed: every word piece of the vocabulary is run through the pinned
all-MiniLM-L6-v2 alone (`[SEP] piece [CLS]`, the order Model2Vec found better, mean of the three
outputs), the 30,522 × 384 result is reduced by PCA to 256 dimensions (signs fixed so the run is
reproducible), each row is weighted by SIF (1e-4) over a Zipf estimate of its frequency from its
rank in the vocabulary, and stored as int8 with one float scale per row (7.8 MB + 120 KB). A text's
vector is then a weighted sum of rows — no model run (retrieval/static.py). The files' sha256 are
pinned in retrieval/static.py; this script prints them.
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path

DIM = 256
SIF = 1e-4  # Model2Vec's default coefficient
BATCH = 1024


def token_outputs(encoder, pieces: int = 0):
    """Each word piece's output alone: (vocabulary size, 384) float64 (the first `pieces` only,
    when given: a smoke run)."""
    import numpy as np

    wp = encoder.tokenizer
    n = min(len(wp.vocab), pieces) if pieces else len(wp.vocab)
    session = encoder.session
    out = np.zeros((n, 384), dtype=np.float64)
    for start in range(0, n, BATCH):
        ids = np.arange(start, min(n, start + BATCH))
        x = np.stack([np.full(len(ids), wp.sep), ids, np.full(len(ids), wp.cls)], 1).astype(np.int64)
        feed = {"input_ids": x, "attention_mask": np.ones_like(x), "token_type_ids": np.zeros_like(x)}
        hidden = session.run(None, {k: v for k, v in feed.items() if k in encoder.inputs})[0]
        out[start:start + len(ids)] = hidden.mean(1)
    return out


def reduce(raw, dim: int = DIM, sif: float = SIF):
    """PCA to `dim` (each component's sign fixed: its largest coordinate positive), SIF weights."""
    import numpy as np

    centred = raw - raw.mean(0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    comps = vt[:dim]
    comps *= np.sign(comps[np.arange(dim), np.abs(comps).argmax(1)])[:, None]
    reduced = centred @ comps.T
    inv_rank = 1.0 / np.arange(2, len(reduced) + 2)
    proba = inv_rank / inv_rank.sum()
    return reduced * (sif / (sif + proba))[:, None]


def quantise(table):
    """(int8 rows, float32 scale per row): row ≈ int8 × scale."""
    import numpy as np

    scale = np.abs(table).max(1) / 127.0
    scale[scale == 0] = 1.0
    return np.round(table / scale[:, None]).astype(np.int8), scale.astype(np.float32)


def main(argv: list[str] | None = None) -> int:
    import numpy as np

    from ..retrieval.semantic import load_encoder
    from ..retrieval.static import DATA, FILES

    ap = argparse.ArgumentParser(prog="python -m curator.bench.distill_static", description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DATA)
    ap.add_argument("--pieces", type=int, default=0, help=f"only the first N word pieces (N > {DIM}: a smoke run)")
    args = ap.parse_args(argv)
    encoder, why = load_encoder()
    if encoder is None:
        raise SystemExit(f"the bundled model is not available: {why}")
    rows, scale = quantise(reduce(token_outputs(encoder, args.pieces)))
    args.out.mkdir(parents=True, exist_ok=True)
    for name, array in zip(FILES, (rows, scale), strict=True):
        path = args.out / name
        with open(path, "wb") as fh:
            np.save(fh, array)
        print(f"{path}  sha256 {hashlib.sha256(path.read_bytes()).hexdigest()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
