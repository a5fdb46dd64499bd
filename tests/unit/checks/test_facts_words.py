"""The words of the near-duplicate fingerprints: the fast split gives exactly the regex's words."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from curator.checks.facts import SAMPLE_MOD, WORD, shingle_prints, words_of


@given(st.text())
def test_words_are_the_regex_matches_of_the_lowercased_text(text):
    assert words_of(text) == WORD.findall(text.lower())


@given(st.lists(st.sampled_from(["Cache", "RETRY", "x1", "İstanbul", "Kelvin \u212a", "naïve", "a_b", "\ud800", "\t\n", "—", "42"])))
def test_words_of_odd_characters(parts):
    text = " ".join(parts)
    assert words_of(text) == WORD.findall(text.lower())


def _reference_prints(words, n, sampled):
    """The fingerprints as first written: every word hashed where it stands."""
    import zlib

    if len(words) < n:
        return {zlib.crc32(" ".join(words).encode())} if words else set()
    keep = range(len(words) - n + 1)
    if sampled:
        keep = [j for j in keep if zlib.crc32(words[j].encode()) % SAMPLE_MOD == 0]
    return {zlib.crc32(" ".join(words[j : j + n]).encode()) for j in keep}


@given(st.lists(st.sampled_from(["cache", "retry", "lock", "a", "b", "x1", "zebra", "naïve", "42", "q"])),
       st.integers(1, 8), st.booleans())
def test_shingle_prints_are_those_of_hashing_every_word_in_place(words, n, sampled):
    assert shingle_prints(words, n, sampled) == _reference_prints(words, n, sampled)
    assert shingle_prints(words, n, sampled) == _reference_prints(words, n, sampled)  # memo warm


def test_the_sampling_memo_stays_bounded(monkeypatch):
    from curator.checks import facts

    monkeypatch.setattr(facts._Sampled, "LIMIT", 3)
    memo = facts._Sampled()
    for w in ["a", "b", "c", "d", "e"]:
        memo[w]  # noqa: B018 - fills the memo
    assert len(memo) <= 3
