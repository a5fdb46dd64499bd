"""The lab shows every running source's rank for each result, in columns that fit at 80, the
highlighted result's own reasons, the same numbers as `curator retrieve`, and the first
embedding's progress."""

from __future__ import annotations

import json
import threading

from textual.widgets import Static

from curator.base.tokens import default_counter
from curator.cli import main
from curator.retrieval import RetrievalEngine
from curator.tui.app import make_app
from curator.tui.screens import retrieval_lab
from tests.fake_encoder import FakeEncoder, use_fake_encoder
from tests.pilot.conftest import settle, step_named, text_of, wait_until

QUERY = "schema change froze deploy"


async def _search(app, pilot, query: str = QUERY, semantic: bool = True):
    await settle(app, pilot)
    await pilot.press("4")
    screen = app.screen
    await wait_until(pilot, lambda: screen.engine is not None and (not semantic or screen.engine.semantic is not None))
    await pilot.press(*query)
    await wait_until(pilot, lambda: screen.result is not None and screen.result.query == query)
    await settle(app, pilot)
    return screen


def _labels(table) -> list[str]:
    return [c.label.plain.strip() for c in table.columns.values()]


async def test_every_source_has_a_column_that_fits_and_agrees_with_the_cli(sample_copy, monkeypatch, capsys):
    use_fake_encoder(monkeypatch)
    assert main(["retrieve", QUERY, str(sample_copy), "--format", "json"]) == 0
    cli = json.loads(capsys.readouterr().out)["results"]
    # the CLI's token counter (the other lab tests count one token a word)
    app = make_app(sample_copy, given="sample_memories", theme="curator-dark", token_counter=default_counter())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _search(app, pilot)
        table = screen.query_one("#fused")
        assert _labels(table) == ["#", "memory", "tokens", "rte", "bm25", "pri", "sem"]  # short: 80 columns
        assert sum(c.get_render_width(table) for c in table.columns.values()) <= screen.query_one("#lab-fused").size.width
        assert [r.value for r in table.rows] == [r["path"] for r in cli]  # the same results, in the same order
        for row, want in zip(table.rows, cli, strict=True):
            cells = [str(c).strip() for c in table.get_row(row)]
            ranks = [str(want["sources"][s]["rank"] or "—") for s in ("route", "bm25", "prior", "semantic")]
            assert cells[0] == str(want["rank"]) and cells[2] == f"{want['tokens']:,}" and cells[3:] == ranks
        reason = text_of(screen.query_one("#lab-reason", Static)).splitlines()
        assert reason[0].startswith("#1 ") and reason[1].startswith(f"score {cli[0]['score']:.4f} · route ")
        await pilot.resize_terminal(140, 40)  # room: the full names
        await settle(app, pilot)
        await pilot.press("escape", "slash", "end", "space", "backspace")
        await wait_until(pilot, lambda: _labels(table)[3:] == ["route", "bm25", "prior", "semantic"],
                         seen=lambda: f"labels {_labels(table)}, query {screen.query_one('#lab-query').value!r}, "
                                      f"shown {screen._searched!r}, room {screen.query_one('#lab-fused').size.width}, "
                                      f"semantic {screen.engine.semantic is not None}, "
                                      f"title {text_of(screen.query_one('#lab-fused-title', Static))!r}")
        assert screen.query_one("#src-semantic-list").display and not screen.query_one("#src-graph-list").display


async def test_without_meaning_there_is_no_semantic_column_and_a_superseded_search_stops(app):
    """Two checks on one launch (a launch is ~1 s of CPU): no semantic column without meaning, then
    a search worker whose words changed stops reading."""
    async with app.run_test(size=(80, 24)) as pilot:  # CURATOR_NO_SEMANTIC=1: the tests' default
        with step_named("no semantic column"):
            screen = await _search(app, pilot, semantic=False)
            assert _labels(screen.query_one("#fused")) == ["#", "memory", "tokens", "rte", "bm25", "pri"]
            assert not screen.query_one("#src-semantic-list").display
            assert "semantic" not in text_of(screen.query_one("#lab-reason", Static))
        with step_named("no words, no results"):
            assert screen.query_one("#fused").row_count > 0
            await pilot.press("slash", "ctrl+u")  # the box emptied: the last words' results go with them
            await settle(app, pilot)
            assert screen.result is None and screen.query_one("#fused").row_count == 0
            assert all(t.row_count == 0 for t in screen.query(".lab-source RowTable"))
            assert "loadable memories" in text_of(screen.query_one("#lab-fused-title", Static))
            assert not text_of(screen.query_one("#lab-reason", Static)).strip()
            assert not text_of(screen.query_one("#trace", Static)).strip()
        with step_named("a superseded search stops"):
            await _a_search_whose_words_changed_stops_reading(app, pilot)


