"""A cached scan comes back whole: what the session loaded and its listings too (the proof reads
them from the cache on every warm run)."""

from __future__ import annotations

import marshal

from curator.transcripts.index import _decode, _encode
from curator.transcripts.reader import LineStats, ScanState, SessionScan
from curator.transcripts.records import Listing, Load


def test_a_cache_entry_round_trips_with_loads_and_listings():
    scan = SessionScan("/p/s.jsonl", 10, 1.5, "sid", "/w/r", started="2026-11-01T10:00:00Z",
                       stats=LineStats(),
                       loads=[Load("startup", "/w/r/CLAUDE.md", "Project", sha="ab", chars=3, version="2.1.290")],
                       listings=[Listing(["a", "b"], [10, 0], 40, True, 2, "t", "u", "2.1.290")])
    state = ScanState({"x"}, 2, b"tail")
    size, mtime, back, st = _decode(marshal.loads(marshal.dumps(_encode(10, 1.5, scan, state))))
    assert (size, mtime) == (10, 1.5) and back == scan and st.seen == {"x"} and st.tail == b"tail"
    assert back.loads[0].path == "/w/r/CLAUDE.md" and back.listings[0].described == [10, 0]


def test_an_entry_of_the_older_shape_is_a_miss():
    scan = SessionScan("/p/s.jsonl", 10, 1.5)
    value = _encode(10, 1.5, scan, ScanState(set(), 0, b""))
    old = (value[0], value[1], value[2][:-2], value[3])  # before loads and listings were kept
    assert _decode(old) is None
