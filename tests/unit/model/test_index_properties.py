"""Property tests: index parsers never raise, and parse → write → parse is stable."""

from __future__ import annotations

import operator
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from curator.model.indexes import (
    IndexLink,
    format_l0_row,
    parse_domain_index,
    parse_l0,
)
from tests.index_text import format_domain_index

# the languages of KEYWORD and SEGMENT, built from characters (`from_regex` costs ~50x the parse)
KEYWORD = r"[a-z]([a-z0-9_.-]{0,10}[a-z0-9])?"
SEGMENT = r"[a-z0-9][a-z0-9-]{0,10}"
LOWER, DIGITS = "abcdefghijklmnopqrstuvwxyz", "0123456789"
keyword = st.builds(operator.add, st.sampled_from(LOWER), st.just("") | st.builds(
    operator.add, st.text(LOWER + DIGITS + "_.-", max_size=10), st.sampled_from(LOWER + DIGITS)))
segment = st.builds(operator.add, st.sampled_from(LOWER + DIGITS), st.text(LOWER + DIGITS + "-", max_size=10))
target = st.builds(lambda d, n: f"{d}/{n}.md", segment, segment)
keywords = st.lists(keyword, min_size=1, max_size=15)


@settings(max_examples=150, deadline=None)
@given(keyword, segment)
def test_the_strategies_draw_the_languages_they_name(kw, seg):
    assert re.fullmatch(KEYWORD, kw) and re.fullmatch(SEGMENT, seg)


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=400))
def test_parsers_never_raise_on_any_text(text):
    parse_l0("memory-index.md", text)
    parse_domain_index("skills-x-index.md", text)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(keywords, target), min_size=1, max_size=12))
def test_domain_index_round_trip(rows):
    first = parse_domain_index("x-index.md", format_domain_index(rows))
    assert [(r.keywords, r.links[0].target) for r in first.rows] == [(k, t) for k, t in rows]
    again = parse_domain_index("x-index.md", format_domain_index([(r.keywords, r.links[0].target) for r in first.rows]))
    assert [(r.keywords, r.links[0].target) for r in again.rows] == [(r.keywords, r.links[0].target) for r in first.rows]
    assert first.extras == [] and first.anomalies == []


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(keywords, st.lists(st.tuples(target, st.none() | st.integers(0, 99_999)), min_size=1, max_size=4)),
        min_size=1,
        max_size=10,
    )
)
def test_l0_evolved_row_round_trip(rows):
    text = "[Section]\n" + "".join(
        format_l0_row(kws, [IndexLink(t.rsplit("/", 1)[-1][:-3], t, t, n) for t, n in links]) + "\n"
        for kws, links in rows
    )
    parsed = parse_l0("memory-index.md", text)
    assert parsed.anomalies == []
    assert [(r.keywords, [(lk.target, lk.count) for lk in r.links]) for r in parsed.rows] == [
        (kws, list(links)) for kws, links in rows
    ]
