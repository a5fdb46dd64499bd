"""Near-copies (same prose under other headings and link lists) show as one line in retrieval,
count as one in eval, survive the saved index, and never merge memories that only overlap."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from curator.base.tokens import FakeTokenCounter
from curator.cli import main
from curator.model import load_store
from curator.retrieval import RetrievalEngine, load_golden, run_eval
from curator.retrieval.copies import MIN_WORDS, copy_key, groups, prose_words

PROSE = "**Statement**: Parse each review comment independently; same-file comments may address different issues."
# the shape found in a forked tiered store: one skill kept under two names after a rename
OLD = f"# Pr: Independent Comment Parsing\n\n## Skill-PR-002: Independent Comment Parsing\n\n{PROSE}\n\n" \
      "## Related\n\n- [pr-001-enumeration](pr-001-enumeration.md)\n- [pr-308-devops](pr-308-devops.md)\n"
NEW = f"# Skill-PR-002: Independent Comment Parsing\n\n{PROSE}\n\n## Related\n\n- [pr-52-retro](pr-52-retro.md)\n"
FILLER = {
    "notes/deploy-checklist.md": "# Deploy checklist\n\nTag the release, run migrations, watch the dashboards.\n",
    "notes/cache-layout.md": "# Cache layout\n\nKeys are content hashes; entries expire after a week.\n",
    "notes/review-etiquette.md": "# Review etiquette\n\nAsk questions, suggest, never demand; batch small nits "
                                 "in one review comment per file.\n",
    "notes/flaky-tests.md": "# Flaky tests\n\nQuarantine, then fix the clock or the ordering that makes them flaky.\n",
}
STORE = {**FILLER, "pr-review/pr-002-comment-parsing.md": OLD, "pr-review/pr-review-002-comment-parsing.md": NEW}
QUERY = "parse each review comment independently same file"


def engine(root, persist=False):
    return RetrievalEngine(load_store(root, token_counter=FakeTokenCounter()), persist=persist)


def test_prose_drops_headings_and_link_sections_only():
    assert prose_words(OLD) == prose_words(NEW)
    assert "related" not in prose_words(OLD) and "statement" in prose_words(OLD)
    # a section after the link list is prose again
    assert prose_words("## Related\n- [a](a.md)\n## Why\nbecause it is so\n") == ["because", "it", "is", "so"]
    assert copy_key(OLD) == copy_key(NEW) != ""


def test_short_or_different_prose_is_never_a_copy():
    assert copy_key("# A\n\nsee the other one\n") == ""  # fewer than MIN_WORDS words
    one_more = NEW.replace("different issues", "different issues, or the same one")
    assert copy_key(one_more) != copy_key(NEW)
    assert groups(["a", "b", "c"], ["k", "", "j"]) == {}
    assert groups(["a", "b", "c"], ["k", "k", ""]) == {"a": "k", "b": "k"}


@given(st.lists(st.text(alphabet="abcdefgh ", min_size=1, max_size=12), min_size=MIN_WORDS, max_size=20))
def test_headings_and_related_lists_never_change_the_key(lines):
    body = "\n".join(lines)
    words = prose_words(body)
    dressed = f"# Some title\n\n{body}\n\n## See also\n\n- [x](x.md) more words here\n"
    assert prose_words(dressed) == words
    assert copy_key(dressed) == copy_key(body)


def test_search_shows_one_line_for_near_copies_and_names_the_other(make_store):
    eng = engine(make_store(STORE))
    r = eng.search(QUERY, k=5)
    paths = [h.path for h in r.hits]
    pair = {"pr-review/pr-002-comment-parsing.md", "pr-review/pr-review-002-comment-parsing.md"}
    assert len(pair & set(paths)) == 1
    kept = next(h for h in r.hits if h.path in pair)
    assert kept.rank == 1 and kept.copies == tuple(pair - {kept.path})
    dropped = next(iter(pair - {kept.path}))
    assert "near-copy of " + kept.path in eng.why(dropped, QUERY, r)
    # every single source still lists both (the collapse is the fused list's)
    assert pair <= {p for p, _ in r.per_source["bm25"]}


def test_memories_sharing_only_some_words_stay_two_lines(make_store):
    other = NEW.replace(PROSE, "**Statement**: Parse each review comment in order; reply to every one of them.")
    eng = engine(make_store({**FILLER, "a.md": NEW, "b.md": other}))
    hits = eng.search(QUERY, k=5).hits
    assert {"a.md", "b.md"} <= {h.path for h in hits}
    assert all(not h.copies for h in hits)


def test_eval_counts_the_kept_near_copy_as_the_hit(make_store, tmp_path):
    eng = engine(make_store(STORE))
    kept = eng.search(QUERY, k=1).hits[0].path
    other = next(p for p in ("pr-review/pr-002-comment-parsing.md", "pr-review/pr-review-002-comment-parsing.md")
                 if p != kept)
    gold = tmp_path / "g.yaml"
    gold.write_text(json.dumps([{"query": QUERY, "expect": [other]}]), encoding="utf-8")
    report = run_eval(eng, load_golden(gold))
    assert report.scores["fused"].hit1 == 1.0
    assert report.scores["bm25"].hit1 == 1.0  # a source that ranks the other copy first is not wrong either


def test_saved_index_keeps_the_groups_warm_and_after_an_edit(make_store):
    root = make_store(STORE)
    first = engine(root, persist=True)
    second = engine(root, persist=True)
    assert second.index_state == "reused"
    assert second.copy_of == first.copy_of and len(first.copy_of) == 2
    (root / "pr-review/pr-review-002-comment-parsing.md").write_text(
        NEW.replace("different issues", "other issues entirely"), encoding="utf-8")
    third = engine(root, persist=True)
    assert third.index_state == "updated" and third.copy_of == {}


def test_retrieve_prints_the_near_copy_under_the_kept_line(make_store, capsys):
    root = make_store({f".serena/memories/{p}": text for p, text in STORE.items()})
    assert main(["retrieve", QUERY, str(root), "--format", "json"]) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    assert results[0]["copies"] and len(results[0]["copies"]) == 1
    assert all("copies" not in r for r in results[1:])
    assert main(["retrieve", QUERY, str(root)]) == 0
    assert "and 1 copy (the same prose, shown once): " + results[0]["copies"][0] in capsys.readouterr().out
