"""The retrieval lab shows, per source, the numbers `curator eval` prints for the store's golden
queries — and nothing when the store has none."""

from __future__ import annotations

import json
import time

from textual.widgets import Static

from curator.base.tokens import FakeTokenCounter
from curator.cli import main
from curator.tui.app import make_app
from curator.tui.screens import RetrievalLabScreen


async def _lab(app, pilot) -> RetrievalLabScreen:
    await app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.press("4")
    end = time.monotonic() + 15
    while not (isinstance(app.screen, RetrievalLabScreen) and app.screen.engine is not None):
        assert time.monotonic() < end, "the lab's engine never came"
        await pilot.pause(0.05)
        await app.workers.wait_for_complete()
    await pilot.pause()
    return app.screen


def _title(screen, ident: str) -> str:
    return str(screen.query_one(ident, Static).render())


async def test_lab_titles_carry_evals_per_source_numbers(sample_copy, capsys):
    assert main(["eval", str(sample_copy), "--format", "json"]) == 0
    scores = json.loads(capsys.readouterr().out)["scores"]
    app = make_app(sample_copy, given="sample_memories", token_counter=FakeTokenCounter(), theme="curator-dark")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _lab(app, pilot)
        assert screen.golden is not None
        for source in ("route", "bm25", "prior"):
            s = scores[source]
            assert f"{s['hit@1']:.2f}/{s['hit@5']:.2f}/{s['mrr@10']:.2f}" in _title(screen, f"#src-{source}-title")
        f = scores["fused"]
        assert f"golden {f['hit@1']:.2f}/{f['hit@5']:.2f}/{f['mrr@10']:.2f}" in _title(screen, "#lab-fused-title")


async def test_lab_without_golden_queries_shows_weights_only(sample_copy):
    (sample_copy / "golden-queries.yaml").unlink()
    app = make_app(sample_copy, given="sample_memories", token_counter=FakeTokenCounter(), theme="curator-dark")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _lab(app, pilot)
        assert screen.golden is None
        assert _title(screen, "#src-bm25-title") == "bm25 · weight 1"
        assert "golden" not in _title(screen, "#lab-fused-title")


async def test_lab_with_a_broken_golden_file_still_opens(sample_copy):
    (sample_copy / "golden-queries.yaml").write_text("queries: [ {query: 'x'\n")
    app = make_app(sample_copy, given="sample_memories", token_counter=FakeTokenCounter(), theme="curator-dark")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _lab(app, pilot)
        assert screen.golden is None and "golden" not in _title(screen, "#lab-fused-title")
