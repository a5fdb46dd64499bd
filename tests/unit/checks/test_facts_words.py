"""The words of the near-duplicate fingerprints: the fast split gives exactly the regex's words."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from curator.checks.facts import WORD, words_of


@given(st.text())
def test_words_are_the_regex_matches_of_the_lowercased_text(text):
    assert words_of(text) == WORD.findall(text.lower())


@given(st.lists(st.sampled_from(["Cache", "RETRY", "x1", "İstanbul", "Kelvin \u212a", "naïve", "a_b", "\ud800", "\t\n", "—", "42"])))
def test_words_of_odd_characters(parts):
    text = " ".join(parts)
    assert words_of(text) == WORD.findall(text.lower())
