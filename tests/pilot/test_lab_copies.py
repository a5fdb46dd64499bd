"""The retrieval lab shows near-copies once, marked, as `curator retrieve` does; and the skills
an agent would also load for the query."""

from __future__ import annotations

from tests.pilot.conftest import settle, wait_until


async def search_in_lab(app, pilot, query: str):
    await settle(app, pilot)
    await pilot.press("4")
    screen = app.screen
    await wait_until(pilot, lambda: screen.engine is not None)
    await pilot.press(*query)
    await wait_until(pilot, lambda: screen.result is not None and screen.result.query == query)
    return screen


PROSE = "Retry the webhook delivery with exponential backoff and give up after the seventh attempt."


async def test_lab_shows_one_row_for_near_copies_marked_with_the_count(app, sample_copy):
    # the same skill kept under two names, other headings and other related links
    (sample_copy / "api/webhook-retries.md").write_text(
        f"# Webhook retries\n\n{PROSE}\n\n## Related\n\n- [api-error-envelope](api-error-envelope.md)\n")
    (sample_copy / "api/api-webhook-retries.md").write_text(f"# Skill-API-007: Webhook retries\n\n{PROSE}\n")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await search_in_lab(app, pilot, "webhook delivery backoff")
        table = screen.query_one("#fused")
        keys = [r.value for r in table.rows]
        pair = {"api/webhook-retries.md", "api/api-webhook-retries.md"}
        assert len(pair & set(keys)) == 1
        kept = next(k for k in keys if k in pair)
        row = table.get_row(kept)
        assert "+1 copy" in str(row[1])


async def test_lab_names_the_skill_an_agent_would_also_load(app, sample_copy):
    skill = sample_copy.parent / ".claude/skills/webhooks/SKILL.md"  # the repository the store sits in
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: webhooks\ndescription: Debug failed webhook deliveries and their retries\n---\nx\n")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await search_in_lab(app, pilot, "webhook delivery backoff")
        await settle(app, pilot)
        trace = str(screen.query_one("#trace").render())
        assert "would also load: skill webhooks" in trace and "webhook" in trace
