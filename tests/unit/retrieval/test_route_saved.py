"""The route's keyword counts and form tables saved with the retrieval index: a warm engine reads
them instead of rebuilding, they round-trip exactly, and a damaged, stale or hostile saved table
is built again — never trusted because it parses."""

from __future__ import annotations

import marshal
from collections import Counter

import pytest

from curator.base.safeio import with_checksum, without_checksum
from curator.base.tokens import FakeTokenCounter
from curator.model import load_store
from curator.retrieval import RetrievalEngine, persist, route
from curator.retrieval.persist import _doc_terms_bytes
from tests.unit.retrieval.test_retrieval import store_files

QUERIES = ("interactive rebase", "postgre pool", "worktre hotfix", "database branch", "stash")


def engine(root, persist_index=True) -> RetrievalEngine:
    return RetrievalEngine(load_store(root, token_counter=FakeTokenCounter()), persist=persist_index)


def routed(eng) -> list:
    out = []
    for q in QUERIES:
        r = eng.search(q, source="route")
        out.append([(h.path, h.sources["route"].score, h.sources["route"].matched) for h in r.hits])
        out.append([(s.path, s.why) for s in r.route_steps])
    return out


@pytest.fixture
def root(make_store):
    return make_store(store_files())


def test_counts_and_tables_round_trip_exactly(root):
    built = engine(root)
    saved = persist.load(root)
    kindex = built.keywords
    assert saved.route_df == Counter(kw for kws in kindex.row_keywords for kw in kws)
    assert saved.route_tables == len(kindex.rows_of) == 2
    for n, index in enumerate(kindex.rows_of):
        assert saved.route_table(n) == kindex.table(index)
        assert list(saved.route_table(n)) == list(kindex.table(index))  # the fuzzy candidates' order too


def test_a_warm_engine_reads_the_saved_tables_and_ranks_alike(root, monkeypatch):
    fresh = routed(engine(root, persist_index=False))
    engine(root)
    warm = engine(root)
    assert warm.index_state == "reused"

    def no_build(_kw):
        raise AssertionError("a warm engine built a form table")

    monkeypatch.setattr(route, "keyword_forms", no_build)
    monkeypatch.setattr(route, "Counter", no_build)  # the saved keyword counts, not counted again
    assert routed(warm) == fresh


def _rewrite(root, mutate_meta=None, tables=None) -> None:
    folder = persist.folder_for(root)
    meta = marshal.loads(without_checksum((folder / "index.marshal").read_bytes()))
    if mutate_meta is not None:
        mutate_meta(meta)
    if tables is not None:  # well-formed, correctly checksummed, but lying
        (folder / f"routes-{meta['gen']}.bin").write_bytes(_doc_terms_bytes(tables))
        meta["route_tables"] = len(tables)
    (folder / "index.marshal").write_bytes(with_checksum(marshal.dumps(meta)))


def _hostile_tables(root) -> list:
    good = [persist.load(root).route_table(n) for n in range(2)]
    other_index_row = next(i for entries in good[1].values() for i, _, _ in entries)
    return [
        {"rebase": [(other_index_row, "rebase", True)]},  # a row of another index
        {"autosquash": [(0, "not-a-keyword-of-the-row", True)]},
    ]


@pytest.mark.parametrize("case", [
    "hostile tables", "wrong types", "damaged byte", "missing file", "counts off", "counts lack a keyword",
    "counts not ints", "count too large",
])
def test_a_bad_saved_route_is_built_again(root, case):
    fresh = routed(engine(root, persist_index=False))
    engine(root)
    folder = persist.folder_for(root)
    gen = persist.load(root).gen
    routes = folder / f"routes-{gen}.bin"
    if case == "hostile tables":
        _rewrite(root, tables=_hostile_tables(root))
    elif case == "wrong types":
        _rewrite(root, tables=[["rebase"], {"x": [(0, "rebase", 1)]}])
    elif case == "damaged byte":
        data = bytearray(routes.read_bytes())
        data[-3] ^= 0xFF
        routes.write_bytes(bytes(data))
    elif case == "missing file":
        routes.unlink()
    elif case == "counts off":
        _rewrite(root, lambda m: m["route_df"].update(rebase=m["route_df"]["rebase"] + 5))
    elif case == "counts lack a keyword":  # the sum still fits: only the lookup can tell
        def drop(m):
            df = m["route_df"]
            df["no-row-has-this"] = df.pop("rebase")
        _rewrite(root, drop)
    elif case == "counts not ints":
        _rewrite(root, lambda m: m.update(route_df={k: float(v) for k, v in m["route_df"].items()}))
    elif case == "count too large":
        _rewrite(root, lambda m: m.update(route_tables=10**9))
    warm = engine(root)
    assert warm.index_state == "reused"
    assert routed(warm) == fresh


def test_an_older_index_version_is_rebuilt_not_read(root):
    engine(root)
    _rewrite(root, lambda m: m.update(v=persist.VERSION - 1))
    assert engine(root).index_state == "built"
