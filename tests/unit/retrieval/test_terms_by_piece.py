"""`text.terms` works word by word from whitespace-separated pieces it remembers (issue 32: an
index of 1,000 memories spent most of its build there). The terms must be the very ones the
whole text gives, for any text, and the memory of pieces stays bounded."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from curator.retrieval import text


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=200)
       | st.lists(st.sampled_from(["pnpm-lock", "Cache", "retry_x", "İstanbul", "\u212a", "ΣΑΣ", "the", "-_",
                                   "a-b-c", "v2", "\u2028", "\x1c", "\x85", " ", "\n", "naïve", "e.g.",
                                   "🟢", "go🚀", "⚠️", "✅"]))
       .map("".join))
def test_terms_by_piece_are_the_terms_of_the_whole_text(s):
    assert text.terms(s) == text._terms(s)


def test_the_remembered_pieces_are_bounded(monkeypatch):
    monkeypatch.setattr(text, "_PIECES", {})
    monkeypatch.setattr(text, "_PIECES_MAX", 5)
    got = text.terms(" ".join(f"word{i}" for i in range(12)))
    assert got == [f"word{i}" for i in range(12)] and len(text._PIECES) <= 5
