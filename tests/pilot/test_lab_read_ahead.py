"""The lab keeps the results' path short: the model reads the typed words while the debounce
runs, and the per-source lists a short terminal hides are filled when they come back."""

from __future__ import annotations

from curator.tui.screens import retrieval_lab
from tests.fake_encoder import FakeEncoder, use_fake_encoder
from tests.pilot.conftest import settle, wait_until

QUERY = "schema change froze deploy"


class Recording(FakeEncoder):
    def __init__(self) -> None:
        self.queries: list[str] = []

    def encode(self, texts, progress=None):
        if len(texts) == 1:
            self.queries.append(texts[0])
        return super().encode(texts, progress)


async def _lab(app, pilot):
    await settle(app, pilot)
    await pilot.press("4")
    screen = app.screen
    await wait_until(pilot, lambda: screen.engine is not None and screen.engine.semantic is not None)
    await settle(app, pilot)
    return screen


async def test_the_typed_words_are_read_before_the_search_asks_for_them(app, monkeypatch):
    use_fake_encoder(monkeypatch)
    encoder = Recording()
    from curator.retrieval import semantic

    monkeypatch.setattr(semantic, "load_encoder", lambda: (encoder, ""))
    monkeypatch.setattr(retrieval_lab, "DEBOUNCE", 30.0)  # no search until Enter
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _lab(app, pilot)
        await pilot.press(*QUERY)
        await wait_until(pilot, lambda: QUERY in encoder.queries, seen=lambda: f"read {encoder.queries[-3:]}")
        assert screen.result is None  # read while the debounce runs: no search has asked yet
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.result is not None and screen.result.query == QUERY)
        assert "semantic" in screen.result.per_source
        assert encoder.queries.count(QUERY) == 1  # the search used the vector read ahead


async def test_the_per_source_lists_are_filled_when_there_is_room_for_them(app, monkeypatch):
    use_fake_encoder(monkeypatch)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _lab(app, pilot)
        await pilot.press(*QUERY)
        await wait_until(pilot, lambda: screen.result is not None and screen.result.query == QUERY)
        await settle(app, pilot)
        bm25 = screen.query_one("#src-bm25")
        assert not screen.query_one("#lab-sources").display and bm25.row_count == 0  # hidden at 24 rows: not filled
        await pilot.resize_terminal(120, 36)
        await settle(app, pilot)
        assert screen.query_one("#lab-sources").display
        want = [p for p, _ in screen.result.per_source["bm25"][:8]]
        assert want and [r.value for r in bm25.rows] == want
        assert screen.query_one("#src-semantic").row_count > 0