async def test_each_highlighted_result_explains_itself_and_new_words_rank_by_words_first(app, monkeypatch):
    use_fake_encoder(monkeypatch)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _search(app, pilot)
        await pilot.press("escape")  # to the results
        seen = []
        for h in screen.result.hits:
            text = text_of(screen.query_one("#lab-reason", Static))
            first = text.splitlines()[0]  # the path, cut in the middle to stay on its line
            assert first.startswith(f"#{h.rank} {h.path[:8]}") and first.endswith(h.path[-12:]), text
            seen.append(text.split("\n", 2)[-1])
            await pilot.press("down")
            await settle(app, pilot)
        assert len(set(seen)) == len(seen)  # five results, five different reasons
        assert screen.query_one("#lab-reason").region.bottom <= 23  # above the footer at 80×24

        # new words show their words' ranking while the model reads, then meaning's (one launch)
        await pilot.press("slash")
        monkeypatch.setattr(retrieval_lab, "DEBOUNCE", 30.0)  # searched on Enter only: no prefix reads ahead
        shown = []
        real = screen._show_result
        monkeypatch.setattr(screen, "_show_result", lambda result, *rest: (shown.append(result), real(result, *rest)))
        # words whose passages the model has not read yet (the store's golden queries were read)
        new = next(q for q in ("zebra migration lunch", "quarantine the flaky suite", "rotate the webhook secret",
                               "keyword index collision") if screen.engine.unread(q) > 0)
        await pilot.press("ctrl+u", *new, "enter")  # (Enter: the results take the focus)
        await wait_until(pilot, lambda: shown and "semantic" in shown[-1].per_source)
        mine = [r for r in shown if r.query == new]
        assert ["semantic" in r.per_source for r in mine] == [False, True]  # the words' ranking first, then meaning's
        words = RetrievalEngine(screen.engine.store, semantic=False).search(new)  # an engine without meaning
        assert [h.path for h in mine[0].hits] == [h.path for h in words.hits]
        assert _labels(screen.query_one("#fused"))[-1] == "sem" and screen.engine.unread(new) == 0
        shown.clear()
        await pilot.press("slash", "enter")  # the same words again: everything read, meaning's ranking at once
        await wait_until(pilot, lambda: shown)
        assert ["semantic" in r.per_source for r in shown] == [True]


async def test_the_first_embedding_shows_its_progress_while_words_answer(app, monkeypatch):
    release = threading.Event()

    class Slow(FakeEncoder):
        def encode(self, texts, progress=None):
            if progress is not None and len(texts) > 1:  # the memories, not a query
                progress(1, len(texts))
                release.wait(10)
            return super().encode(texts, progress)

    use_fake_encoder(monkeypatch)
    from curator.retrieval import semantic

    monkeypatch.setattr(semantic, "load_encoder", lambda: (Slow(), ""))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("4")
        screen = app.screen
        title = screen.query_one("#lab-fused-title", Static)
        try:
            await wait_until(pilot, lambda: "embedding 1/" in text_of(title))
            assert "searching by words meanwhile" in text_of(title)
            # the lab answers while the model reads for the golden queries: by words first where
            # these words' passages are unread, else by meaning (the engine is the same)
            await pilot.press(*"deploy", "enter")
            await wait_until(pilot, lambda: screen.result is not None and screen.result.query == "deploy")
            assert not release.is_set()  # answered before the model's reading was let go
        finally:
            release.set()
        await wait_until(pilot, lambda: "embedding" not in text_of(title))
        assert screen.engine.semantic is not None


async def _a_search_whose_words_changed_stops_reading(app, pilot):
    from textual.worker import Worker

    from curator.tui.screens.lab_engines import Superseded, stop_if_superseded

    stop_if_superseded()  # outside a worker: nothing to stop
    ran = []

    def step():
        worker.cancel()
        try:
            stop_if_superseded()
        except Superseded:
            ran.append("stopped")

    worker = app.run_worker(step, thread=True, exit_on_error=False)
    await wait_until(pilot, lambda: ran)
    assert ran == ["stopped"] and isinstance(worker, Worker)


async def test_a_semantic_source_that_cannot_run_says_why(app, monkeypatch):
    from curator.retrieval import semantic

    monkeypatch.delenv("CURATOR_NO_SEMANTIC")
    monkeypatch.setattr(semantic, "load_encoder", lambda: (None, "onnxruntime is not installed"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _search(app, pilot, semantic=False)
        await wait_until(pilot, lambda: screen.unavailable)
        reason = text_of(screen.query_one("#lab-reason", Static))
        assert "semantic source unavailable: onnxruntime is not installed" in reason
        assert "sem" not in _labels(screen.query_one("#fused"))
