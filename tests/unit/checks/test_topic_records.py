"""duplicate.topic's second stage (issue 32): memories alike in meaning that their names make two
records (two days' records, two incidents of an experience log, two numbered items of a series)
are not reported; copies, consolidations and renumbered restatements still are."""

from __future__ import annotations

import numpy as np
import pytest

from curator.base.tokens import FakeTokenCounter
from curator.checks import run_checks
from curator.checks.facts import default_cache
from curator.checks.topic_records import distinct_records
from curator.model import load_store


def body(tag: str) -> str:
    return " ".join(f"{tag}{i}" for i in range(40))  # no shared text: never a textual near-duplicate


def vectors(records, paths: list[str]):
    """Every memory in `paths` alike in meaning (cosine > 0.99), every other one apart."""
    m = np.array([[1.0, 0.01 * k, 0.0] if r.path in paths else [0.0, 0.1 * k, 1.0]
                  for k, r in enumerate(records)], dtype=np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def topic_findings(make_store, monkeypatch, names: list[str], name: str = "store", folder: str = ""):
    """duplicate.topic's findings on a store of `names` (the first two alike) and one apart."""
    files = {f"{folder}{n}.md": f"# {n}\n\n{body(chr(97 + k))}\n" for k, n in enumerate([*names, "billing"])}
    root = make_store(files, name=name)
    pair = list(files)[:2]
    store = load_store(root, token_counter=FakeTokenCounter(),
                       meaning=lambda: lambda store, records: vectors(records, pair))
    return sorted((f.target, f.path) for f in run_checks(store, facts_cache=default_cache())
                  if f.check == "duplicate.topic"), store


SAME = [  # one memory told twice: merging loses nothing, the finding stays
    ("caching-004-layered-strategy-90", "caching-layered-strategy"),  # a numbered atom and its consolidation
    ("gates-001-verificationbased-checks", "gates-002-verification-based-check-effectiveness"),  # renumbered
    ("search_tuning_20250301", "search_tuning_notes_20250301"),  # one day's work written twice
    ("viewer_fixes_20250301", "viewer_ui_fixes_20250302"),  # fixes of one thing on two days: one name in the other
    ("onboarding_guide", "onboarding_overview_20250301"),  # one side undated
    ("api-007-retries", "api-retries-backoff"),
]
APART = [  # same area, different facts: two records by their names
    ("lint-004-matcher-all-files", "lint-005-matcher-all-patterns"),  # two numbered rules of one series
    ("lint-001-negation-selection", "lint-006-negation-isolation"),
    ("upload_queue_backend_complete_20250301", "upload_queue_ui_complete_20250302"),  # two days' work
    ("session-2025-03-01-cache-warmup", "session-2025-03-04-cache-eviction"),
]


@pytest.mark.parametrize(("a", "b"), SAME)
def test_a_restatement_stays_a_finding(make_store, monkeypatch, a, b):
    found, store = topic_findings(make_store, monkeypatch, [a, b])
    assert found == [(f"{a}.md", f"{b}.md")] or found == [(f"{b}.md", f"{a}.md")]
    assert distinct_records(store.records[f"{a}.md"], store.records[f"{b}.md"]) is None


@pytest.mark.parametrize(("a", "b"), APART)
def test_two_records_by_their_names_are_not_a_finding(make_store, monkeypatch, a, b):
    found, store = topic_findings(make_store, monkeypatch, [a, b])
    assert found == []
    assert distinct_records(store.records[f"{a}.md"], store.records[f"{b}.md"]) in {"series", "days"}


def test_two_entries_of_an_experience_log_are_two_incidents(make_store, monkeypatch):
    """Each entry of an experience log is one incident: two of the same day are two; a memory
    store's two records of one day stay comparable (test above)."""
    names = ["2026-01-05-user-correction-skill-scope", "2026-01-05-user-correction-no-wrapper"]
    found, store = topic_findings(make_store, monkeypatch, names, name="docs", folder="error-experience/entries/")
    assert store.format == "experience"
    assert found == []
    a, b = (store.records[f"error-experience/entries/{n}.md"] for n in names)
    assert distinct_records(a, b) == "incidents"


def test_one_incident_written_twice_in_an_experience_log_stays_a_finding(make_store, monkeypatch):
    names = ["2026-01-05-flaky-ci", "2026-01-05-flaky-ci-retry"]
    found, _ = topic_findings(make_store, monkeypatch, names, name="docs", folder="error-experience/entries/")
    assert len(found) == 1


def test_a_series_needs_its_prefix_and_numbers_that_differ(make_store, monkeypatch):
    """Two numbers of different series, or one number twice, say nothing of the records."""
    found, _ = topic_findings(make_store, monkeypatch, ["lint-004-all-files", "style-005-all-patterns"])
    assert len(found) == 1
    found, _ = topic_findings(make_store, monkeypatch, ["scope-002-limit-two", "scope-002-multi-limit"], name="again")
    assert len(found) == 1


def test_a_recheck_drops_the_same_pairs_as_a_full_run(make_store, monkeypatch):
    """The re-check (TopicIndex) reports through the same second stage."""
    from curator.live.workspace import open_workspace
    from curator.model.loader import LoadOptions

    names = ["lint-004-matcher-all-files", "lint-005-matcher-all-patterns", "caching-004-layered", "caching-layered"]
    files = {f"{n}.md": f"# {n}\n\n{body(chr(97 + k))}\n" for k, n in enumerate(names)}
    root = make_store(files)

    class Space:  # what the static vectors hand the index: a matrix and a way to place one memory
        def __init__(self, store, records):
            self.matrix = np.array([[1.0, 0.0, 0.0] if "lint" in r.path else [0.0, 0.0, 1.0] for r in records],
                                   dtype=np.float32)
            self.table = type("T", (), {"np": np})()

        def vector(self, text):
            return np.array([1.0, 0.0, 0.0], dtype=np.float32)  # the edited lint rule: still alike

        def vector_of(self, rec):
            return self.vector(rec.body())

    ws = open_workspace(root, LoadOptions(token_counter=FakeTokenCounter(), meaning=lambda: Space))
    full = sorted((f.target, f.path) for f in ws.findings if f.check == "duplicate.topic")
    assert full == [("caching-004-layered.md", "caching-layered.md")]
    (root / "lint-005-matcher-all-patterns.md").write_text("# lint 5\n\n" + body("z") + "\n")
    again = ws.recheck(["lint-005-matcher-all-patterns.md"])
    assert again._topics is not None  # compared through the index, the edited memory against the rest
    assert sorted((f.target, f.path) for f in again.findings if f.check == "duplicate.topic") == full
