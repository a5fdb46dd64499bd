"""Drift narrowed by kind and text: the same filter for the drift screen (t, /) and
`curator drift --kind --text`."""

from __future__ import annotations

import json

import pytest

from curator.base.tokens import FakeTokenCounter
from curator.cli import main
from curator.live.drift import ALL_KINDS, drift_findings, filter_drift, kind_id, match_kinds
from curator.live.workbench import open_workbench
from curator.model.loader import LoadOptions
from curator.model.sources import discover


def test_a_kind_is_named_by_its_id_its_words_or_part_of_its_id():
    assert kind_id("index row → no file") == "index-row-no-file"
    assert match_kinds("stale-token-count") == ["stale token count"]
    assert match_kinds("MEMORY.md ↔ topic file") == ["MEMORY.md ↔ topic file"]
    assert match_kinds("stale, copies") == ["stale token count", "copies diverged"]
    assert set(match_kinds("index")) >= {"index row → no file", "index row twice"}
    with pytest.raises(ValueError, match="stale-token-count"):  # a wrong kind lists the right ones
        match_kinds("bogus")
    assert len({kind_id(k) for k in ALL_KINDS}) == len(ALL_KINDS)  # every id names one kind


def test_filter_keeps_the_kinds_and_the_words(sample_repo_copy):
    session = open_workbench(discover(sample_repo_copy), LoadOptions(token_counter=FakeTokenCounter()))
    every = drift_findings(session, None)
    kinds = {k for k, _ in every}
    assert len(kinds) >= 3
    one = sorted(kinds)[0]
    only = filter_drift(every, [one])
    assert only and all(k == one for k, _ in only) and len(only) < len(every)
    assert filter_drift(every) == every
    where = every[0][1].where
    hit = filter_drift(every, (), where.upper())  # any case; every word must be somewhere in the row
    assert every[0] in hit and len(hit) < len(every)
    assert filter_drift(every, (), "no-such-word-anywhere") == []


def test_cli_kind_and_text(capsys, sample_repo_copy):
    main(["drift", "--format", "json", str(sample_repo_copy)])
    whole = json.loads(capsys.readouterr().out)
    assert whole["total"] == len(whole["drift"])
    main(["drift", "--format", "json", "--kind", "memory.md", str(sample_repo_copy)])
    some = json.loads(capsys.readouterr().out)
    assert some["total"] == whole["total"] and some["drift"]
    assert {d["kind_id"] for d in some["drift"]} == {"memory.md-topic-file"}
    assert some["drift"] == [d for d in whole["drift"] if d["kind_id"] == "memory.md-topic-file"]
    main(["drift", "--kind", "memory.md", "--text", "MEMORY", str(sample_repo_copy)])
    text = capsys.readouterr().out
    assert f"of {whole['total']} out of step" in text and "kind: memory.md-topic-file" in text
    assert main(["drift", "--kind", "bogus", str(sample_repo_copy)]) == 2
    assert "no kind of drift 'bogus'" in capsys.readouterr().err
