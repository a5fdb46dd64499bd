"""What `retrieve` and the lab print as a memory's matched words: the words as typed, once each."""

from __future__ import annotations

from curator.reports.retrieval_report import shown_words, surface_forms


def test_a_pair_made_of_two_typed_words_stays_one_hyphenated_word():
    forms = surface_forms("pr review checklist")
    # the engine searches "pr-review" too (the adjacent pair); shown as typed it would read "pr review"
    assert shown_words(["pr", "pr-review", "review"], forms) == ["pr", "pr-review", "review"]


def test_stems_are_shown_as_typed_and_repeats_once():
    forms = surface_forms("charges charged")
    stems = [t for t, w in forms.items() if w in ("charges", "charged") and t not in ("charges", "charged")]
    assert stems, "the stemmer made a term that differs from the typed word"
    shown = shown_words([stems[0], stems[0]], forms)
    assert len(shown) == 1 and shown[0] in ("charges", "charged")


def test_a_compound_and_its_parts_each_read_as_themselves():
    # "rd-bot" searches rd-bot, rd and bot: `why` said "rd-bot×22, rd-bot×9, rd-bot×6"
    forms = surface_forms("rd-bot headless bots")
    assert [forms[t] for t in ("rd-bot", "rd", "bot")] == ["rd-bot", "rd", "bot"]
    assert shown_words(["rd-bot", "rd", "bot", "headless"], forms) == ["rd-bot", "rd", "bot", "headless"]
