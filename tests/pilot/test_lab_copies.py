"""The retrieval lab shows near-copies once, marked, as `curator retrieve` does."""

from __future__ import annotations

from tests.pilot.conftest import settle, wait_until

PROSE = "Retry the webhook delivery with exponential backoff and give up after the seventh attempt."


async def test_lab_shows_one_row_for_near_copies_marked_with_the_count(app, sample_copy):
    # the same skill kept under two names, other headings and other related links
    (sample_copy / "api/webhook-retries.md").write_text(
        f"# Webhook retries\n\n{PROSE}\n\n## Related\n\n- [api-error-envelope](api-error-envelope.md)\n")
    (sample_copy / "api/api-webhook-retries.md").write_text(f"# Skill-API-007: Webhook retries\n\n{PROSE}\n")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await pilot.press("4")
        screen = app.screen
        await wait_until(pilot, lambda: screen.engine is not None)
        await pilot.press(*"webhook delivery backoff")
        await wait_until(pilot, lambda: screen.result is not None and screen.result.query == "webhook delivery backoff")
        table = screen.query_one("#fused")
        keys = [r.value for r in table.rows]
        pair = {"api/webhook-retries.md", "api/api-webhook-retries.md"}
        assert len(pair & set(keys)) == 1
        kept = next(k for k in keys if k in pair)
        row = table.get_row(kept)
        assert "+1 copy" in str(row[1])
