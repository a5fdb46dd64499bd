"""Pictographs read as their names (`text.symbol_words`): a memory that marks its rows 🟢/🟡/🔴 is
found by a query about the green, yellow and red circles (airline-manager's golden query, which
neither BM25 nor the model could answer: the model's vocabulary reads every emoji as [UNK])."""

from __future__ import annotations

from curator.base.tokens import FakeTokenCounter
from curator.model import load_store
from curator.retrieval import RetrievalEngine
from curator.retrieval.text import symbol_words, terms


def test_coloured_marks_are_their_colour_and_shape():
    assert symbol_words("🟢") == ["green", "circle"]
    assert symbol_words("⭐") == ["star"]  # WHITE MEDIUM STAR: white is the outline, medium the size
    assert symbol_words("⚪") == ["white", "circle"]  # MEDIUM WHITE CIRCLE: here white is the colour
    assert "rocket" in terms("🚀 shipped") and "ship" in terms("🚀 shipped")


def test_ticks_crosses_box_drawing_and_arrows_add_nothing():
    # ✅/❌ mark done and not done on most rows of a status memory: "check" would match them all
    for mark in "✅✔✓☑❌✗✘─│┌→•":
        assert symbol_words(mark) == [], mark
    assert terms("✅ done ❌ blocked ─── │") == terms("done blocked")


def test_plain_ascii_text_is_unchanged():
    assert symbol_words("green circle :) <- ->") == []


def test_a_query_about_the_colours_finds_the_memory_that_uses_them(make_store):
    root = make_store({
        ".serena/memories/testing_guide.md": "# Testing\n\nRecommendations:\n- 🟢 Buy\n- 🟡 Wait\n- 🔴 Emergency\n",
        ".serena/memories/fleet.md": "# Fleet\n\nThe logs print departures as a share of the fleet size.\n",
        ".serena/memories/colours.md": "# Theme\n\nThe dashboard theme uses a dark palette.\n",
    })
    engine = RetrievalEngine(load_store(root, token_counter=FakeTokenCounter()), semantic=False)
    hits = engine.search("what do the green, yellow and red circle symbols in the logs mean", source="bm25").hits
    assert hits[0].path.endswith("testing_guide.md")  # without the names: fleet.md, on "logs"
