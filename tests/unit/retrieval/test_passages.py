"""A memory as the passages the model reads (issue 32: the model saw the first 128 word pieces
only): sections cut at headings outside code, packed while they fit, long ones read in
overlapping windows, each with the memory's head; BM25 lifts a memory whose one passage holds
the query; the fusion keeps BM25's first when it holds every word of the query."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from curator.base.tokens import FakeTokenCounter
from curator.model import load_store
from curator.retrieval import RetrievalEngine
from curator.retrieval.fusion import covered_first, fuse
from curator.retrieval.passage_rank import lift
from curator.retrieval.passages import BUDGET, split
from curator.retrieval.wordpiece import shared

WP = shared()


def test_sections_are_cut_at_headings_not_inside_code_and_carry_their_heading_path():
    body = ("Intro line.\n\n## Setup\n\nInstall it.\n\n```bash\n# not a heading\nmake\n```\n\n### Docker\n\n"
            "Build the image.\n\n## Usage\n\nRun it.\n")
    ps = split("notes", body, WP, budget=24)
    headings = [p.heading for p in ps]
    assert headings == ["", "Setup › Docker"]  # a comment in a fence is code, not a heading
    docker = ps[1]
    assert docker.line == 12 and docker.text.startswith("notes Setup › Docker") and "Build the image." in docker.excerpt
    assert "Usage Run it." in docker.text  # the next small section shares its reading, heading and all


def test_small_sections_share_a_passage_and_a_long_one_is_read_in_overlapping_windows():
    small = "\n\n".join(f"## Part {i}\n\nword{i} here." for i in range(4))
    assert len(split("head", small, WP)) == 1  # they fit together in one reading
    words = [f"w{i}" for i in range(400)]
    long = "# Big\n\n" + " ".join(words) + "\n"
    ps = split("head", long, WP)
    assert len(ps) > 3
    assert all(len(WP.encode(p.text, 10_000)) <= BUDGET for p in ps)  # each fits the model
    for a, b in zip(ps, ps[1:], strict=False):  # the next window starts back inside this one
        assert a.text.split()[-1] in b.text.split()
    assert {w for p in ps for w in p.text.split()} >= set(words)  # every word is read


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=2000), st.text(max_size=60))
def test_any_text_gives_passages_that_fit_and_never_raises(body, head):
    ps = split(head, body, WP)
    assert ps and all(len(WP.encode(p.text, 10_000)) <= BUDGET + 2 for p in ps) and all(p.line >= 1 for p in ps)


def test_bm25_lifts_the_long_memory_whose_one_section_answers_over_one_that_mentions_the_words():
    filler = " ".join(f"topic{i} detail{i}" for i in range(300))
    files = {
        "guide.md": f"# Guide\n\n{filler}\n\n## Rotate the signing key\n\nrotate the signing key in the vault\n",
        "mention.md": "# Note\n\nThe vault keeps the signing key safe. The vault is in the basement.\n",
        "other.md": "# Other\n\nNothing about it at all, a note on lunch.\n",
        "more.md": "# More\n\nAnother note on the office plants.\n",
    }
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "store"
        root.mkdir()
        for rel, text in files.items():
            (root / rel).write_text(text)
        eng = RetrievalEngine(load_store(root, token_counter=FakeTokenCounter()), persist=False)
        terms = ["rotat", "sign", "key", "vault"]
        docs = [(eng.docs[i].path, s) for i, s in eng.bm25.top(terms, 10)]
        assert docs[0][0] == "mention.md"  # the whole long memory weighs its words against its length
        lifted, best = lift(docs, eng.rows_for, terms, {t: 1.0 for t in terms})
        assert lifted[0][0] == "guide.md" and "guide.md" in best
        assert eng.rows_for(["guide.md"])["guide.md"][best["guide.md"]][0] == "Guide › Rotate the signing key"


def test_bm25_s_first_holding_every_query_word_stays_first_when_the_fused_first_holds_fewer():
    lists = {"bm25": [("a.md", 1.0), ("b.md", 0.9)], "semantic": [("b.md", 0.9), ("a.md", 0.2)]}
    cover = {"a.md": 1.0, "b.md": 0.5}
    plain = [p for p, _ in fuse(lists, {"semantic": 8.0})]
    assert plain[0] == "b.md"
    assert [p for p, _ in fuse(lists, {"semantic": 8.0, "cover": 1.0}, 0.0, cover)][0] == "a.md"
    assert covered_first(plain, lists, {"a.md": 0.8, "b.md": 0.5}) == plain  # not every word: meaning may lead
    assert covered_first(plain, lists, {"a.md": 1.0, "b.md": 1.0}) == plain  # both hold them all
