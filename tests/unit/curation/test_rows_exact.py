"""Rows are addressed exactly (index, line, the row's own text), and a file changed between plan
and write is planned again instead of refused: the same changes are applied, other changes are
shown and nothing is written."""

from __future__ import annotations

import pytest

import curator.curation as curation
from curator.cli import main
from curator.curation.keywords import AmbiguousRow, RowChanged, RowRef, plan_keywords
from curator.model import load_store

INDEX = "skills-review-index.md"
TWIN = "| pr size lines files reviewers split stacked | [review/review-pr-size](review/review-pr-size.md) |\n"


@pytest.fixture
def twins(sample_copy):
    """The sample store with a second row for review/review-pr-size.md, at line 9."""
    with open(sample_copy / INDEX, "a") as fh:
        fh.write(TWIN)
    return sample_copy


def lines(root):
    return (root / INDEX).read_text().splitlines()


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, " ".join(err.split())


def test_a_target_with_two_rows_is_refused_listing_the_lines(twins, capsys):
    before = (twins / INDEX).read_bytes()
    code, _, err = run(capsys, "keywords", INDEX, "review/review-pr-size.md", "--set", "a", "b", "--store", str(twins))
    assert code == 2 and "lines 6, 9" in err and f"{INDEX}:6" in err
    assert (twins / INDEX).read_bytes() == before


def test_index_colon_line_edits_that_row_only(twins, capsys):
    before = lines(twins)
    code, out, _ = run(capsys, "keywords", f"{INDEX}:9", "--set", "pr", "size", "diff-budget", "--store", str(twins))
    assert code == 0 and "applied" in out
    after = lines(twins)
    assert after[8].startswith("| pr size diff-budget |") and after[5] == before[5]  # line 6 untouched
    assert [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b] == [8]


def test_index_target_still_works_when_the_target_is_unique(sample_copy, capsys):
    code, _, _ = run(capsys, "keywords", INDEX, "review/review-pr-size.md", "--set", "pr", "size", "split",
                     "--store", str(sample_copy))
    assert code == 0 and lines(sample_copy)[5].startswith("| pr size split |")


def test_bad_addresses_are_usage_errors(twins, capsys):
    for argv in (["keywords", INDEX, "--set", "a"], ["keywords", f"{INDEX}:99", "--set", "a"],
                 ["keywords", f"{INDEX}:2x", "--set", "a"], ["keywords", f"{INDEX}:9", "review/x.md", "--set", "a"]):
        code, _, err = run(capsys, *argv, "--store", str(twins))
        assert code == 2 and "Traceback" not in err, argv


def test_a_chosen_row_whose_text_changed_is_refused(twins):
    store = load_store(twins)
    chosen = RowRef(INDEX, 9, store.domain_indexes[INDEX].rows[-1].raw)
    (twins / INDEX).write_text((twins / INDEX).read_text().replace("stacked", "STACKED"))
    with pytest.raises(RowChanged):
        plan_keywords(load_store(twins), INDEX, None, ["a", "b"], row=chosen)
    with pytest.raises(AmbiguousRow):
        plan_keywords(load_store(twins), INDEX, "review/review-pr-size.md", ["a", "b"])


def test_a_chosen_row_that_moved_down_is_still_the_one_edited(twins):
    store = load_store(twins)
    chosen = RowRef(INDEX, 9, store.domain_indexes[INDEX].rows[-1].raw)
    text = (twins / INDEX).read_text().splitlines(keepends=True)
    text.insert(3, "| extra row words here | [review/x](review/x.md) |\n")
    (twins / INDEX).write_text("".join(text))
    plan = plan_keywords(load_store(twins), INDEX, None, ["moved", "row"], row=chosen)
    assert "+| moved row |" in plan.diff() and "stacked" in plan.diff()


def edit_once_before_the_write(monkeypatch, path, change):
    """Someone edits `path` between the plan and the write (the first apply only)."""
    real = curation.apply_plan
    calls = []

    def racing(root, plan):
        if not calls:
            path.write_text(change(path.read_text()))
        calls.append(1)
        return real(root, plan)

    monkeypatch.setattr(curation, "apply_plan", racing)
    return calls


def test_an_edit_elsewhere_in_the_file_is_planned_again_and_applied(twins, capsys, monkeypatch):
    # two words of another row swapped: the same token count, so the L0's (N) is planned the same
    calls = edit_once_before_the_write(monkeypatch, twins / INDEX, lambda t: t.replace("nits blocking", "blocking nits"))
    code, out, err = run(capsys, "keywords", f"{INDEX}:9", "--set", "pr", "size", "budget", "--store", str(twins))
    assert code == 0 and len(calls) == 2, err
    after = lines(twins)
    assert after[8].startswith("| pr size budget |") and "tone blocking nits approve" in after[6]


def test_an_edit_to_the_same_row_shows_the_new_plan_and_writes_nothing(twins, capsys, monkeypatch):
    edit_once_before_the_write(monkeypatch, twins / INDEX, lambda t: t.replace("reviewers split stacked", "reviewers"))
    code, out, err = run(capsys, "keywords", INDEX + ":9", "--set", "pr", "size", "budget", "--store", str(twins))
    edited = (twins / INDEX).read_text()
    assert code == 2 and "changed on disk" in err and "nothing was written" in err
    assert "stacked" not in edited and "budget" not in edited  # their edit kept, ours not applied
