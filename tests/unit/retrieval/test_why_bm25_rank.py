""""Why not this one?" names one BM25 rank: the memory's place in the list the fusion read (BM25's
first memories lifted by their best passage), the rank the results and the fused line show. It
said the whole-memory rank first and the list's after it: on perfice's "in what sequence were
the backend services moved…" rust_port.md was "bm25 #13 of 16" and "(… bm25 #15 …)" at once."""

from __future__ import annotations

import re

from curator.base.tokens import FakeTokenCounter
from curator.model import load_store
from curator.retrieval import RetrievalEngine

QUERIES = ("frontend validation", "schema change froze deploy", "database migration lock", "flaky test retry")


def test_every_why_not_names_the_bm25_rank_the_fusion_read(sample_repo_copy):
    engine = RetrievalEngine(load_store(sample_repo_copy, token_counter=FakeTokenCounter()), semantic=False)
    checked = 0
    for query in QUERIES:
        result = engine.search(query)
        listed = [p for p, _ in result.per_source["bm25"]]
        for doc in engine.docs:
            why = engine.why(doc.path, query, result)
            said = re.search(r"bm25 #(\d+) of \d+", why)
            if said is None or doc.path not in listed:
                continue
            checked += 1
            assert int(said.group(1)) == listed.index(doc.path) + 1, (query, doc.path, why)
            fused = re.search(r"below top-k \(fused rank \d+ with k=\d+; [^)]*?bm25 #(\d+)", why)
            assert fused is None or fused.group(1) == said.group(1), (query, doc.path, why)
    assert checked > 20  # the sample's queries reach most memories through BM25
