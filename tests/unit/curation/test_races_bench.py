"""The external-edit race harness (`python -m curator.bench.races`) in small: whatever the
outcome of a run, no edit the editor made is ever lost, and no run ends in an error."""

from __future__ import annotations

import pytest

from curator.bench.races import OPS, run_once


@pytest.mark.parametrize("op", list(OPS))
def test_no_edit_is_lost_under_heavy_editing(op, monkeypatch):
    monkeypatch.setenv("CURATOR_TOKENS", "estimate")
    monkeypatch.setenv("CURATOR_NO_REPLAY", "1")
    for seed in range(2):
        outcome, lost, _ = run_once(op, seed, gap=0.005)
        assert outcome in ("applied", "replanned", "refused"), outcome
        assert lost == []
